package dwd.bootstrap.cli;

import dwd.adapters.k8s.ConcurrencyBound;
import dwd.adapters.k8s.leader.LeaderElectionTimings;
import dwd.adapters.k8s.leader.LockNames;
import dwd.adapters.metrics.ClientThrottleMetrics;
import dwd.adapters.metrics.ProbeStatusJson;
import dwd.adapters.metrics.ProberMetrics;
import dwd.adapters.metrics.ShadowMetrics;
import dwd.application.comparison.ComparisonMode;
import dwd.application.health.HealthCheck;
import dwd.application.health.LoopProgress;
import dwd.application.leader.LeaderOnly;
import dwd.application.port.out.Clock;
import dwd.application.port.out.EventRecorder;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ProberObservers;
import dwd.application.port.out.ShadowObserver;
import dwd.application.port.out.ShadowObservers;
import dwd.application.prober.LoggingProberObserver;
import dwd.application.prober.ProbeProgress;
import dwd.application.prober.ProbeStatusBoard;
import dwd.application.prober.ProberTuning;
import dwd.application.prober.ScaleEvents;
import dwd.application.shadow.LoggingShadowObserver;
import dwd.application.shadow.ShadowMode;
import dwd.bootstrap.comparison.BesideOriginal;
import dwd.bootstrap.config.ConfigFiles;
import dwd.bootstrap.run.ProberRuntime;
import dwd.bootstrap.run.RoleOperability;
import dwd.bootstrap.run.RoleRuntime;
import dwd.bootstrap.run.StallingProbeObserver;
import dwd.bootstrap.seed.SeedConnection;
import dwd.bootstrap.shadow.ComparisonOption;
import dwd.bootstrap.shadow.DryRunOption;
import dwd.bootstrap.wiring.BuildInfo;
import dwd.bootstrap.wiring.ObjectGraphs;
import dwd.domain.config.GoDuration;
import dwd.domain.config.ProberConfig;
import dwd.domain.dryrun.DryRunMode;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** {@code dwd prober}: protects the shoots of a seed whose kubelets lose their control plane. */
@Command(name = "prober", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Protect shoots whose kubelets lose their control plane.",
            "Probes every shoot's API server and node leases; when too many leases expire, scales down"
                    + " machine-controller-manager and cluster-autoscaler, then kube-controller-manager, and scales"
                    + " them back up, in order, once leases are renewed again. Runs until SIGTERM or SIGINT.",
            "Exit status: 2 for a bad command line; 1 for a config or start-up error, or when leadership is lost"
                    + " (the orchestrator restarts it)."})
public final class ProberCommand implements Callable<Integer> {

    private static final Logger LOG = LogManager.getLogger("dwd.prober");
    /** Events' reportingController: who wrote them. */
    static final String REPORTING_CONTROLLER = "dependency-watchdog.gardener.cloud/prober";

    @Spec
    CommandSpec spec;

    @Mixin
    RoleOptions options;

    @Mixin
    DryRunOption dryRunOption;

    @Mixin
    ComparisonOption comparisonOption;

    @Option(names = "--concurrent-reconciles", paramLabel = "N", defaultValue = "1",
            description = "Accepted for compatibility and ignored: the prober handles each Cluster event as it arrives,"
                    + " without a work queue.")
    int concurrentReconciles;

    @Option(names = "--x-scale-readiness-timeout", hidden = true, converter = RoleOptions.GoDurationConverter.class,
            description = "How long a scaled dependent is watched for ready replicas (default: 5s, the original's;"
                    + " demos and tests shorten it).")
    Duration readinessTimeout;

    @Option(names = "--x-stall-tolerance", hidden = true, converter = RoleOptions.GoDurationConverter.class,
            description = "How late a probe loop may report before /healthz fails (default: 4 x probeTimeout + 10s).")
    Duration stallTolerance;

    @Option(names = "--x-test-stall-file", hidden = true,
            description = "Test hook: while this file exists, probe runs block (proves /healthz notices a stuck loop).")
    Path stallFile;

