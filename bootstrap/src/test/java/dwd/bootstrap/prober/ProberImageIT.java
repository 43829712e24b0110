package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.ProberMeltdownIT.CA;
import static dwd.bootstrap.prober.ProberMeltdownIT.KCM;
import static dwd.bootstrap.prober.ProberMeltdownIT.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.ContainerImage;
import dwd.bootstrap.DwdProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dwd prober} from the image of {@code make image}, as the manifests run it (read-only root, tmpfs
 * at /tmp, user 65532, no capabilities), with Gardener's config mounted read-only (delays shortened).
 * The host architecture's image; {@code make image-arm64-smoke} runs it on the arm64 image under emulation
 * ({@code -Ddwd.image.platform=linux/arm64}), which skips in one line where scripts/image built none.
 */
@WithLocalControlPlane
@EnabledIf(value = ContainerImage.PODMAN_INSTALLED, disabledReason = ContainerImage.PODMAN_MISSING)
class ProberImageIT {

    private final List<AutoCloseable> cleanup = new java.util.ArrayList<>();

    @AfterEach
    void stopEverything() throws Exception {
        for (AutoCloseable closeable : cleanup.reversed()) {
            closeable.close();
        }
    }

    @Test
    void theImageScalesAShootDownWhenThreeOfFiveLeasesExpireAndBackUpWhenTheyRenew(LocalControlPlane controlPlane,
            @TempDir Path dir) throws Exception {
        ContainerImage image = ContainerImage.forTest();
        // A JVM under emulation (qemu-user) runs several times slower; the waits allow for it.
        int slower = image.emulated() ? 5 : 1;
        String namespace = controlPlane.createNamespace("shoot--dev--image");
        var seed = new SeedFixture(controlPlane.apiClient(), namespace);
        cleanup.add(seed);
        List<String> nodes = seed.createRenewingShoot(controlPlane.selfContainedKubeconfig(), 5);
        var recorder = new DeploymentRecorder(controlPlane.newApiClient(Duration.ZERO), namespace);
        cleanup.add(recorder);
        Path config = Files.writeString(dir.resolve("config.yaml"), ProberMeltdownIT.gardenerConfigShortened());
        Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), controlPlane.selfContainedKubeconfig());
        int metricsPort = DwdProcess.freePort();
        int healthPort = DwdProcess.freePort();
        var prober = image.start(dir, "dwd-it-prober-" + image.platform.replace('/', '-') + "-" + ProcessHandle.current().pid(),
                Map.of(config, "/etc/dwd/config.yaml", kubeconfig, "/etc/dwd/kubeconfig"), metricsPort, healthPort,
                List.of("prober", "--config-file=/etc/dwd/config.yaml", "--kubeconfig=/etc/dwd/kubeconfig",
                        "--metrics-bind-addr=127.0.0.1:" + metricsPort, "--health-bind-addr=127.0.0.1:" + healthPort,
                        "--x-scale-readiness-timeout=500ms"));
        cleanup.add(prober);

        await("a healthy probe").atMost(Duration.ofSeconds(120L * slower)).pollInterval(Duration.ofMillis(200))
                .until(() -> prober.log().contains(namespace + ": lease probe: SCALE_UP"));
        // Under emulation the health server's first answer can take longer than one request's 5 s timeout.
        await("/readyz on the health port").atMost(Duration.ofSeconds(10L * slower)).pollInterval(Duration.ofMillis(200))
                .until(() -> prober.readyz() == 200);
        assertThat(recorder.changes()).as("a healthy shoot is left alone").isEmpty();

        seed.stopRenewing(nodes.subList(0, 3)); // 3 of 5 = 0.6: the threshold
        await("scale-down").atMost(Duration.ofSeconds(60L * slower)).pollInterval(Duration.ofMillis(200))
                .until(() -> recorder.replicas(KCM) == 0 && recorder.replicas(MCM) == 0 && recorder.replicas(CA) == 0);

        seed.resumeRenewing(nodes.subList(0, 3));
        await("scale-up").atMost(Duration.ofSeconds(60L * slower)).pollInterval(Duration.ofMillis(200))
                .until(() -> recorder.replicas(KCM) == 3 && recorder.replicas(MCM) == 2 && recorder.replicas(CA) == 1);
        assertThat(seed.renewalFailures()).as("every lease renewal of the test's kubelets went through").isZero();

        assertThat(prober.terminate()).as("exits on SIGTERM; its log:%n%s", prober.log()).isIn(0, 143);
        assertThat(prober.log()).contains("prober stopped").doesNotContain("Read-only file system");
    }
}
