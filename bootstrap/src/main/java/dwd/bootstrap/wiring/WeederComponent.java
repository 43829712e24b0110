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

/** The object graph of {@code dwd weeder}. */
@Singleton
@Component(modules = WeederModule.class)
public interface WeederComponent {

    WeederRuntime runtime();

    static WeederComponent create(WeederConfig config, SeedConnection seed, WeederObserver observer) {
        return create(config, seed, observer, Leadership.always(), ShadowMode.off());
    }

    /** @param shadow the {@code --dry-run} mode and who hears of its would-be actions */
    static WeederComponent create(WeederConfig config, SeedConnection seed, WeederObserver observer, ShadowMode shadow) {
        return create(config, seed, observer, Leadership.always(), shadow);
    }

    /** @param leadership every pod deletion is fenced by it */
    static WeederComponent create(WeederConfig config, SeedConnection seed, WeederObserver observer,
            Leadership leadership) {
        return create(config, seed, observer, leadership, ShadowMode.off());
    }

    /** Leadership fences deletions, shadow mode decorates them. */
    static WeederComponent create(WeederConfig config, SeedConnection seed, WeederObserver observer,
            Leadership leadership, ShadowMode shadow) {
        return create(config, seed, observer, leadership, shadow, ComparisonMode.off());
    }

    /** Everything: and, beside the original, the shadow watches the pods without the original's deletions. */
    static WeederComponent create(WeederConfig config, SeedConnection seed, WeederObserver observer,
            Leadership leadership, ShadowMode shadow, ComparisonMode comparison) {
        return DaggerWeederComponent.factory().create(config, seed, observer, leadership, shadow, comparison);
    }

    /** What the graph is built from. */
    @Component.Factory
    interface Factory {
        WeederComponent create(@BindsInstance WeederConfig config, @BindsInstance SeedConnection seed,
                @BindsInstance WeederObserver observer, @BindsInstance Leadership leadership,
                @BindsInstance ShadowMode shadow, @BindsInstance ComparisonMode comparison);
    }
}
