package dwd.bootstrap.cli;

import dwd.adapters.metrics.MetricsServer;
import dwd.adapters.metrics.ShadowMetrics;
import dwd.application.port.out.ShadowObserver;
import dwd.application.port.out.WeederObserver;
import dwd.application.shadow.LoggingShadowObserver;
import dwd.application.shadow.ShadowMode;
import dwd.application.weeder.LoggingWeederObserver;
import dwd.bootstrap.config.ConfigFileException;
import dwd.bootstrap.config.ConfigFiles;
import dwd.bootstrap.logging.LogLevels;
import dwd.bootstrap.run.WeederRuntime;
import dwd.bootstrap.seed.SeedConnection;
import dwd.bootstrap.shadow.DryRunOption;
import dwd.bootstrap.wiring.WeederComponent;
import dwd.domain.config.WeederConfig;
import dwd.domain.dryrun.DryRunMode;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code dwd weeder}: restarts dependents stuck in CrashLoopBackOff when their service recovers. */
@Command(name = "weeder", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Restart pods stuck in CrashLoopBackOff when the service they depend on is ready again.",
            "Watches the EndpointSlices of the configured services (e.g. etcd-main-client); when one turns ready,",
            "deletes its crash-looping dependents for watchDuration. Runs until SIGTERM/SIGINT.",
            "Exit status: 1 for a config or start-up error."})
public final class WeederCommand implements Callable<Integer> {

    private static final Logger LOG = LogManager.getLogger("dwd.weeder");

    @Spec
    CommandSpec spec;

    @Mixin
    RoleOptions options;

    @Mixin
    DryRunOption dryRunOption;

    @Override
    public Integer call() {
        var err = spec.commandLine().getErr();
        var dryRun = dryRunOption.resolve("dwd weeder", err);
        if (dryRun.isEmpty()) {
            return DryRunOption.INVALID;
        }
        try {
            LogLevels.apply(LogLevels.parse(options.logLevel()));
        } catch (IllegalArgumentException e) {
            err.println("dwd weeder: " + e.getMessage());
            return 1;
        }
        DryRunMode mode = dryRun.get();
        if (mode.isShadow()) {
            LOG.warn(DryRunOption.shadowModeNotice("dwd weeder", mode));
        }
        WeederConfig config;
        SeedConnection seed;
        try {
            config = new ConfigFiles(LOG::warn).weeder(options.configFile());
            seed = SeedConnection.resolve(options.kubeconfig(), System.getenv(), Path.of(System.getProperty("user.home")));
            options.metricsAddress();
            options.healthAddress();
        } catch (ConfigFileException | IllegalArgumentException e) {
            err.println("dwd weeder: " + e.getMessage());
            return 1;
        }
        warnAboutCompatibilityFlags();
        LOG.info("dwd weeder starting: config {}, seed from {}, services {}, watch duration {}, dry-run {}",
                options.configFile(), seed.source(), config.servicesAndDependantSelectors().keySet(), config.watchDuration(),
                mode.flagValue());

        var registry = MetricsServer.newRegistry();
        var shadow = new ShadowMode(mode, ShadowObserver.all(new LoggingShadowObserver(), new ShadowMetrics(registry, mode)));
        WeederRuntime runtime = WeederComponent.create(config, seed, WeederObserver.all(new LoggingWeederObserver()), shadow)
                .runtime();
        var metrics = options.metricsAddress().map(address -> MetricsServer.start(registry, address));
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("dwd weeder: stop requested, shutting down");
            LogLevels.quietInformersForShutdown();
            runtime.close();
            metrics.ifPresent(MetricsServer::close);
            stopped.countDown();
            LogLevels.shutdown();
        }, "dwd-shutdown"));
        try {
            runtime.start();
        } catch (RuntimeException e) {
            LOG.error("dwd weeder could not start: {}", e.getMessage(), e);
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
