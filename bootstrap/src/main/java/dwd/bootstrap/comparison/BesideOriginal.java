package dwd.bootstrap.comparison;

import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.comparison.KubernetesDependentChanges;
import dwd.adapters.k8s.comparison.KubernetesWatchedPods;
import dwd.adapters.metrics.ComparisonJson;
import dwd.adapters.metrics.ComparisonMetrics;
import dwd.application.comparison.Comparison;
import dwd.application.comparison.ComparisonMode;
import dwd.application.comparison.DwdProberActions;
import dwd.application.comparison.DwdWeederActions;
import dwd.application.comparison.LoggingComparisonObserver;
import dwd.application.comparison.OriginalDeletions;
import dwd.application.comparison.OriginalDependents;
import dwd.application.port.out.ComparisonObserver;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ShadowObserver;
import dwd.application.port.out.WeederObserver;
import dwd.application.runtime.SystemScheduler;
import dwd.bootstrap.run.RoleRuntime;
import dwd.bootstrap.seed.SeedConnection;
import dwd.bootstrap.shadow.ComparisonOption;
import dwd.domain.comparison.EpisodeKind;
import dwd.domain.config.DependentResourceInfo;
import dwd.domain.config.ProberConfig;
import dwd.domain.config.WeederConfig;
import dwd.domain.selector.LabelSelector;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A role's comparison with the original, put together: the book of episodes, the original's side (a watch
 * of the seed's objects), dwd's side (observers of its would-be actions), the view of the seed without the
 * original that shadow mode decides on, the log, the metrics and the {@code /comparison} page. Its watches
 * run while the role runs ({@link #around}).
 */
public final class BesideOriginal {

    /** Where the report is served, beside the role's status page. */
    public static final String PAGE = "/comparison";

    private final SystemScheduler scheduler;
    private final ComparisonMode mode;
    private final ShadowObserver dwdShadowActions;
    private final ProberObserver proberObserver;
    private final WeederObserver weederObserver;
    private final Supplier<String> page;
    private final Runnable startWatches;
    private final BooleanSupplier watchesSynced;
    private final Runnable stopWatches;

    private BesideOriginal(SystemScheduler scheduler, ComparisonMode mode, ShadowObserver dwdShadowActions,
            ProberObserver proberObserver, WeederObserver weederObserver, Supplier<String> page, Runnable startWatches,
            BooleanSupplier watchesSynced, Runnable stopWatches) {
        this.scheduler = scheduler;
        this.mode = mode;
        this.dwdShadowActions = dwdShadowActions;
        this.proberObserver = proberObserver;
        this.weederObserver = weederObserver;
        this.page = page;
        this.startWatches = startWatches;
        this.watchesSynced = watchesSynced;
        this.stopWatches = stopWatches;
    }

    /** The prober's comparison: its scalings against the original's, from watches of the configured dependents. */
    public static BesideOriginal prober(ComparisonOption.Settings settings, ProberConfig config, SeedConnection seed,
            MeterRegistry registry) {
        var scheduler = new SystemScheduler();
        Comparison comparison = new Comparison(Comparison.Settings.prober(settings.window(), config), scheduler,
                observers(settings, registry, List.of(EpisodeKind.MELTDOWN, EpisodeKind.RECOVERY)));
        var dependents = new OriginalDependents(settings.originalFieldManager(), scheduler, comparison);
        var watch = new KubernetesDependentChanges(seed, config.dependentResourceInfos().stream()
                .map(DependentResourceInfo::ref).toList(), dependents, seed.watchReports());
        var dwd = new DwdProberActions(scheduler, comparison);
        return new BesideOriginal(scheduler, ComparisonMode.prober(dependents), dwd, dwd, new WeederObserver() { },
                new ComparisonJson("prober", settings.originalFieldManager(), comparison, scheduler::now),
                watch::start, watch::hasSynced, watch::close);
    }

    /** The weeder's comparison: its deletions against the original's, from watches of the weeders' pods. */
    public static BesideOriginal weeder(ComparisonOption.Settings settings, WeederConfig config, SeedConnection seed,
            MeterRegistry registry) {
        var scheduler = new SystemScheduler();
        Comparison comparison = new Comparison(Comparison.Settings.weeder(settings.window()), scheduler,
                observers(settings, registry, List.of(EpisodeKind.WEEDING)));
        var deletions = new OriginalDeletions(config, scheduler, comparison);
        Set<LabelSelector> selectors = new HashSet<>();
        config.servicesAndDependantSelectors().values().forEach(selectors::addAll);
        ApiClient client = OwnedClients.forWatches(seed);
        var watch = new KubernetesWatchedPods(client, selectors, deletions, seed.watchReports());
        var dwd = new DwdWeederActions(scheduler, comparison, deletions);
        return new BesideOriginal(scheduler, ComparisonMode.weeder(deletions), dwd, new ProberObserver() { }, dwd,
                new ComparisonJson("weeder", settings.originalFieldManager(), comparison, scheduler::now),
                watch::start, watch::hasSynced, () -> {
                    watch.close();
                    OwnedClients.release(client);
                });
    }

    private static ComparisonObserver observers(ComparisonOption.Settings settings, MeterRegistry registry,
            List<EpisodeKind> kinds) {
        return ComparisonObserver.all(new LoggingComparisonObserver(settings.window()),
                new ComparisonMetrics(registry, kinds));
    }

    /** The view of the seed the role's shadow decides on. */
    public ComparisonMode mode() {
        return mode;
    }

    /** Told of dwd's would-be actions: add to shadow mode's observers. */
    public ShadowObserver dwdShadowActions() {
        return dwdShadowActions;
    }

    /** Told of the prober's flows: add to its observers. */
    public ProberObserver proberObserver() {
        return proberObserver;
    }

    /** Told of the weeder's windows and the pods it found gone: add to its observers. */
    public WeederObserver weederObserver() {
        return weederObserver;
    }

    /** The {@code /comparison} page. */
    public Supplier<String> page() {
        return page;
    }

    /** {@code runtime} with the comparison's watches started before it and stopped after it. */
    public RoleRuntime around(RoleRuntime runtime) {
        return new RoleRuntime() {
            @Override
            public void start() {
                startWatches.run();
                runtime.start();
            }

            @Override
            public boolean isStartedAndSynced() {
                return runtime.isStartedAndSynced() && watchesSynced.getAsBoolean();
            }

            @Override
            public void close() {
                runtime.close();
                stopWatches.run();
                scheduler.close();
            }
        };
    }
}
