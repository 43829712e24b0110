package dwd.bootstrap.cli;

import dwd.adapters.k8s.leader.LeaderElectionTimings;
import dwd.adapters.k8s.leader.LockNames;
import dwd.adapters.metrics.ShadowMetrics;
import dwd.adapters.metrics.WeederMetrics;
import dwd.adapters.metrics.WeederStatusJson;
import dwd.application.comparison.ComparisonMode;
import dwd.application.health.HealthCheck;
import dwd.application.health.LoopProgress;
import dwd.application.leader.LeaderOnly;
import dwd.application.port.out.Clock;
import dwd.application.port.out.EventRecorder;
import dwd.application.port.out.ShadowObserver;
import dwd.application.port.out.ShadowObservers;
import dwd.application.port.out.WeederObserver;
import dwd.application.port.out.WeederObservers;
import dwd.application.shadow.LoggingShadowObserver;
import dwd.application.shadow.ShadowMode;
import dwd.application.weeder.LoggingWeederObserver;
import dwd.application.weeder.PodDeletionEvents;
import dwd.application.weeder.WeederProgress;
import dwd.application.weeder.WeederStatusBoard;
import dwd.bootstrap.comparison.BesideOriginal;
import dwd.bootstrap.config.ConfigFiles;
import dwd.bootstrap.run.RoleOperability;
import dwd.bootstrap.run.RoleRuntime;
import dwd.bootstrap.run.WeederRuntime;
import dwd.bootstrap.seed.SeedConnection;
import dwd.bootstrap.shadow.ComparisonOption;
import dwd.bootstrap.shadow.DryRunOption;
import dwd.bootstrap.wiring.ObjectGraphs;
import dwd.domain.config.GoDuration;
import dwd.domain.config.WeederConfig;
import dwd.domain.dryrun.DryRunMode;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** {@code dwd weeder}: restarts dependents stuck in CrashLoopBackOff when their service recovers. */
@Command(name = "weeder", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Restart pods stuck in CrashLoopBackOff when the service they depend on is ready again.",
            "Watches the EndpointSlices of the configured services (e.g. etcd-main-client); when one turns ready,"
                    + " deletes its crash-looping dependents for watchDuration. Runs until SIGTERM or SIGINT.",
            "Exit status: 2 for a bad command line; 1 for a config or start-up error, or when leadership is lost"
                    + " (the orchestrator restarts it)."})
public final class WeederCommand implements Callable<Integer> {

    private static final Logger LOG = LogManager.getLogger("dwd.weeder");
    /** Events' reportingController: who wrote them. */
    static final String REPORTING_CONTROLLER = "dependency-watchdog.gardener.cloud/weeder";
    /**
     * How long a weeder may outlive its window before {@code /healthz} fails. Its stop is a timer
     * task that closes watches without waiting for anything, so a minute late means a stuck timer.
     */
    static final Duration WEEDER_STALL_TOLERANCE = Duration.ofMinutes(1);

    @Spec
    CommandSpec spec;

    @Mixin
    RoleOptions options;

    @Mixin
    DryRunOption dryRunOption;

    @Mixin
    ComparisonOption comparisonOption;

    @Option(names = "--concurrent-reconciles", paramLabel = "N", defaultValue = "1",
            description = "Accepted for compatibility and ignored, as the original's weeder ignores it: EndpointSlice"
                    + " events are handled one at a time, as they arrive.")
    int concurrentReconciles;

    @Override
    public Integer call() {
        Optional<ComparisonOption.Settings> beside = comparisonOption.resolve(dryRunOption, spec.commandLine());
        RoleStart.Started<WeederConfig> started;
        try {
            started = RoleStart.begin("dwd weeder", spec.commandLine(), options, dryRunOption, LOG, ConfigFiles::weeder);
        } catch (RoleStart.Exit exit) {
            return exit.status();
        }
        WeederConfig config = started.config();
        SeedConnection seed = started.seed();
        DryRunMode mode = started.mode();
        LOG.info("dwd weeder starting: config {}, seed from {}, services {}, watch duration {}, dry-run {},"
                + " seed requests: {}", options.configFile(), seed.source(), config.servicesAndDependantSelectors().keySet(),
                GoDuration.format(config.watchDuration()), mode.flagValue(), options.describeSeedLimit());
        return run(config, seed, started.election(), mode, beside);
    }

    private int run(WeederConfig config, SeedConnection plainSeed, Optional<LeaderElectionTimings> election,
            DryRunMode mode, Optional<ComparisonOption.Settings> besideOriginal) {
        var operability = RoleOperability.prepare(new RoleOperability.Settings("weeder",
                RoleStart.lockName(LockNames.WEEDER, mode),
                REPORTING_CONTROLLER, ObjectGraphs.launcher().buildInfo().version(), election,
                options.leaderElectionNamespace(), options.metricsAddress(), options.healthAddress(),
                List.of("seed", "leader-election"), options.seedThrottle()), plainSeed);
        operability.startCompeting(); // the election's round trips overlap the building of the runtime
        Clock clock = operability.clock();

        var board = new WeederStatusBoard(clock);
        var weeders = new LoopProgress("weeders", clock, WEEDER_STALL_TOLERANCE);
        Optional<BesideOriginal> beside = besideOriginal.map(settings -> BesideOriginal.weeder(settings, config,
                operability.seed(), operability.registry()));
        WeederObserver observer = WeederObservers.of(
                beside.map(BesideOriginal::weederObserver).orElse(new WeederObserver() { }),
                new LoggingWeederObserver(),
                new WeederMetrics(operability.registry()),
                board,
                new WeederProgress(weeders),
                // Events are writes too: none in shadow mode.
                new PodDeletionEvents(mode.isShadow() ? EventRecorder.none()
                        : LeaderOnly.events(operability.events(), operability.leadership())));
        var shadow = new ShadowMode(mode, ShadowObservers.of(new LoggingShadowObserver(),
                new ShadowMetrics(operability.registry(), mode),
                beside.map(BesideOriginal::dwdShadowActions).orElse(new ShadowObserver() { })));
        WeederRuntime runtime = ObjectGraphs.weeder(config, operability.seed(), observer, operability.leadership(),
                shadow, beside.map(BesideOriginal::mode).orElse(ComparisonMode.off())).runtime();

        operability.health().addLiveness(weeders).addLiveness(runtime.sliceWatchLiveness());
        RoleRuntime work = beside.map(comparison -> comparison.around(runtime)).orElse(runtime);
        Map<String, Supplier<String>> pages = new LinkedHashMap<>(Map.of("/weeders", new WeederStatusJson(board, clock::now)));
        beside.ifPresent(comparison -> pages.put(BesideOriginal.PAGE, comparison.page()));
        return operability.run(work,
                () -> work.isStartedAndSynced()
                        ? HealthCheck.Result.ok("caches", "EndpointSlice cache synced")
                        : HealthCheck.Result.failing("caches", "EndpointSlice cache not synced yet"),
                pages);
    }
}
