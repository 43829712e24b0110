package dwd.bootstrap.weeder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.WeederObjects;
import dwd.bootstrap.prober.FaultProxy;
import dwd.bootstrap.prober.PrometheusText;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --kube-api-qps} and {@code --kube-api-burst} limit what {@code ./dwd weeder} sends to the
 * seed, counted where it arrives: a loopback proxy in front of the real API server records every
 * request. Ten services turn ready at once, each with a crash-looping dependant: about 40 requests
 * (each weeder lists and watches pods, deletes one and writes an Event). The bounds hold however
 * loaded the machine: the bucket never holds more than {@code burst} tokens, so no more than
 * {@code burst + qps × t} requests can arrive within t of the process's start, and the last cannot
 * arrive sooner than {@code (N − burst) / qps} after the first (less the first one's own trip).
 */
@WithLocalControlPlane
class SeedRateLimitIT {

    private static final int SERVICES = 10;
    private static final double QPS = 5;
    private static final int BURST = 5;

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @TempDir
    Path dir;

    @Test
    void theWeederSendsNoMoreThanTheBucketAllows(LocalControlPlane controlPlane, ApiClient client) throws Exception {
        List<String> namespaces = new ArrayList<>();
        for (int i = 0; i < SERVICES; i++) {
            String namespace = controlPlane.createNamespace("shoot--dev--rate");
            namespaces.add(namespace);
            WeederObjects.createEtcdSlice(client, namespace, false);
            WeederObjects.createCrashLoopingPod(client, namespace, "kube-apiserver-0");
        }
        ApiClient upstream = controlPlane.newApiClient(Duration.ZERO);
        var proxy = new FaultProxy(upstream.getHttpClient(), upstream.getBasePath());
        cleanup.add(proxy);
        Path kubeconfig = Files.writeString(dir.resolve("seed.kubeconfig"), proxy.kubeconfig());
        Path config = Files.writeString(dir.resolve("weeder-config.yaml"),
                Files.readString(DwdProcess.REPOSITORY.resolve("deploy/examples/weeder-config.yaml")));

        Instant start = Instant.now();
        var weeder = WeederProcess.start(dir, "weeder", config, kubeconfig,
                "--kube-api-qps=" + QPS, "--kube-api-burst=" + BURST);
        cleanup.add(weeder);
        await("the weeder runs").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> weeder.log().contains("weeder running"));
        for (String namespace : namespaces) {
            WeederObjects.markEtcdSliceReady(client, namespace);
        }
        var core = new CoreV1Api(client);
        await("every crash-looping pod is deleted").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                .until(() -> namespaces.stream().allMatch(namespace -> podsIn(core, namespace) == 0));
        await("every deletion's Event is written").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> PrometheusText.parse(weeder.metrics()).sum("dwd_events_total", Map.of("result", "written"))
                        >= SERVICES);

        List<Instant> arrivals = proxy.exchanges().stream().map(FaultProxy.Exchange::at).sorted().toList();
        writeArrivalsPerSecond(start, arrivals);
        assertThat(arrivals).as("requests that reached the API server").hasSizeGreaterThanOrEqualTo(4 * SERVICES);
        for (int i = 0; i < arrivals.size(); i++) {
            double seconds = Duration.between(start, arrivals.get(i)).toNanos() / 1e9;
            assertThat(i + 1).as("requests arrived within %.3f s of the start", seconds)
                    .isLessThanOrEqualTo((int) Math.floor(BURST + QPS * seconds));
        }
        double spread = Duration.between(arrivals.getFirst(), arrivals.getLast()).toNanos() / 1e9;
        assertThat(spread).as("seconds from the first request to the last of %d", arrivals.size())
                .isGreaterThanOrEqualTo((arrivals.size() - BURST) / QPS - 1);
        PrometheusText metrics = PrometheusText.parse(weeder.metrics());
        assertThat(metrics.sum("dwd_client_throttled_requests_total", Map.of("target", "seed")))
                .as("requests that waited for a token").isPositive();
        assertThat(metrics.sum("dwd_client_throttle_wait_seconds_total", Map.of("target", "seed"))).isPositive();
        assertThat(weeder.log()).contains("seed requests: at most 5 per second, bursts of 5");
    }

    /** Requests per second since the start, kept under target/ for a look after the run. */
    private static void writeArrivalsPerSecond(Instant start, List<Instant> arrivals) throws java.io.IOException {
        var perSecond = new java.util.TreeMap<Long, Integer>();
        arrivals.forEach(at -> perSecond.merge(Duration.between(start, at).toSeconds(), 1, Integer::sum));
        var text = new StringBuilder("second since start: requests (qps " + QPS + ", burst " + BURST + ", "
                + arrivals.size() + " requests)\n");
        perSecond.forEach((second, count) -> text.append(second).append(": ").append(count).append('\n'));
        Path kept = Path.of("target", "it-logs", SeedRateLimitIT.class.getSimpleName(), "arrivals-per-second.txt");
        Files.createDirectories(kept.getParent());
        Files.writeString(kept, text);
    }

    private static int podsIn(CoreV1Api core, String namespace) {
        try {
            return core.listNamespacedPod(namespace).execute().getItems().size();
        } catch (Exception e) {
            return -1;
        }
    }
}
