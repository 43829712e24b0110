package dwd.bootstrap.wiring;

import dagger.BindsInstance;
import dagger.Component;
import dwd.application.comparison.ComparisonMode;
import dwd.application.port.out.ApiTraffic;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.ProberObserver;
import dwd.application.prober.ProberTuning;
import dwd.application.shadow.ShadowMode;
import dwd.bootstrap.run.ProberRuntime;
import dwd.bootstrap.seed.SeedConnection;
import dwd.domain.config.ProberConfig;
import jakarta.inject.Singleton;

/** The object graph of {@code dwd prober}, built by {@link ObjectGraphs}. */
@Singleton
@Component(modules = ProberModule.class)
public interface ProberComponent {

    ProberRuntime runtime();

    /** What the graph is built from. */
    @Component.Factory
    interface Factory {
        ProberComponent create(@BindsInstance ProberConfig config, @BindsInstance SeedConnection seed,
                @BindsInstance ProberTuning tuning, @BindsInstance ProberObserver observer,
                @BindsInstance Leadership leadership, @BindsInstance ApiTraffic traffic, @BindsInstance ShadowMode shadow,
                @BindsInstance ComparisonMode comparison);
    }
}
