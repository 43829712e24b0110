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

/** The object graph of {@code dwd prober}. */
@Singleton
@Component(modules = ProberModule.class)
public interface ProberComponent {

    ProberRuntime runtime();

    static ProberComponent create(ProberConfig config, SeedConnection seed, ProberTuning tuning, ProberObserver observer) {
        return create(config, seed, tuning, observer, Leadership.always(), ApiTraffic.none(), ShadowMode.off());
    }

    /** @param shadow the {@code --dry-run} mode and who hears of its would-be actions */
    static ProberComponent create(ProberConfig config, SeedConnection seed, ProberTuning tuning, ProberObserver observer,
            ShadowMode shadow) {
        return create(config, seed, tuning, observer, Leadership.always(), ApiTraffic.none(), shadow);
    }

    /**
     * @param leadership every write to the seed is fenced by it
     * @param traffic    told about every request to a shoot's API server
     */
    static ProberComponent create(ProberConfig config, SeedConnection seed, ProberTuning tuning, ProberObserver observer,
            Leadership leadership, ApiTraffic traffic) {
        return create(config, seed, tuning, observer, leadership, traffic, ShadowMode.off());
    }

    /** Leadership fences writes, traffic is metered, shadow mode decorates the writes. */
    static ProberComponent create(ProberConfig config, SeedConnection seed, ProberTuning tuning, ProberObserver observer,
            Leadership leadership, ApiTraffic traffic, ShadowMode shadow) {
        return create(config, seed, tuning, observer, leadership, traffic, shadow, ComparisonMode.off());
    }

    /** Everything: and, beside the original, the shadow decides on the seed without the original's writes. */
    static ProberComponent create(ProberConfig config, SeedConnection seed, ProberTuning tuning, ProberObserver observer,
            Leadership leadership, ApiTraffic traffic, ShadowMode shadow, ComparisonMode comparison) {
        return DaggerProberComponent.factory().create(config, seed, tuning, observer, leadership, traffic, shadow,
                comparison);
    }

    /** What the graph is built from. */
    @Component.Factory
    interface Factory {
        ProberComponent create(@BindsInstance ProberConfig config, @BindsInstance SeedConnection seed,
                @BindsInstance ProberTuning tuning, @BindsInstance ProberObserver observer,
                @BindsInstance Leadership leadership, @BindsInstance ApiTraffic traffic, @BindsInstance ShadowMode shadow,
                @BindsInstance ComparisonMode comparison);
    }
}
