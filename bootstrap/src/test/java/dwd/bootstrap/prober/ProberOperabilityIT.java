package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.ProberMeltdownIT.CA;
import static dwd.bootstrap.prober.ProberMeltdownIT.KCM;
import static dwd.bootstrap.prober.ProberMeltdownIT.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What an operator sees of a meltdown, from {@code ./dwd prober} with leader election against a real
 * API server: the metrics (parsed from the Prometheus text format), the {@code /probes} status page,
 * the Kubernetes Events of the scale-down, and JSON log lines with the shoot and the resource.
 */
@WithLocalControlPlane
class ProberOperabilityIT {

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void aMeltdownIsVisibleInMetricsStatusEventsAndLogs(LocalControlPlane controlPlane) throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--observed");
        var seed = new SeedFixture(controlPlane.apiClient(), namespace);
        cleanup.add(seed);
        seed.createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        seed.createGardenerDependents();
        List<String> nodes = seed.createNodes(5);
        String unmanaged = namespace + "-unmanaged";
        String withoutMachine = namespace + "-no-machine";
        createBareNode(controlPlane, unmanaged, Map.of("node.machine.sapcloud.io/not-managed-by-mcm", "true"));
        createBareNode(controlPlane, withoutMachine, Map.of());
        seed.startKubelets();
        seed.createCluster("8s");
        var recorder = new DeploymentRecorder(controlPlane.newApiClient(Duration.ZERO), namespace);
        cleanup.add(recorder);
        Path dir = Files.createTempDirectory("dwd-operability");
        Path config = Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened());
        Path kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), controlPlane.kubeconfig());
        var prober = ProberProcess.start(dir, "prober", config, kubeconfig, "--zap-log-level=debug",
                "--enable-leader-election", "--leader-election-namespace=" + namespace,
                "--leader-elect-lease-duration=4s", "--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=1s");
        cleanup.add(prober);

        await("a healthy probe").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> prober.log().contains(namespace + ": lease probe: SCALE_UP"));
        seed.stopRenewing(nodes.subList(0, 3)); // 3 of 5 = 0.6: the threshold
        await("scale-down").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> recorder.replicas(KCM) == 0 && recorder.replicas(MCM) == 0 && recorder.replicas(CA) == 0);
        Map<String, String> shoot = Map.of("shoot", namespace);
        await("the scale-down flow completed").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> PrometheusText.parse(prober.metrics()).sum("dwd_scale_flow_duration_seconds_count",
                        Map.of("direction", "down", "outcome", "completed")) >= 1);

        // Metrics, parsed from the text format.
        PrometheusText metrics = PrometheusText.parse(prober.metrics());
        assertThat(metrics.sum("dwd_shoot_lease_expired_ratio", shoot)).isEqualTo(0.6);
        assertThat(metrics.sum("dwd_shoot_lease_candidates", shoot)).isEqualTo(5);
        assertThat(metrics.sum("dwd_shoot_leases_expired", shoot)).isEqualTo(3);
        assertThat(metrics.sum("dwd_scale_operations_total",
                Map.of("shoot", namespace, "direction", "down", "result", "scaled"))).isEqualTo(3);
        for (String name : List.of(KCM, MCM, CA)) {
            assertThat(metrics.sum("dwd_scale_operations_total", Map.of("shoot", namespace, "direction", "down",
                    "result", "scaled", "resource", "Deployment/" + name))).as(name).isEqualTo(1);
        }
        assertThat(metrics.sum("dwd_scale_operations_total", Map.of("shoot", namespace, "result", "failed"))).isZero();
        assertThat(metrics.sum("dwd_probes_active", Map.of())).isGreaterThanOrEqualTo(1);
        assertThat(metrics.sum("dwd_probe_results_total", Map.of("outcome", "scale_down"))).isGreaterThanOrEqualTo(1);
        assertThat(metrics.sum("dwd_probe_results_total", Map.of("outcome", "scale_up"))).isGreaterThanOrEqualTo(1);
        assertThat(metrics.sum("dwd_decision_latency_seconds_count", Map.of("direction", "down"))).isGreaterThanOrEqualTo(1);
        assertThat(metrics.sum("dwd_decision_latency_seconds_max", Map.of("direction", "down")))
                .as("threshold crossing to first write, in seconds").isBetween(0.0, 10.0);
        assertThat(metrics.sum("dwd_leader_status", Map.of("lock", "dwd-prober-leader-election"))).isEqualTo(1);
        assertThat(metrics.sum("dwd_api_requests_total", Map.of("target", "seed", "verb", "patch", "code", "200")))
                .as("scale writes (a Deployment's scale and record are one patch) in %s",
                        metrics.find("dwd_api_requests_total", Map.of())).isGreaterThanOrEqualTo(3);
        assertThat(metrics.sum("dwd_api_requests_total", Map.of("target", "seed", "verb", "update")))
                .as("no writes of Deployments' scale subresource").isZero();
        assertThat(metrics.sum("dwd_api_requests_total", Map.of("target", "shoot", "verb", "get", "code", "200")))
                .isGreaterThan(0);
        assertThat(metrics.sum("dwd_api_requests_total", Map.of("target", "leader-election", "code", "200")))
                .isGreaterThan(0);
        assertThat(metrics.find("dwd_throttled_requests_total", Map.of())).extracting(s -> s.labels().get("target"))
                .contains("seed", "shoot", "leader-election");
        assertThat(metrics.has("dwd_scale_requests_queued_total")).as("the scale bound's waits, from the start").isTrue();
        assertThat(metrics.has("dwd_scale_request_queue_wait_seconds_total")).isTrue();
        assertThat(metrics.has("dwd_scale_requests_in_flight")).isTrue();
        assertThat(metrics.has("jvm_memory_used_bytes")).isTrue();
        assertThat(metrics.has("jvm_threads_live_threads")).isTrue();
        assertThat(metrics.has("process_uptime_seconds")).isTrue();
        assertThat(metrics.has("process_cpu_usage")).isTrue();

        // The status page.
        JsonObject entry = StreamSupport.stream(JsonParser.parseString(prober.probes()).getAsJsonObject()
                        .getAsJsonArray("shoots").spliterator(), false)
                .map(JsonElement::getAsJsonObject)
                .filter(object -> object.get("namespace").getAsString().equals(namespace))
                .findFirst().orElseThrow();
        assertThat(entry.get("state").getAsString()).isEqualTo("meltdown");
        JsonObject verdict = entry.getAsJsonObject("lastVerdict");
        assertThat(verdict.get("decision").getAsString()).isEqualTo("scale-down");
        assertThat(verdict.get("candidates").getAsInt()).isEqualTo(5);
        assertThat(verdict.get("expired").getAsInt()).isEqualTo(3);
        assertThat(verdict.get("fraction").getAsDouble()).isEqualTo(0.6);
        assertThat(verdict.get("threshold").getAsDouble()).isEqualTo(0.6);
        Map<String, List<String>> excluded = new java.util.HashMap<>();
        verdict.getAsJsonArray("excludedNodes").forEach(node -> excluded.put(
                node.getAsJsonObject().get("node").getAsString(),
                node.getAsJsonObject().getAsJsonArray("reasons").asList().stream().map(JsonElement::getAsString).toList()));
        assertThat(excluded.get(unmanaged)).contains("not-managed-by-mcm");
        assertThat(excluded.get(withoutMachine)).containsExactly("no-live-machine");
        assertThat(entry.get("nextProbe").isJsonNull()).isFalse();
        JsonObject flow = entry.getAsJsonObject("lastFlow");
        assertThat(flow.get("direction").getAsString()).isEqualTo("down");
        assertThat(flow.get("result").getAsString()).isEqualTo("completed");
        assertThat(flow.getAsJsonArray("resources").asList()).hasSize(3)
                .allSatisfy(resource -> assertThat(resource.getAsJsonObject().get("result").getAsString()).isEqualTo("scaled"));

        // The Events.
        await("three ScaledDown events").atMost(Duration.ofSeconds(20))
                .failFast("event writes failed", () -> PrometheusText.parse(prober.metrics())
                        .sum("dwd_events_total", Map.of("result", "failed")) > 0).pollInterval(Duration.ofMillis(200))
                .until(() -> scaledDownEvents(controlPlane, namespace).size() == 3);
        List<EventsV1Event> events = scaledDownEvents(controlPlane, namespace);
        assertThat(PrometheusText.parse(prober.metrics()).sum("dwd_events_total", Map.of("result", "written")))
                .isGreaterThanOrEqualTo(3);
        assertThat(events).extracting(event -> event.getRegarding().getName()).containsExactlyInAnyOrder(KCM, MCM, CA);
        assertThat(events).allSatisfy(event -> {
            assertThat(event.getType()).isEqualTo("Normal");
            assertThat(event.getReportingController()).isEqualTo("dependency-watchdog.gardener.cloud/prober");
            assertThat(event.getNote()).contains("5 candidates, 3 expired, fraction 0.60 >= threshold 0.60");
        });
        assertThat(events.stream().filter(event -> event.getRegarding().getName().equals(KCM)).findFirst().orElseThrow()
                .getNote()).startsWith("Scaled down from 3 to 0 replicas");

        // JSON log lines: one object per line, the shoot and the resource in fields of their own.
        List<JsonObject> lines = prober.log().lines().filter(line -> line.startsWith("{"))
                .map(line -> JsonParser.parseString(line).getAsJsonObject()).toList();
        assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(line.keySet()).contains("time", "level", "logger", "message"));
        assertThat(lines).filteredOn(line -> line.has("shootNamespace") && line.has("resource")).anySatisfy(line -> {
            assertThat(line.get("shootNamespace").getAsString()).isEqualTo(namespace);
            assertThat(line.get("resource").getAsString()).isEqualTo("apps/v1 Deployment " + KCM);
            assertThat(line.get("message").getAsString()).contains("scaled");
        });

        assertThat(prober.terminate()).as("exit status after SIGTERM (128 + 15: the JVM ran its shutdown hooks)").isEqualTo(143);
        assertThat(prober.log()).contains("released Lease " + namespace + "/dwd-prober-leader-election");
    }

    private static List<EventsV1Event> scaledDownEvents(LocalControlPlane controlPlane, String namespace) throws Exception {
        return new EventsV1Api(controlPlane.apiClient()).listNamespacedEvent(namespace).execute().getItems().stream()
                .filter(event -> "ScaledDown".equals(event.getReason())).toList();
    }

    private static void createBareNode(LocalControlPlane controlPlane, String name, Map<String, String> annotations)
            throws Exception {
        new CoreV1Api(controlPlane.apiClient()).createNode(new V1Node().metadata(new V1ObjectMeta().name(name)
                .labels(Map.of("worker.gardener.cloud/pool", "pool-a")).annotations(annotations))).execute();
    }
}
