package dwd.bootstrap.wiring;

import dagger.Component;
import jakarta.inject.Singleton;

/** The object graph of the launcher. */
@Singleton
@Component(modules = LauncherModule.class)
public interface LauncherComponent {

    BuildInfo buildInfo();

    static LauncherComponent create() {
        return DaggerLauncherComponent.create();
    }
}