    @Override
    public Integer call() {
        Optional<ComparisonOption.Settings> beside = comparisonOption.resolve(dryRunOption, spec.commandLine());
        RoleStart.Started<ProberConfig> started;
        try {
            started = RoleStart.begin("dwd prober", spec.commandLine(), options, dryRunOption, LOG, ConfigFiles::prober);
        } catch (RoleStart.Exit exit) {
            return exit.status();
        }
        ProberConfig config = started.config();
        SeedConnection seed = started.seed();
        DryRunMode mode = started.mode();
        LOG.info("dwd prober starting: config {}, seed from {}, {} dependents, probe interval {}, lease failure fraction {},"
                + " dry-run {}, seed requests: {}", options.configFile(), seed.source(), config.dependentResourceInfos().size(),
                GoDuration.format(config.probeInterval()), config.nodeLeaseFailureFraction(), mode.flagValue(),
                options.describeSeedLimit());
        return run(config, seed, started.election(), mode, beside);
    }

    private int run(ProberConfig config, SeedConnection plainSeed, Optional<LeaderElectionTimings> election,
            DryRunMode mode, Optional<ComparisonOption.Settings> besideOriginal) {
        BuildInfo build = ObjectGraphs.launcher().buildInfo();
        var operability = RoleOperability.prepare(new RoleOperability.Settings("prober", RoleStart.lockName(LockNames.PROBER, mode),
                REPORTING_CONTROLLER, build.version(), election, options.leaderElectionNamespace(),
                options.metricsAddress(), options.healthAddress(), List.of("seed", "shoot", "leader-election"), options.seedThrottle()), plainSeed);
        operability.startCompeting(); // the election's round trips overlap the building of the runtime
        Clock clock = operability.clock();
        Leadership leadership = operability.leadership();

        var board = new ProbeStatusBoard(clock);
        Duration tolerance = stallTolerance != null ? stallTolerance
                : config.probeTimeout().multipliedBy(4).plusSeconds(10);
        var loops = LoopProgress.failingWhenMostStall("probe-loops", clock, tolerance);
        var metrics = new ProberMetrics(operability.registry(), clock);
        metrics.countStalledProbeLoops(() -> loops.stalled().size());
        List<ProberObserver> observers = new ArrayList<>(List.of(
                new LoggingProberObserver(operability.seed().outages()::inOutage, clock),
                metrics,
                board,
                new ProbeProgress(loops),
                // Events are writes too: none in shadow mode (the would-be actions go to the shadow observers).
                new ScaleEvents(mode.isShadow() ? EventRecorder.none() : LeaderOnly.events(operability.events(), leadership))));
        Optional<BesideOriginal> beside = besideOriginal.map(settings -> BesideOriginal.prober(settings, config,
                operability.seed(), operability.registry()));
        beside.ifPresent(comparison -> observers.add(comparison.proberObserver()));
        if (stallFile != null) {
            observers.add(new StallingProbeObserver(stallFile)); // last: the others have seen the run before it blocks
        }
        ProberRuntime runtime = ObjectGraphs.prober(config, operability.seed(),
                readinessTimeout == null ? ProberTuning.defaults() : ProberTuning.defaults().withReadinessTimeout(readinessTimeout),
                ProberObservers.of(observers.toArray(ProberObserver[]::new)), leadership, operability.traffic(),
                new ShadowMode(mode, ShadowObservers.of(new LoggingShadowObserver(),
                        new ShadowMetrics(operability.registry(), mode),
                        beside.map(BesideOriginal::dwdShadowActions).orElse(new ShadowObserver() { }))),
                beside.map(BesideOriginal::mode).orElse(ComparisonMode.off())).runtime();
        ClientThrottleMetrics.registerScaleRequestBound(operability.registry(), runtime.scaleRequestBound(),
                ConcurrencyBound::inFlight, ConcurrencyBound::waitedRequests, bound -> bound.waited().toNanos() / 1e9);

        operability.health().addLiveness(loops);
        RoleRuntime work = beside.map(comparison -> comparison.around(runtime)).orElse(runtime);
        Map<String, Supplier<String>> pages = new LinkedHashMap<>(Map.of("/probes", new ProbeStatusJson(board, clock::now)));
        beside.ifPresent(comparison -> pages.put(BesideOriginal.PAGE, comparison.page()));
        return operability.run(work,
                () -> work.isStartedAndSynced()
                        ? HealthCheck.Result.ok("caches", "Machine and Cluster caches synced")
                        : HealthCheck.Result.failing("caches", "Machine and Cluster caches not synced yet"),
                pages);
    }

}
