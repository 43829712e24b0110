package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.ProberMeltdownIT.CA;
import static dwd.bootstrap.prober.ProberMeltdownIT.KCM;
import static dwd.bootstrap.prober.ProberMeltdownIT.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.ShootApiStub;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.DwdProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Shoots whose API servers answer as a hostile owner could make them, beside a healthy shoot, probed
 * by {@code ./dwd prober} (the packaged app, the launcher's default heap) on the local API server as
 * seed: one throttles with {@code Retry-After: 9223372036854775807}, one answers a 50 MB lease list of
 * 95,000 orphan leases in one page. The healthy shoot keeps being probed on schedule, {@code /healthz}
 * stays 200, the throttled shoot is probed again within the cap (the larger of two probe intervals and
 * 10 s: 10 s here), the prober's peak RSS stays within {@link #RSS_BOUND}, and a meltdown of the
 * throttled shoot, once it answers, is acted on.
 */
@WithLocalControlPlane
class ProberHostileShootsIT {

    /** The bound docs/prober.md states for this run; the launcher sets no heap size. */
    static final long RSS_BOUND = 512L * 1024 * 1024;
    private static final Duration RETRY_AFTER_CAP = Duration.ofSeconds(10);
    private static final Duration INTERVAL = Duration.ofSeconds(2);
    private static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void hostileShootsNeitherStopTheOthersNorTheProcessAndAThrottlingShootsMeltdownIsActedOn(
            LocalControlPlane controlPlane) throws Exception {
        var healthy = new SeedFixture(controlPlane.apiClient(), controlPlane.createNamespace("shoot--dev--healthy"));
        cleanup.add(healthy);
        healthy.createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        healthy.createGardenerDependents();
        healthy.createNodes(3);
        healthy.startKubelets();
        healthy.createCluster("1h");

        var throttling = new ShootApiStub();
        cleanup.add(throttling);
        throttling.answering(path -> ShootApiStub.status(429, Map.of("Retry-After", "9223372036854775807")));
        var throttled = new SeedFixture(controlPlane.apiClient(), controlPlane.createNamespace("shoot--dev--throttling"));
        cleanup.add(throttled);
        throttled.createKubeconfigSecret(throttling.kubeconfig());
        throttled.createGardenerDependents();
        List<String> throttledNodes = List.of(throttled.namespace() + "-n0", throttled.namespace() + "-n1",
                throttled.namespace() + "-n2");
        for (String node : throttledNodes) {
            throttled.createMachine(node, "Running");
        }
        throttled.createCluster("8s");

        var flooding = new ShootApiStub();
        cleanup.add(flooding);
        AtomicInteger floods = new AtomicInteger();
        flooding.answering(path -> switch (path) {
            case "/version" -> ShootApiStub.version();
            case "/api/v1/nodes" -> ShootApiStub.nodes(List.of());
            case LEASES -> exchange -> {
                floods.incrementAndGet();
                flooding.leaseFlood(95_000, 530).answer(exchange);
            };
            default -> ShootApiStub.status(404, Map.of());
        });
        var flooded = new SeedFixture(controlPlane.apiClient(), controlPlane.createNamespace("shoot--dev--flooding"));
        cleanup.add(flooded);
        flooded.createKubeconfigSecret(flooding.kubeconfig());
        flooded.createGardenerDependents();
        flooded.createCluster("8s");

        Path dir = Files.createTempDirectory("dwd-hostile");
        Path config = Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened());
        Path kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), controlPlane.kubeconfig());
        var prober = ProberProcess.start(dir, "prober", config, kubeconfig, "--zap-log-level=debug");
        cleanup.add(prober);
        var peakRss = new AtomicLong();
        var healthz = new ArrayList<Integer>();
        await("alive").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> prober.healthz() == 200);

        await("the flood refused three times").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    healthz.add(prober.healthz());
                    return floods.get() >= 3 && prober.log().contains(flooded.namespace() + ": lease probe failed (bad-input)");
                });
        Instant watchFrom = Instant.now();
        int healthyRunsBefore = count(prober.log(), healthy.namespace() + ": lease probe: ");
        await("30 s of hostile answers").during(Duration.ofSeconds(30)).atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(500)).until(() -> {
                    healthz.add(prober.healthz());
                    peakRss.set(Math.max(peakRss.get(), peakRss(prober)));
                    return true;
                });
        Duration watched = Duration.between(watchFrom, Instant.now());

        String log = prober.log();
        assertThat(healthz).as("/healthz throughout").containsOnly(200);
        assertThat(count(log, healthy.namespace() + ": lease probe: ") - healthyRunsBefore)
                .as("the healthy shoot probed every 2–2.4 s for %s", watched)
                .isGreaterThanOrEqualTo((int) (watched.toMillis() / 2_400) - 2);
        assertThat(log).contains(flooded.namespace() + ": lease probe failed (bad-input): shoot " + flooded.namespace())
                .contains("listing leases in kube-node-lease: refused: more than 10000 leases");
        assertThat(log).as("no run ended by an exception").doesNotContain("failed unexpectedly")
                .doesNotContain("scheduled task failed").doesNotContain("OutOfMemoryError");
        List<Instant> throttledRequests = throttling.requestTimes();
        assertThat(throttledRequests).as("the throttled shoot is probed again and again").hasSizeGreaterThanOrEqualTo(3);
        for (int i = 1; i < throttledRequests.size(); i++) {
            assertThat(Duration.between(throttledRequests.get(i - 1), throttledRequests.get(i)))
                    .as("a Retry-After of 2^63 s holds the next probe back by the cap")
                    .isBetween(RETRY_AFTER_CAP.minusMillis(500), RETRY_AFTER_CAP.plus(INTERVAL).plusSeconds(2));
        }
        assertThat(peakRss.get()).as("peak RSS of the prober (VmHWM)").isPositive().isLessThan(RSS_BOUND);
        System.out.printf("prober peak RSS with a 50 MB lease flood every %s: %d MiB%n", INTERVAL, peakRss.get() >> 20);

        // The throttling shoot answers again: its kubelets stopped an hour ago.
        Map<String, Instant> expired = new LinkedHashMap<>();
        throttledNodes.forEach(node -> expired.put(node, Instant.now().minus(Duration.ofHours(1))));
        throttling.answering(path -> switch (path) {
            case "/version" -> ShootApiStub.version();
            case "/api/v1/nodes" -> ShootApiStub.nodes(throttledNodes);
            case LEASES -> ShootApiStub.leases(expired);
            default -> ShootApiStub.status(404, Map.of());
        });
        await("the throttled shoot's meltdown acted on").atMost(RETRY_AFTER_CAP.plusSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> throttled.replicas(KCM) == 0 && throttled.replicas(MCM) == 0 && throttled.replicas(CA) == 0);
        assertThat(healthy.replicas(KCM)).as("the healthy shoot left alone").isEqualTo(3);
        assertThat(healthy.renewalFailures()).isZero();
        assertThat(prober.healthz()).isEqualTo(200);
    }

    private static int count(String log, String text) {
        int count = 0;
        for (int at = log.indexOf(text); at >= 0; at = log.indexOf(text, at + 1)) {
            count++;
        }
        return count;
    }

    /** The process's peak resident set so far ({@code VmHWM}), in bytes. */
    private static long peakRss(DwdProcess launched) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(launched.process.pid()), "status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        return 0;
    }
}
