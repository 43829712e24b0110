package dwd.bootstrap.wiring;

import dwd.application.port.out.ApiTraffic;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.WeederObserver;
import dwd.application.comparison.ComparisonMode;
import dwd.application.prober.ProberTuning;
import dwd.application.shadow.ShadowMode;
import dwd.bootstrap.seed.SeedConnection;
import dwd.domain.config.ProberConfig;
import dwd.domain.config.WeederConfig;

/**
 * Builds the object graphs, each by the implementation Dagger generates for its component
 * ({@code Dagger<Component>}, which refers to the component it implements).
 */
public final class ObjectGraphs {

    private ObjectGraphs() {
    }

    /** The launcher's graph. */
    public static LauncherComponent launcher() {
        return DaggerLauncherComponent.create();
    }

    /** The graph of {@code dwd prober}: every write allowed, no traffic metered, shadow mode off. */
    public static ProberComponent prober(ProberConfig config, SeedConnection seed, ProberTuning tuning,
            ProberObserver observer) {
        return prober(config, seed, tuning, observer, Leadership.always(), ApiTraffic.none(), ShadowMode.off());
    }

    /** @param shadow the {@code --dry-run} mode and who hears of its would-be actions */
    public static ProberComponent prober(ProberConfig config, SeedConnection seed, ProberTuning tuning,
            ProberObserver observer, ShadowMode shadow) {
        return prober(config, seed, tuning, observer, Leadership.always(), ApiTraffic.none(), shadow);
    }

    /**
     * @param leadership every write to the seed is fenced by it
     * @param traffic    told about every request to a shoot's API server
     */
    public static ProberComponent prober(ProberConfig config, SeedConnection seed, ProberTuning tuning,
            ProberObserver observer, Leadership leadership, ApiTraffic traffic) {
        return prober(config, seed, tuning, observer, leadership, traffic, ShadowMode.off());
    }

    /** Leadership fences writes, traffic is metered, shadow mode decorates the writes. */
    public static ProberComponent prober(ProberConfig config, SeedConnection seed, ProberTuning tuning,
            ProberObserver observer, Leadership leadership, ApiTraffic traffic, ShadowMode shadow) {
        return prober(config, seed, tuning, observer, leadership, traffic, shadow, ComparisonMode.off());
    }

    /** Everything: and, beside the original, the shadow decides on the seed without the original's writes. */
    public static ProberComponent prober(ProberConfig config, SeedConnection seed, ProberTuning tuning,
            ProberObserver observer, Leadership leadership, ApiTraffic traffic, ShadowMode shadow,
            ComparisonMode comparison) {
        return DaggerProberComponent.factory().create(config, seed, tuning, observer, leadership, traffic, shadow,
                comparison);
    }

    /** The graph of {@code dwd weeder}: every deletion allowed, shadow mode off. */
    public static WeederComponent weeder(WeederConfig config, SeedConnection seed, WeederObserver observer) {
        return weeder(config, seed, observer, Leadership.always(), ShadowMode.off());
    }

    /** @param shadow the {@code --dry-run} mode and who hears of its would-be actions */
    public static WeederComponent weeder(WeederConfig config, SeedConnection seed, WeederObserver observer,
            ShadowMode shadow) {
        return weeder(config, seed, observer, Leadership.always(), shadow);
    }

    /** @param leadership every pod deletion is fenced by it */
    public static WeederComponent weeder(WeederConfig config, SeedConnection seed, WeederObserver observer,
            Leadership leadership) {
        return weeder(config, seed, observer, leadership, ShadowMode.off());
    }

    /** Leadership fences deletions, shadow mode decorates them. */
    public static WeederComponent weeder(WeederConfig config, SeedConnection seed, WeederObserver observer,
            Leadership leadership, ShadowMode shadow) {
        return weeder(config, seed, observer, leadership, shadow, ComparisonMode.off());
    }

    /** Everything: and, beside the original, the shadow watches the pods without the original's deletions. */
    public static WeederComponent weeder(WeederConfig config, SeedConnection seed, WeederObserver observer,
            Leadership leadership, ShadowMode shadow, ComparisonMode comparison) {
        return DaggerWeederComponent.factory().create(config, seed, observer, leadership, shadow, comparison);
    }
}
