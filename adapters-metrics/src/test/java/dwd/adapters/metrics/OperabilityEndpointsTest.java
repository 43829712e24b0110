package dwd.adapters.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.health.Health;
import dwd.application.health.HealthCheck;
import dwd.application.port.out.ProberObserver.FlowOutcome;
import dwd.application.port.out.WeederObserver;
import dwd.application.prober.ProbeStatusBoard;
import dwd.application.weeder.WeederStatusBoard;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.Exclusion;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.weeding.PodOwner;
import dwd.domain.weeding.PodState;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Prober metrics by their Prometheus names, the /probes page and the health endpoints. */
class OperabilityEndpointsTest {

    static final String NS = "shoot--dev--a";
    static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final LeaseVerdict MELTDOWN = new LeaseVerdict(Decision.SCALE_DOWN, 5, 3, 0.6, 0.6,
            Map.of("node-x", Set.of(Exclusion.NOT_MANAGED_BY_MCM)), 0, 0, List.of(), Optional.of(T0.minusSeconds(1)));

    static final PodState POD = new PodState("shoot--a", "kube-apiserver-0", "uid-0", false, List.of(), List.of());
    static final PodOwner REPLICA_SET = new PodOwner("apps/v1", "ReplicaSet", "kube-apiserver-7d9f");
    static final PodState OWNED_POD = new PodState("shoot--a", "kube-apiserver-7d9f-x2k4q", "uid-1", false,
            List.of(), List.of(), Optional.of(REPLICA_SET));
    static final PodState OWNED_POD_REPLACEMENT = new PodState("shoot--a", "kube-apiserver-7d9f-b8m2z", "uid-2", false,
            List.of(), List.of(), Optional.of(REPLICA_SET));

    private final AtomicReference<Instant> now = new AtomicReference<>(T0);

    @Test
    void proberEventsBecomeDwdSeriesWithUnitsInTheirNames() {
        var registry = MetricsServer.newRegistry();
        var metrics = new ProberMetrics(registry, now::get);
        metrics.probeStarted(NS, Duration.ofSeconds(30));
        metrics.probeRunStarted(NS, Duration.ofMillis(30));
        metrics.probeSucceeded(NS, MELTDOWN, Optional.of(Decision.SCALE_DOWN), T0.plusSeconds(30));
        metrics.flowStarted(NS, ScaleDirection.DOWN, MELTDOWN);
        now.set(T0.plusMillis(1500));
        metrics.resourceScaled(NS, ScaleDirection.DOWN, KCM, 3, 0, MELTDOWN);
        metrics.flowFinished(NS, ScaleDirection.DOWN, FlowOutcome.COMPLETED);
        metrics.flowStarted(NS, ScaleDirection.UP, MELTDOWN);
        metrics.flowFinished(NS, ScaleDirection.UP, FlowOutcome.COMPLETED); // did nothing: not timed
        new ApiRequestMetrics(registry, "seed").requestCompleted("seed", "update", 429);

        String scrape = registry.scrape();
        assertThat(scrape)
                .contains("dwd_probes_active 1.0")
                .contains("dwd_probe_results_total{outcome=\"scale_down\"} 1.0")
                .contains("dwd_shoot_lease_expired_ratio{shoot=\"shoot--dev--a\"} 0.6")
                .contains("dwd_shoot_lease_candidates{shoot=\"shoot--dev--a\"} 5.0")
                .contains("dwd_shoot_leases_expired{shoot=\"shoot--dev--a\"} 3.0")
                .contains("dwd_scale_operations_total{direction=\"down\",resource=\"Deployment/kube-controller-manager\","
                        + "result=\"scaled\",shoot=\"shoot--dev--a\"} 1.0")
                .contains("dwd_scale_flow_duration_seconds_count{direction=\"down\",outcome=\"completed\"} 1")
                .doesNotContain("dwd_scale_flow_duration_seconds_count{direction=\"up\"")
                .contains("dwd_decision_latency_seconds_sum{direction=\"down\"} 2.5")
                .contains("dwd_probe_lateness_seconds_bucket{le=\"0.02\"} 0")
                .contains("dwd_probe_lateness_seconds_bucket{le=\"0.05\"} 1")
                .contains("dwd_probe_lateness_seconds_max 0.03")
                .contains("dwd_api_requests_total{code=\"429\",target=\"seed\",verb=\"update\"} 1.0")
                .contains("dwd_throttled_requests_total{target=\"seed\"} 1.0");

        metrics.probeStopped(NS, "Cluster deleted");
        assertThat(registry.scrape()).contains("dwd_probes_active 0.0").doesNotContain("dwd_shoot_lease_expired_ratio{");
    }

