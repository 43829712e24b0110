package dwd.bootstrap.cli;

import dwd.adapters.metrics.MetricsServer;
import dwd.application.port.out.WeederObserver;
import dwd.bootstrap.config.ConfigFileException;
import dwd.bootstrap.config.ConfigFiles;
import dwd.bootstrap.logging.LogLevels;
import dwd.bootstrap.run.WeederRuntime;
import dwd.bootstrap.seed.SeedConnection;
import dwd.bootstrap.wiring.WeederComponent;
import dwd.domain.config.WeederConfig;
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

    @Override
    public Integer call() {
        var err = spec.commandLine().getErr();
        try {
            LogLevels.apply(LogLevels.parse(options.logLevel()));
        } catch (IllegalArgumentException e) {
            err.println("dwd weeder: " + e.getMessage());
            return 1;
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
        LOG.info("dwd weeder starting: config {}, seed from {}, services {}, watch duration {}",
                options.configFile(), seed.source(), config.servicesAndDependantSelectors().keySet(), config.watchDuration());

        WeederRuntime runtime = WeederComponent.create(config, seed, WeederObserver.all()).runtime();
        var metrics = options.metricsAddress().map(address -> MetricsServer.start(MetricsServer.newRegistry(), address));
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
