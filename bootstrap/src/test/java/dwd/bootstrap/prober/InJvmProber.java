package dwd.bootstrap.prober;

import dwd.application.port.out.ApiTraffic;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.ProberObservers;
import dwd.application.prober.LoggingProberObserver;
import dwd.application.prober.ProberTuning;
import dwd.bootstrap.config.ConfigFiles;
import dwd.bootstrap.run.ProberRuntime;
import dwd.bootstrap.seed.SeedConnection;
import dwd.bootstrap.wiring.ObjectGraphs;
import dwd.domain.config.ProberConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code dwd prober}'s object graph (the production Dagger component) running in the test's JVM,
 * with its events recorded and the prober's internal constants shortened.
 */
final class InJvmProber implements AutoCloseable {

    /** Quick retries, a short readiness wait, a 2 s back-off after a 429 without Retry-After. */
    static final ProberTuning TUNING = new ProberTuning(3, Duration.ofMillis(100), Optional.of(Duration.ofMillis(200)),
            Duration.ofMillis(100), Duration.ofSeconds(2), Duration.ofMillis(200), Duration.ofMillis(10));

    private final ProberEvents events = new ProberEvents();
    private final ProberRuntime runtime;

    private InJvmProber(ProberConfig config, SeedConnection seed, ApiTraffic shootTraffic) {
        this.runtime = ObjectGraphs.prober(config, seed, TUNING,
                ProberObservers.of(new LoggingProberObserver(), events), Leadership.always(), shootTraffic).runtime();
    }

    /**
     * Loads {@code configYaml} as {@code --config-file} would and starts a prober on the seed that
     * {@code seedKubeconfig} reaches; returns once its Machine and Cluster caches are synced.
     */
    static InJvmProber start(String configYaml, String seedKubeconfig) throws Exception {
        return start(configYaml, seedKubeconfig, ApiTraffic.none());
    }

    /** As {@link #start(String, String)}, telling {@code shootTraffic} of every request to a shoot's API server. */
    static InJvmProber start(String configYaml, String seedKubeconfig, ApiTraffic shootTraffic) throws Exception {
        Path dir = Files.createTempDirectory("dwd-prober-it");
        ProberConfig config = new ConfigFiles(warning -> { })
                .prober(Files.writeString(dir.resolve("prober-config.yaml"), configYaml));
        Path kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), seedKubeconfig);
        var prober = new InJvmProber(config, SeedConnection.resolve(kubeconfig.toString(), Map.of(), dir), shootTraffic);
        try {
            prober.runtime.start();
        } catch (RuntimeException e) {
            prober.close();
            throw e;
        }
        return prober;
    }

    ProberEvents events() {
        return events;
    }

    Set<String> probedNamespaces() {
        return runtime.supervisor().probedNamespaces();
    }

    @Override
    public void close() {
        runtime.close();
    }
}
