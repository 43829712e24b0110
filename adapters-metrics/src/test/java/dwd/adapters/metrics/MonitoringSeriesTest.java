package dwd.adapters.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.health.Health;
import dwd.application.health.HealthCheck;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ProberObserver.FlowOutcome;
import dwd.application.port.out.ProberObserver.ProbeStage;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The series the dashboard and the alerts are built on, by their Prometheus names. */
class MonitoringSeriesTest {

    static final String NS = "shoot--dev--a";
    static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final LeaseVerdict MELTDOWN = verdict(Decision.SCALE_DOWN, 3);
    static final LeaseVerdict HEALTHY = verdict(Decision.SCALE_UP, 0);
    static final LeaseVerdict TOO_FEW = verdict(Decision.HOLD, 0);
    static final String SINCE = "dwd_shoot_scaled_down_since_timestamp_seconds{shoot=\"" + NS + "\"}";

    private final AtomicReference<Instant> now = new AtomicReference<>(T0);
    private final PrometheusMeterRegistry registry = MetricsServer.newRegistry();
    private final ProberMetrics prober = new ProberMetrics(registry, now::get);

    static LeaseVerdict verdict(Decision decision, int expired) {
        return new LeaseVerdict(decision, 5, expired, expired / 5.0, 0.6, Map.of(), 0, 0, List.of(), Optional.empty());
    }

    @Test
    void theShootsStateIsAStateSetWithOneSeriesAtOne() {
        prober.probeStarted(NS, Duration.ofSeconds(30));
        assertThat(registry.scrape())
                .contains("dwd_shoot_state{shoot=\"shoot--dev--a\",state=\"starting\"} 1.0")
                .contains("dwd_shoot_state{shoot=\"shoot--dev--a\",state=\"meltdown\"} 0.0");

        prober.probeSucceeded(NS, MELTDOWN, Optional.empty(), T0);
        assertThat(registry.scrape()).contains("dwd_shoot_state{shoot=\"shoot--dev--a\",state=\"awaiting-confirmation\"} 1.0")
                .contains("dwd_shoot_state{shoot=\"shoot--dev--a\",state=\"starting\"} 0.0");
        prober.probeSucceeded(NS, MELTDOWN, Optional.of(Decision.SCALE_DOWN), T0);
        assertThat(registry.scrape()).contains("dwd_shoot_state{shoot=\"shoot--dev--a\",state=\"meltdown\"} 1.0");
        prober.probeFailed(NS, ProbeStage.LEASES, new ApiFailure(ApiFailure.Kind.TIMEOUT, "read timed out"), T0);
        assertThat(registry.scrape()).contains("dwd_shoot_state{shoot=\"shoot--dev--a\",state=\"probe-failing\"} 1.0")
                .contains("dwd_shoot_state{shoot=\"shoot--dev--a\",state=\"meltdown\"} 0.0");
        prober.probeSucceeded(NS, TOO_FEW, Optional.of(Decision.HOLD), T0);
        assertThat(registry.scrape()).contains("dwd_shoot_state{shoot=\"shoot--dev--a\",state=\"hold\"} 1.0");
        prober.probeSucceeded(NS, HEALTHY, Optional.of(Decision.SCALE_UP), T0);
        assertThat(registry.scrape()).contains("dwd_shoot_state{shoot=\"shoot--dev--a\",state=\"healthy\"} 1.0");
        assertThat(registry.scrape().lines().filter(line -> line.startsWith("dwd_shoot_state{"))).hasSize(6)
                .filteredOn(line -> line.endsWith(" 1.0")).hasSize(1);

        prober.probeStopped(NS, "Cluster deleted");
        assertThat(registry.scrape()).doesNotContain("dwd_shoot_state{");
    }

