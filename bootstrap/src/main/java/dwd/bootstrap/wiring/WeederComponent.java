package dwd.bootstrap.wiring;

import dagger.BindsInstance;
import dagger.Component;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.WeederObserver;
import dwd.bootstrap.run.WeederRuntime;
import dwd.bootstrap.seed.SeedConnection;
import dwd.domain.config.WeederConfig;
import jakarta.inject.Singleton;

/** The object graph of {@code dwd weeder}. */
@Singleton
@Component(modules = WeederModule.class)
public interface WeederComponent {

    WeederRuntime runtime();

    static WeederComponent create(WeederConfig config, SeedConnection seed, WeederObserver observer) {
        return create(config, seed, observer, Leadership.always());
    }

    /** @param leadership every pod deletion is fenced by it */
    static WeederComponent create(WeederConfig config, SeedConnection seed, WeederObserver observer,
            Leadership leadership) {
        return DaggerWeederComponent.factory().create(config, seed, observer, leadership);
    }

    /** What the graph is built from. */
    @Component.Factory
    interface Factory {
        WeederComponent create(@BindsInstance WeederConfig config, @BindsInstance SeedConnection seed,
                @BindsInstance WeederObserver observer, @BindsInstance Leadership leadership);
    }
}