    @Test
    void weederEventsCountActiveWeedersAndDeletedPods() {
        var registry = MetricsServer.newRegistry();
        var weeders = new WeederMetrics(registry);
        weeders.weederStarted("shoot--a", "etcd-main-client", T0.plusSeconds(300));
        weeders.podDeleted("shoot--a", "etcd-main-client", POD);
        weeders.podDeleted("shoot--a", "etcd-main-client", OWNED_POD);
        weeders.podDeleted("shoot--a", "etcd-main-client", OWNED_POD_REPLACEMENT);
        assertThat(registry.scrape()).contains("dwd_weeders_active 1.0")
                .contains("dwd_pods_deleted_total{owner=\"none\",service=\"etcd-main-client\",shoot=\"shoot--a\"} 1.0")
                .as("the replacement of a deleted pod counts on the same series: its controller's")
                .contains("dwd_pods_deleted_total{owner=\"ReplicaSet/kube-apiserver-7d9f\",service=\"etcd-main-client\","
                        + "shoot=\"shoot--a\"} 2.0")
                .doesNotContain("kube-apiserver-7d9f-x2k4q");
        weeders.weederStopped("shoot--a", "etcd-main-client", WeederObserver.StopReason.EXPIRED);
        assertThat(registry.scrape()).contains("dwd_weeders_active 0.0");
    }

    @Test
    void servesWeedersAsJson() throws Exception {
        var board = new WeederStatusBoard(now::get);
        board.weederStarted("shoot--a", "etcd-main-client", T0.plusSeconds(300));
        board.weederStarted("shoot--b", "kube-apiserver", T0.plusSeconds(300));
        now.set(T0.plusSeconds(7));
        board.podDeleted("shoot--a", "etcd-main-client", POD);
        var loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (var metricsServer = MetricsServer.start(MetricsServer.newRegistry(), loopback,
                        Map.of("/weeders", new WeederStatusJson(board, now::get)));
                var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            var weeders = get(http, metricsServer.address().getPort(), "/weeders");
            assertThat(weeders.statusCode()).isEqualTo(200);
            assertThat(weeders.headers().firstValue("content-type")).contains("application/json; charset=utf-8");
            assertThat(weeders.body()).isEqualTo("{\"generatedAt\":\"2026-01-01T00:00:07Z\",\"count\":2,\"weeders\":["
                    + "{\"namespace\":\"shoot--a\",\"service\":\"etcd-main-client\",\"started\":\"2026-01-01T00:00:00Z\","
                    + "\"until\":\"2026-01-01T00:05:00Z\",\"podsDeleted\":1,"
                    + "\"lastDeletion\":{\"pod\":\"kube-apiserver-0\",\"at\":\"2026-01-01T00:00:07Z\"}},"
                    + "{\"namespace\":\"shoot--b\",\"service\":\"kube-apiserver\",\"started\":\"2026-01-01T00:00:00Z\","
                    + "\"until\":\"2026-01-01T00:05:00Z\",\"podsDeleted\":0,\"lastDeletion\":null}]}\n");
        }
    }

    @Test
    void servesProbesAsJsonAndHealthAsStatusCodes() throws Exception {
        var board = new ProbeStatusBoard(now::get);
        board.probeStarted(NS, Duration.ofSeconds(30));
        board.probeSucceeded(NS, MELTDOWN, Optional.of(Decision.SCALE_DOWN), T0.plusSeconds(30));
        var alive = new AtomicBoolean(true);
        var health = new Health().addLiveness(() -> alive.get()
                ? HealthCheck.Result.ok("probe-loops", "1 loops making progress")
                : HealthCheck.Result.failing("probe-loops", "1 of 1 loops stalled: " + NS));
        var loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (var metricsServer = MetricsServer.start(MetricsServer.newRegistry(), loopback,
                        Map.of("/probes", new ProbeStatusJson(board, now::get)));
                var healthServer = HealthServer.start(health, loopback);
                var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            var probes = get(http, metricsServer.address().getPort(), "/probes");
            assertThat(probes.statusCode()).isEqualTo(200);
            assertThat(probes.body()).contains("\"namespace\":\"shoot--dev--a\",\"state\":\"meltdown\"")
                    .contains("\"candidates\":5,\"expired\":3,\"fraction\":0.6,\"threshold\":0.6")
                    .contains("\"excludedNodes\":[{\"node\":\"node-x\",\"reasons\":[\"not-managed-by-mcm\"]}]")
                    .contains("\"nextProbe\":\"2026-01-01T00:00:30Z\"");

            assertThat(get(http, healthServer.address().getPort(), "/healthz").statusCode()).isEqualTo(200);
            assertThat(get(http, healthServer.address().getPort(), "/readyz").statusCode()).isEqualTo(200);
            alive.set(false);
            var unhealthy = get(http, healthServer.address().getPort(), "/healthz");
            assertThat(unhealthy.statusCode()).isEqualTo(503);
            assertThat(unhealthy.body()).contains("[-]probe-loops: 1 of 1 loops stalled: shoot--dev--a");
            health.markStopping();
            assertThat(get(http, healthServer.address().getPort(), "/readyz").statusCode()).isEqualTo(503);
        }
    }

    @Test
    void jsonEscapesAndWritesNullForEmpty() {
        assertThat(Json.write(Map.of("a", "x\"y\n"))).isEqualTo("{\"a\":\"x\\\"y\\n\"}");
        assertThat(Json.write(List.of(Optional.empty(), 1, true, Double.NaN))).isEqualTo("[null,1,true,null]");
        assertThat(Json.write(List.of(java.time.Duration.ofSeconds(90), java.time.Duration.ofMillis(500))))
                .as("durations as users type them").isEqualTo("[\"1m30s\",\"500ms\"]");
    }

    private static HttpResponse<String> get(HttpClient http, int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
