package dwd.bootstrap.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.prober.DeploymentRecorder.Change;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The prober's main job, end to end: {@code ./dwd prober} (the packaged app on the module path)
 * against a real API server, with Gardener's real config (delays shortened).
 */
@WithLocalControlPlane
public class ProberMeltdownIT {

    static final Path REPOSITORY = Path.of(System.getProperty("dwd.repository.root", "..")).toAbsolutePath().normalize();
    static final String KCM = "kube-controller-manager";
    static final String MCM = "machine-controller-manager";
    static final String CA = "cluster-autoscaler";
    static final String ANNOTATION_REPLICAS = "dependency-watchdog.gardener.cloud/replicas";
    static final String ANNOTATION_MELTDOWN = "dependency-watchdog.gardener.cloud/meltdown-protection-active";

    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private Process prober;
    private Path log;

    /** Gardener's prober config with the probe interval at 2 s, the first probe after 1 s and MCM's scale-up delay at 3 s. */
    public static String gardenerConfigShortened() throws IOException {
        return Files.readString(REPOSITORY.resolve("deploy/examples/prober-config.yaml"))
                .replace("probeInterval: 30s", "probeInterval: 2s\ninitialDelay: 1s")
                .replace("initialDelay: 30s", "initialDelay: 3s");
    }

    Process startProber(LocalControlPlane controlPlane, Path dir, String... extraFlags) throws IOException {
        Path config = Files.writeString(dir.resolve("prober-config.yaml"), gardenerConfigShortened());
        Path kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), controlPlane.kubeconfig());
        log = dir.resolve("prober.log");
        var command = new ArrayList<>(List.of(REPOSITORY.resolve("dwd").toString(), "prober",
                "--config-file", config.toString(), "--kubeconfig", kubeconfig.toString(),
                "--metrics-bind-addr=0", "--health-bind-addr=0", "--x-scale-readiness-timeout=500ms",
                "--zap-log-level=debug"));
        command.addAll(List.of(extraFlags));
        prober = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return prober;
    }

    String proberLog() throws IOException {
        return Files.readString(log);
    }

    @AfterEach
    void stopEverything() throws Exception {
        if (prober != null && prober.isAlive()) {
            prober.destroy();
            prober.waitFor(30, TimeUnit.SECONDS);
            prober.destroyForcibly();
        }
        for (AutoCloseable closeable : cleanup.reversed()) {
            closeable.close();
        }
    }

    @Test
    void meltdownScalesDownInLevelOrderAndRecoveryRestoresTheRecordedCountsInOrder(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--meltdown");
        var seed = new SeedFixture(controlPlane.apiClient(), namespace);
        cleanup.add(seed);
        seed.createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        seed.createGardenerDependents();
        List<String> nodes = seed.createNodes(5);
        seed.startKubelets();
        seed.createCluster("8s"); // leases expire 6 s (0.75 × 8 s) after their last renewal
        var recorder = new DeploymentRecorder(controlPlane.newApiClient(Duration.ZERO), namespace);
        cleanup.add(recorder);
        Path dir = Files.createTempDirectory("dwd-meltdown");
        startProber(controlPlane, dir);

        await("a healthy probe").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> proberLog().contains(namespace + ": lease probe: SCALE_UP"));
        assertThat(recorder.changes()).as("a healthy shoot is left alone").isEmpty();

        seed.stopRenewing(nodes.subList(0, 3)); // 3 of 5 = 0.6: the threshold
        await("scale-down").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> recorder.replicas(KCM) == 0 && recorder.replicas(MCM) == 0 && recorder.replicas(CA) == 0);
        List<Change> down = recorder.changes();
        assertThat(down).extracting(Change::name).hasSize(3).endsWith(KCM).containsExactlyInAnyOrder(MCM, CA, KCM);
        assertThat(Map.of(KCM, recorder.annotations(KCM), MCM, recorder.annotations(MCM), CA, recorder.annotations(CA)))
                .containsEntry(KCM, Map.of(ANNOTATION_REPLICAS, "3", ANNOTATION_MELTDOWN, ""))
                .containsEntry(MCM, Map.of(ANNOTATION_REPLICAS, "2", ANNOTATION_MELTDOWN, ""))
                .containsEntry(CA, Map.of(ANNOTATION_REPLICAS, "1", ANNOTATION_MELTDOWN, ""));

        seed.resumeRenewing(nodes.subList(0, 3));
        await("scale-up").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> recorder.replicas(KCM) == 3 && recorder.replicas(MCM) == 2 && recorder.replicas(CA) == 1
                        && recorder.annotations(CA).isEmpty());
        List<Change> up = recorder.changes().subList(3, recorder.changes().size());
        assertThat(up).extracting(Change::name).containsExactly(KCM, MCM, CA);
        assertThat(up).extracting(Change::to).containsExactly(3, 2, 1);
        assertThat(Duration.between(up.get(0).seenAt(), up.get(1).seenAt()))
                .as("MCM waits its 3 s scale-up delay after KCM").isGreaterThanOrEqualTo(Duration.ofMillis(2_900));
        for (String name : List.of(KCM, MCM, CA)) {
            assertThat(recorder.annotations(name)).as("annotations of %s removed after scale-up", name).isEmpty();
        }

        assertThat(seed.renewalFailures()).as("every lease renewal of the test's kubelets went through").isZero();
        prober.destroy(); // SIGTERM
        assertThat(prober.waitFor(30, TimeUnit.SECONDS)).as("stops on SIGTERM").isTrue();
        assertThat(proberLog()).contains("prober stopped");
    }
}