    @Test
    void probeFailuresCountByShootStageAndReason() {
        prober.probeStarted(NS, Duration.ofSeconds(30));
        prober.probeFailed(NS, ProbeStage.API_SERVER, new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "refused"), T0);
        prober.probeFailed(NS, ProbeStage.API_SERVER, new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "refused"), T0);
        prober.probeFailed(NS, ProbeStage.LEASES, new ApiFailure(ApiFailure.Kind.FORBIDDEN, "forbidden"), T0);
        assertThat(registry.scrape())
                .contains("dwd_probe_failures_total{reason=\"unavailable\",shoot=\"shoot--dev--a\",stage=\"api-server\"} 2.0")
                .contains("dwd_probe_failures_total{reason=\"forbidden\",shoot=\"shoot--dev--a\",stage=\"leases\"} 1.0")
                .contains("dwd_probe_results_total{outcome=\"failed_api_server\"} 2.0");
    }

    @Test
    void aScaleDownIsInEffectFromTheFirstDependentScaledDownToTheNextCompletedScaleUp() {
        prober.probeStarted(NS, Duration.ofSeconds(30));
        prober.flowStarted(NS, ScaleDirection.UP, HEALTHY);
        prober.flowFinished(NS, ScaleDirection.UP, FlowOutcome.COMPLETED);
        assertThat(registry.scrape()).as("a healthy shoot").doesNotContain(SINCE);

        prober.flowStarted(NS, ScaleDirection.DOWN, MELTDOWN);
        now.set(T0.plusMillis(1500));
        prober.resourceScaled(NS, ScaleDirection.DOWN, KCM, 3, 0, MELTDOWN);
        assertThat(registry.scrape()).contains(SINCE + " 1.7672256015E9");
        now.set(T0.plusSeconds(60));
        prober.flowFinished(NS, ScaleDirection.DOWN, FlowOutcome.COMPLETED);
        prober.flowStarted(NS, ScaleDirection.DOWN, MELTDOWN); // the next meltdown verdict: nothing left to do
        prober.resourceSkipped(NS, ScaleDirection.DOWN, KCM, "already at 0 replicas");
        prober.flowFinished(NS, ScaleDirection.DOWN, FlowOutcome.COMPLETED);
        prober.probeFailed(NS, ProbeStage.API_SERVER, new ApiFailure(ApiFailure.Kind.TIMEOUT, "timeout"), T0);
        prober.flowStarted(NS, ScaleDirection.UP, HEALTHY);
        prober.flowFinished(NS, ScaleDirection.UP, FlowOutcome.CANCELLED); // melting down again
        prober.flowStarted(NS, ScaleDirection.UP, HEALTHY);
        prober.resourceFailed(NS, ScaleDirection.UP, KCM, "forbidden");
        prober.flowFinished(NS, ScaleDirection.UP, FlowOutcome.FAILED);
        assertThat(registry.scrape()).as("still held down, since the first dependent went down")
                .contains(SINCE + " 1.7672256015E9");

        prober.flowStarted(NS, ScaleDirection.UP, HEALTHY);
        prober.resourceScaled(NS, ScaleDirection.UP, KCM, 0, 3, HEALTHY);
        prober.flowFinished(NS, ScaleDirection.UP, FlowOutcome.COMPLETED);
        assertThat(registry.scrape()).doesNotContain(SINCE);
    }

    @Test
    void aCompletedScaleDownThatFoundEverythingDownCountsFromItsEndAndAStoppedProbeEndsIt() {
        prober.probeStarted(NS, Duration.ofSeconds(30)); // e.g. a new leader, whose predecessor scaled the dependents down
        prober.flowStarted(NS, ScaleDirection.DOWN, MELTDOWN);
        prober.resourceSkipped(NS, ScaleDirection.DOWN, KCM, "already at 0 replicas");
        now.set(T0.plusSeconds(2));
        prober.flowFinished(NS, ScaleDirection.DOWN, FlowOutcome.COMPLETED);
        assertThat(registry.scrape()).contains(SINCE + " 1.767225602E9");

        prober.probeStopped(NS, "shoot hibernated");
        prober.flowFinished(NS, ScaleDirection.DOWN, FlowOutcome.COMPLETED); // late: concerns no one
        assertThat(registry.scrape()).doesNotContain(SINCE);
    }

    @Test
    void apiRequestLatencyIsAHistogramByTargetAndVerb() {
        var traffic = new ApiRequestMetrics(registry, "seed", "shoot");
        traffic.requestCompleted("shoot", "get", 200, Duration.ofMillis(30));
        traffic.requestCompleted("shoot", "get", 0, Duration.ofSeconds(3));
        assertThat(registry.scrape())
                .contains("dwd_api_request_duration_seconds_bucket{target=\"shoot\",verb=\"get\",le=\"0.025\"} 0")
                .contains("dwd_api_request_duration_seconds_bucket{target=\"shoot\",verb=\"get\",le=\"0.05\"} 1")
                .contains("dwd_api_request_duration_seconds_bucket{target=\"shoot\",verb=\"get\",le=\"5.0\"} 2")
                .contains("dwd_api_request_duration_seconds_bucket{target=\"shoot\",verb=\"get\",le=\"+Inf\"} 2")
                .contains("dwd_api_request_duration_seconds_count{target=\"shoot\",verb=\"get\"} 2")
                .contains("dwd_api_requests_total{code=\"none\",target=\"shoot\",verb=\"get\"} 1.0");
    }

    @Test
    void everyHealthCheckIsASeriesThatFollowsItsCheck() {
        var loopsMoving = new AtomicBoolean(true);
        var health = new Health()
                .addLiveness(() -> loopsMoving.get()
                        ? HealthCheck.Result.ok("probe-loops", "1 loops making progress")
                        : HealthCheck.Result.failing("probe-loops", "1 of 1 loops stalled"))
                .addReadiness(() -> HealthCheck.Result.ok("caches", "synced"));
        HealthMetrics.register(registry, health);
        assertThat(registry.scrape())
                .contains("dwd_health_check_passing{check=\"probe-loops\",endpoint=\"healthz\"} 1.0")
                .contains("dwd_health_check_passing{check=\"caches\",endpoint=\"readyz\"} 1.0");
        loopsMoving.set(false);
        assertThat(registry.scrape()).contains("dwd_health_check_passing{check=\"probe-loops\",endpoint=\"healthz\"} 0.0");
    }

    @Test
    void leaderAcquisitionsStartAtZero() {
        var acquisitions = ProcessMetrics.leaderAcquisitions(registry, "dwd-prober-leader-election");
        assertThat(registry.scrape()).contains("dwd_leader_acquisitions_total{lock=\"dwd-prober-leader-election\"} 0.0");
        acquisitions.increment();
        assertThat(registry.scrape()).contains("dwd_leader_acquisitions_total{lock=\"dwd-prober-leader-election\"} 1.0");
    }
}
