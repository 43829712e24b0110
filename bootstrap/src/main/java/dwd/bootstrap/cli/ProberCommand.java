package dwd.bootstrap.cli;

import dwd.adapters.metrics.MetricsServer;
import dwd.adapters.metrics.ShadowMetrics;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ShadowObserver;
import dwd.application.prober.LoggingProberObserver;
import dwd.application.prober.ProberTuning;
import dwd.application.shadow.LoggingShadowObserver;
import dwd.application.shadow.ShadowMode;
import dwd.bootstrap.config.ConfigFileException;
import dwd.bootstrap.config.ConfigFiles;
import dwd.bootstrap.logging.LogLevels;
import dwd.bootstrap.run.ProberRuntime;
import dwd.bootstrap.seed.SeedConnection;
import dwd.bootstrap.shadow.DryRunOption;
import dwd.bootstrap.wiring.ProberComponent;
import dwd.domain.config.ProberConfig;
import dwd.domain.dryrun.DryRunMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dwd prober}: protects the shoots of a seed whose kubelets lose their control plane. */
@Command(name = "prober", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Protect shoots whose kubelets lose their control plane.",
            "Probes every shoot's API server and node leases; when too many leases expire, scales down",
            "machine-controller-manager and cluster-autoscaler, then kube-controller-manager, and scales them",
            "back up, in order, once leases are renewed again. Runs until SIGTERM/SIGINT.",
            "Exit status: 1 for a config or start-up error."})
public final class ProberCommand implements Callable<Integer> {

    private static final Logger LOG = LogManager.getLogger("dwd.prober");

    @Spec
    CommandSpec spec;

    @Mixin
    RoleOptions options;

    @Mixin
    DryRunOption dryRunOption;

    @Option(names = "--x-scale-readiness-timeout", hidden = true, converter = RoleOptions.GoDurationConverter.class,
            description = "How long a scaled dependent is watched for ready replicas (default 5s; demos and tests shorten it).")
    Duration readinessTimeout = ProberTuning.defaults().readinessTimeout();

    @Override
    public Integer call() {
        var err = spec.commandLine().getErr();
        var dryRun = dryRunOption.resolve("dwd prober", err);
        if (dryRun.isEmpty()) {
            return DryRunOption.INVALID;
        }
        try {
            LogLevels.apply(LogLevels.parse(options.logLevel()));
        } catch (IllegalArgumentException e) {
            err.println("dwd prober: " + e.getMessage());
            return 1;
        }
        DryRunMode mode = dryRun.get();
        if (mode.isShadow()) {
            LOG.warn(DryRunOption.shadowModeNotice("dwd prober", mode));
        }
        ProberConfig config;
        SeedConnection seed;
        try {
            config = new ConfigFiles(LOG::warn).prober(options.configFile());
            seed = SeedConnection.resolve(options.kubeconfig(), System.getenv(), Path.of(System.getProperty("user.home")));
            options.metricsAddress();
            options.healthAddress();
        } catch (ConfigFileException | IllegalArgumentException e) {
            err.println("dwd prober: " + e.getMessage());
            return 1;
        }
        warnAboutCompatibilityFlags();
        LOG.info("dwd prober starting: config {}, seed from {}, {} dependents, probe interval {}, lease failure fraction {},"
                + " dry-run {}", options.configFile(), seed.source(), config.dependentResourceInfos().size(),
                config.probeInterval(), config.nodeLeaseFailureFraction(), mode.flagValue());

        var registry = MetricsServer.newRegistry();
        ProberObserver observer = ProberObserver.all(new LoggingProberObserver());
        var shadow = new ShadowMode(mode, ShadowObserver.all(new LoggingShadowObserver(), new ShadowMetrics(registry, mode)));
        ProberRuntime runtime = ProberComponent.create(config, seed,
                ProberTuning.defaults().withReadinessTimeout(readinessTimeout), observer, shadow).runtime();
        var metrics = options.metricsAddress().map(address -> MetricsServer.start(registry, address));
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("dwd prober: stop requested, shutting down");
            LogLevels.quietInformersForShutdown();
            runtime.close();
            metrics.ifPresent(MetricsServer::close);
            stopped.countDown();
            LogLevels.shutdown();
        }, "dwd-shutdown"));
        try {
            runtime.start();
        } catch (RuntimeException e) {
            LOG.error("dwd prober could not start: {}", e.getMessage(), e);
            return 1;
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private void warnAboutCompatibilityFlags() {
        if (options.pprofRequested()) {
            LOG.warn("--pprof-bind-addr is accepted for compatibility but not supported: dwd serves no pprof endpoint");
        }
        if (options.leaderElection()) {
            LOG.warn("--enable-leader-election: leader election is not implemented yet; run a single replica");
        }
    }
}
