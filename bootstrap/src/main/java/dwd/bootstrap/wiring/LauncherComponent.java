package dwd.bootstrap.wiring;

import dagger.Component;
import jakarta.inject.Singleton;

/** The object graph of the launcher, built by {@link ObjectGraphs#launcher()}. */
@Singleton
@Component(modules = LauncherModule.class)
public interface LauncherComponent {

    BuildInfo buildInfo();
}
