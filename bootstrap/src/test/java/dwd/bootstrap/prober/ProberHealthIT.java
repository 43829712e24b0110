package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.ProberMeltdownIT.CA;
import static dwd.bootstrap.prober.ProberMeltdownIT.KCM;
import static dwd.bootstrap.prober.ProberMeltdownIT.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /healthz} and {@code /readyz} of {@code ./dwd prober} with leader election, through its
 * life: starting (alive, not ready: the Lease cannot be written yet), leading (ready once its caches
 * are synced), a probe loop stuck on purpose (test hook: not alive), and shutdown (not ready while
 * it stops, then gone).
 */
@WithLocalControlPlane
class ProberHealthIT {

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void healthAndReadinessAcrossStartupLeadershipAStalledLoopAndShutdown(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--health");
        var seed = new SeedFixture(controlPlane.apiClient(), namespace);
        cleanup.add(seed);
        seed.createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        seed.createDeployment(KCM, 1);
        seed.createDeployment(MCM, 1);
        seed.createDeployment(CA, 1);
        seed.createNode(namespace + "-node-0");
        seed.createNode(namespace + "-node-1");
        seed.startKubelets();
        seed.createCluster("8s");
        Path dir = Files.createTempDirectory("dwd-health");
        Path config = Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened());
        Path kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), controlPlane.kubeconfig());
        Path stallFile = dir.resolve("stall");
        // The Lease's namespace does not exist yet: the election cannot succeed until the test creates it.
        String leaseNamespace = "dwd-health-lock-" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        var prober = ProberProcess.start(dir, "prober", config, kubeconfig, "--zap-log-level=debug",
                "--enable-leader-election", "--leader-election-namespace=" + leaseNamespace,
                "--leader-elect-lease-duration=4s", "--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=1s",
                "--x-stall-tolerance=2s", "--x-test-stall-file=" + stallFile);
        cleanup.add(prober);

        // Starting: alive, but neither leader nor a standby that could take over.
        await("alive").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> prober.healthz() == 200);
        await("not ready while the Lease cannot be written").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(100)).until(() -> prober.readyz() == 503);
        assertThat(prober.healthBody("/readyz")).contains("[-]leader-election: standby: no successful Lease round trip");

        // Leading: ready once the Machine and Cluster caches are synced.
        new CoreV1Api(controlPlane.apiClient())
                .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(leaseNamespace))).execute();
        await("ready as leader").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> prober.readyz() == 200);
        assertThat(prober.healthBody("/readyz")).contains("[+]leader-election: leading; caches synced");
        assertThat(PrometheusText.parse(prober.metrics()).sum("dwd_leader_status", Map.of())).isEqualTo(1);
        await("the shoot's probe loop runs").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> prober.log().contains(namespace + ": lease probe: SCALE_UP"));
        assertThat(prober.healthz()).isEqualTo(200);

        // A stuck probe loop: not alive (the orchestrator would restart the pod), still ready.
        Files.createFile(stallFile);
        // (Other test classes' shoots on this shared server are probed too: each loop stalls at its own next run.)
        await("unhealthy once the shoot's loop is more than 2 s late").atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> prober.healthz() == 503 && prober.healthBody("/healthz").contains(namespace));
        assertThat(prober.healthBody("/healthz")).contains("[-]probe-loops:");
        assertThat(prober.readyz()).isEqualTo(200);

        // Shutdown: not ready from the moment it starts (here it waits for the stuck run), then gone.
        prober.process.destroy(); // SIGTERM
        await("not ready while shutting down").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> prober.readyz() == 503);
        assertThat(prober.healthBody("/readyz")).contains("[-]shutdown: the process is shutting down");
        Files.delete(stallFile);
        assertThat(prober.process.waitFor(60, TimeUnit.SECONDS)).as("stops once the stuck run returns").isTrue();
        assertThat(prober.process.exitValue()).isEqualTo(143);
        assertThat(prober.healthz()).as("nothing listens any more").isEqualTo(-1);
        assertThat(prober.readyz()).isEqualTo(-1);
    }
}
