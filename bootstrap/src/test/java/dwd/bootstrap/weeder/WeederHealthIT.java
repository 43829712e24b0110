package dwd.bootstrap.weeder;

import static dwd.bootstrap.weeder.WeederLaunchIT.REPOSITORY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.prober.FaultProxy;
import dwd.bootstrap.prober.PrometheusText;
import io.kubernetes.client.openapi.ApiClient;
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
 * {@code /healthz} and {@code /readyz} of {@code ./dwd weeder} with leader election, through its
 * life: starting (alive, not ready: the Lease cannot be written yet), leading (ready once the
 * EndpointSlice cache is synced; the informer's heartbeat counts as liveness), and shutdown (not
 * ready while it stops, then gone). The weeder reaches the API server through a proxy, which holds
 * back the Lease release at shutdown so that the stopping phase lasts long enough to be seen.
 */
@WithLocalControlPlane
class WeederHealthIT {

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void healthAndReadinessAcrossStartupLeadershipAndShutdown(LocalControlPlane controlPlane) throws Exception {
        ApiClient upstream = controlPlane.newApiClient(Duration.ZERO); // no read timeout: watches pass through
        var proxy = new FaultProxy(upstream.getHttpClient(), upstream.getBasePath());
        cleanup.add(proxy);
        Path dir = Files.createTempDirectory("dwd-weeder-health");
        Path config = Files.writeString(dir.resolve("weeder-config.yaml"),
                Files.readString(REPOSITORY.resolve("deploy/examples/weeder-config.yaml")));
        Path kubeconfig = Files.writeString(dir.resolve("seed.kubeconfig"), proxy.kubeconfig());
        // The Lease's namespace does not exist yet: the election cannot succeed until the test creates it.
        String leaseNamespace = "dwd-weeder-lock-" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        var weeder = WeederProcess.start(dir, "weeder", config, kubeconfig, "--log-format=text",
                "--enable-leader-election", "--leader-election-namespace=" + leaseNamespace,
                "--leader-elect-lease-duration=4s", "--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=1s");
        cleanup.add(weeder);

        // Starting: alive, but neither leader nor a standby that could take over; no informer runs.
        await("alive").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> weeder.healthz() == 200);
        await("not ready while the Lease cannot be written").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(100)).until(() -> weeder.readyz() == 503);
        assertThat(weeder.healthBody("/readyz")).contains("[-]leader-election: standby: no successful Lease round trip");
        assertThat(weeder.healthBody("/healthz"))
                .contains("[+]weeders: 0 loops making progress")
                .contains("[+]endpointslice-informer: not started (standby)")
                .contains("[+]leader-election-loop:");
        assertThat(PrometheusText.parse(weeder.metrics()).sum("dwd_leader_status",
                Map.of("lock", "dwd-weeder-leader-election"))).isZero();

        // Leading: ready once the EndpointSlice cache is synced.
        new CoreV1Api(controlPlane.apiClient())
                .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(leaseNamespace))).execute();
        await("ready as leader").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> weeder.readyz() == 200 && weeder.log().contains("weeder running"));
        assertThat(weeder.healthBody("/readyz")).contains("[+]leader-election: leading; caches synced");
        assertThat(weeder.healthz()).isEqualTo(200);
        assertThat(weeder.healthBody("/healthz")).contains("[+]endpointslice-informer: last list or watch started ");
        assertThat(weeder.log()).as("--log-format=text").contains("INFO  WeederRuntime - weeder running");
        assertThat(PrometheusText.parse(weeder.metrics()).sum("dwd_leader_status",
                Map.of("lock", "dwd-weeder-leader-election"))).isEqualTo(1);

        // Shutdown: not ready from the moment it starts (the Lease release hangs until its call times out), then gone.
        proxy.rules((method, path) -> method.equals("PUT") && path.contains("/leases/")
                ? new FaultProxy.NoAnswer() : FaultProxy.FORWARD);
        weeder.process.destroy(); // SIGTERM
        await("not ready while shutting down").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> weeder.readyz() == 503);
        assertThat(weeder.healthBody("/readyz")).contains("[-]shutdown: the process is shutting down");
        assertThat(weeder.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(weeder.process.exitValue()).isEqualTo(143);
        assertThat(weeder.log()).contains("could not release Lease");
        assertThat(weeder.healthz()).as("nothing listens any more").isEqualTo(-1);
        assertThat(weeder.readyz()).isEqualTo(-1);
    }
}
