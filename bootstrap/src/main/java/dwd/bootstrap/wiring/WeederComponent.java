package dwd.bootstrap.wiring;

import dagger.BindsInstance;
import dagger.Component;
import dwd.application.comparison.ComparisonMode;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.WeederObserver;
import dwd.application.shadow.ShadowMode;
import dwd.bootstrap.run.WeederRuntime;
import dwd.bootstrap.seed.SeedConnection;
import dwd.domain.config.WeederConfig;
import jakarta.inject.Singleton;

/** The object graph of {@code dwd weeder}, built by {@link ObjectGraphs}. */
@Singleton
@Component(modules = WeederModule.class)
public interface WeederComponent {

    WeederRuntime runtime();

    /** What the graph is built from. */
    @Component.Factory
    interface Factory {
        WeederComponent create(@BindsInstance WeederConfig config, @BindsInstance SeedConnection seed,
                @BindsInstance WeederObserver observer, @BindsInstance Leadership leadership,
                @BindsInstance ShadowMode shadow, @BindsInstance ComparisonMode comparison);
    }
}
