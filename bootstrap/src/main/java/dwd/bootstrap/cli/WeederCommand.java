package dwd.bootstrap.cli;

import dwd.domain.config.GoDuration;
import dwd.bootstrap.shadow.DryRunOption;
import dwd.application.shadow.ShadowMode;
import dwd.application.shadow.LoggingShadowObserver;
import dwd.adapters.metrics.ShadowMetrics;
import dwd.domain.dryrun.DryRunMode;
import dwd.application.port.out.ShadowObserver;
import dwd.application.port.out.EventRecorder;
import dwd.application.weeder.LoggingWeederObserver;
import dwd.adapters.k8s.leader.LeaderElectionTimings;
import dwd.adapters.k8s.leader.LockNames;
import dwd.adapters.metrics.WeederMetrics;
import dwd.adapters.metrics.WeederStatusJson;
import dwd.application.health.HealthCheck;
import dwd.application.health.LoopProgress;
import dwd.application.leader.LeaderOnly;
import dwd.application.port.out.Clock;
import dwd.application.port.out.WeederObserver;
import dwd.application.weeder.PodDeletionEvents;
import dwd.application.weeder.WeederProgress;
import dwd.application.weeder.WeederStatusBoard;
import dwd.bootstrap.config.ConfigFiles;
import dwd.bootstrap.run.RoleOperability;
import dwd.bootstrap.run.WeederRuntime;
import dwd.bootstrap.seed.SeedConnection;
import dwd.bootstrap.wiring.LauncherComponent;
import dwd.bootstrap.wiring.WeederComponent;
import dwd.domain.config.WeederConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

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

    @Option(names = "--concurrent-reconciles", paramLabel = "N", defaultValue = "1",
            description = "Accepted for compatibility and ignored, as the original's weeder ignores it: EndpointSlice"
                    + " events are handled one at a time, as they arrive.")
    int concurrentReconciles;

    @Override
    public Integer call() {
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
        return run(config, seed, started.election(), mode);
    }

    private int run(WeederConfig config, SeedConnection plainSeed, Optional<LeaderElectionTimings> election,
            DryRunMode mode) {
        var operability = RoleOperability.prepare(new RoleOperability.Settings("weeder",
                RoleStart.lockName(LockNames.WEEDER, mode),
                REPORTING_CONTROLLER, LauncherComponent.create().buildInfo().version(), election,
                options.leaderElectionNamespace(), options.metricsAddress(), options.healthAddress(),
                List.of("seed", "leader-election"), options.seedThrottle()), plainSeed);
        operability.startCompeting(); // the election's round trips overlap the building of the runtime
        Clock clock = operability.clock();

        var board = new WeederStatusBoard(clock);
        var weeders = new LoopProgress("weeders", clock, WEEDER_STALL_TOLERANCE);
        WeederObserver observer = WeederObserver.all(
                new LoggingWeederObserver(),
                new WeederMetrics(operability.registry()),
                board,
                new WeederProgress(weeders),
                // Events are writes too: none in shadow mode.
                new PodDeletionEvents(mode.isShadow() ? EventRecorder.none()
                        : LeaderOnly.events(operability.events(), operability.leadership())));
        var shadow = new ShadowMode(mode, ShadowObserver.all(new LoggingShadowObserver(),
                new ShadowMetrics(operability.registry(), mode)));
        WeederRuntime runtime = WeederComponent.create(config, operability.seed(), observer, operability.leadership(),
                shadow).runtime();

        operability.health().addLiveness(weeders).addLiveness(runtime.sliceWatchLiveness());
        return operability.run(runtime,
                () -> runtime.isStartedAndSynced()
                        ? HealthCheck.Result.ok("caches", "EndpointSlice cache synced")
                        : HealthCheck.Result.failing("caches", "EndpointSlice cache not synced yet"),
                Map.of("/weeders", new WeederStatusJson(board, clock::now)));
    }
}
