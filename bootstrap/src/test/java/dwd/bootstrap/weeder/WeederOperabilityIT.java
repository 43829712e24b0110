package dwd.bootstrap.weeder;

import static dwd.bootstrap.weeder.WeederLaunchIT.REPOSITORY;
import static dwd.bootstrap.weeder.WeederLaunchIT.patch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.prober.PrometheusText;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.DiscoveryV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Endpoint;
import io.kubernetes.client.openapi.models.V1EndpointConditions;
import io.kubernetes.client.openapi.models.V1EndpointSlice;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicaSetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two {@code ./dwd weeder} processes with leader election against a real API server: only the
 * leader weeds; what it did shows in its metrics, its {@code /weeders} page, a {@code PodDeleted}
 * Event on the pod's ReplicaSet and its JSON log; the standby deletes nothing, and takes over at
 * once when the leader stops and releases the Lease.
 */
@WithLocalControlPlane
public class WeederOperabilityIT {

    static final Map<String, String> APISERVER_LABELS = Map.of("gardener.cloud/role", "controlplane", "role", "apiserver");
    public static final String OWNER = "kube-apiserver-7d9f";
    static final String POD = OWNER + "-x2k4q";
    static final String LOCK = "dwd-weeder-leader-election";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void onlyTheLeaderWeedsAndItsWorkShowsInMetricsStatusEventsAndLogs(LocalControlPlane controlPlane, ApiClient client)
            throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--weeder-ops");
        var core = new CoreV1Api(client);
        String ownerUid = createReplicaSet(client, namespace);
        createCrashLoopingPod(client, namespace, ownerUid);
        new DiscoveryV1Api(client).createNamespacedEndpointSlice(namespace, new V1EndpointSlice()
                .metadata(new V1ObjectMeta().name("etcd-main-client-x")
                        .labels(Map.of("kubernetes.io/service-name", "etcd-main-client")))
                .addressType("IPv4")
                .endpoints(List.of(new V1Endpoint().addresses(List.of("10.0.0.1"))
                        .conditions(new V1EndpointConditions().ready(false))))).execute();

        Path dir = Files.createTempDirectory("dwd-weeder-ops");
        Path config = Files.writeString(dir.resolve("weeder-config.yaml"),
                Files.readString(REPOSITORY.resolve("deploy/examples/weeder-config.yaml")));
        Path kubeconfig = Files.writeString(dir.resolve("seed.kubeconfig"), controlPlane.kubeconfig());
        String[] election = {"--enable-leader-election", "--leader-election-namespace=" + namespace,
            "--leader-elect-lease-duration=4s", "--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=1s"};
        var leader = WeederProcess.start(dir, "leader", config, kubeconfig, election);
        cleanup.add(leader);
        await("the first process leads and is ready").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> leader.readyz() == 200 && leader.log().contains("weeder running"));
        var standby = WeederProcess.start(dir, "standby", config, kubeconfig, election);
        cleanup.add(standby);
        await("the second process is a ready standby").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> standby.readyz() == 200);
        assertThat(standby.healthBody("/readyz")).contains("[+]leader-election: standby");
        assertThat(core.listNamespacedPod(namespace).execute().getItems()).as("not ready yet: left alone").hasSize(1);

        // etcd-main-client turns ready: the leader deletes the crash-looping kube-apiserver pod.
        patch(client, () -> new DiscoveryV1Api(client).patchNamespacedEndpointSlice("etcd-main-client-x", namespace,
                new V1Patch("{\"endpoints\":[{\"addresses\":[\"10.0.0.1\"],\"conditions\":{\"ready\":true}}]}"))
                .buildCall(null));
        await("the crash-looping pod is deleted").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> core.listNamespacedPod(namespace).execute().getItems().isEmpty());

        // Metrics.
        Map<String, String> service = Map.of("shoot", namespace, "service", "etcd-main-client",
                "owner", "ReplicaSet/" + OWNER);
        await("the deletion is counted").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> PrometheusText.parse(leader.metrics()).sum("dwd_pods_deleted_total", service) == 1);
        PrometheusText metrics = PrometheusText.parse(leader.metrics());
        assertThat(metrics.sum("dwd_weeders_active", Map.of())).isGreaterThanOrEqualTo(1);
        assertThat(metrics.sum("dwd_leader_status", Map.of("lock", LOCK))).isEqualTo(1);
        assertThat(metrics.sum("dwd_api_requests_total", Map.of("target", "seed", "verb", "delete", "code", "200")))
                .isGreaterThanOrEqualTo(1);
        assertThat(metrics.sum("dwd_api_requests_total", Map.of("target", "seed", "verb", "watch")))
                .as("the EndpointSlice informer and the pod watch").isGreaterThanOrEqualTo(2);
        assertThat(metrics.sum("dwd_api_requests_total", Map.of("target", "leader-election", "code", "200")))
                .isGreaterThan(0);
        assertThat(metrics.find("dwd_throttled_requests_total", Map.of())).extracting(s -> s.labels().get("target"))
                .containsExactlyInAnyOrder("seed", "leader-election");
        assertThat(metrics.has("jvm_memory_used_bytes")).isTrue();
        assertThat(metrics.has("process_uptime_seconds")).isTrue();
        PrometheusText standbyMetrics = PrometheusText.parse(standby.metrics());
        assertThat(standbyMetrics.sum("dwd_leader_status", Map.of("lock", LOCK))).isZero();
        assertThat(standbyMetrics.sum("dwd_weeders_active", Map.of())).isZero();
        assertThat(standbyMetrics.find("dwd_pods_deleted_total", Map.of())).isEmpty();
        assertThat(standbyMetrics.find("dwd_api_requests_total", Map.of("target", "seed")))
                .as("a standby reads and writes nothing on the seed, but asks once whether it may write Events")
                .singleElement().satisfies(series -> {
                    assertThat(series.labels()).containsEntry("verb", "create").containsEntry("code", "201");
                    assertThat(series.value()).isEqualTo(1);
                });

        // The status page.
        JsonObject weeder = weederOf(leader, namespace).orElseThrow();
        assertThat(weeder.get("service").getAsString()).isEqualTo("etcd-main-client");
        assertThat(weeder.get("podsDeleted").getAsInt()).isEqualTo(1);
        assertThat(weeder.getAsJsonObject("lastDeletion").get("pod").getAsString()).isEqualTo(POD);
        Instant started = Instant.parse(weeder.get("started").getAsString());
        assertThat(Duration.between(started, Instant.parse(weeder.get("until").getAsString())))
                .as("Gardener's watchDuration (started is when the page heard of it)")
                .isBetween(Duration.ofMinutes(5).minusSeconds(1), Duration.ofMinutes(5));
        assertThat(JsonParser.parseString(standby.weeders()).getAsJsonObject().get("count").getAsInt()).isZero();

        // The Event, on the pod's controller.
        await("a PodDeleted event").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> podDeletedEvents(client, namespace).size() == 1);
        EventsV1Event event = podDeletedEvents(client, namespace).getFirst();
        assertThat(event.getRegarding().getKind()).isEqualTo("ReplicaSet");
        assertThat(event.getRegarding().getApiVersion()).isEqualTo("apps/v1");
        assertThat(event.getRegarding().getName()).isEqualTo(OWNER);
        assertThat(event.getType()).isEqualTo("Normal");
        assertThat(event.getAction()).isEqualTo("Delete");
        assertThat(event.getReportingController()).isEqualTo("dependency-watchdog.gardener.cloud/weeder");
        assertThat(event.getNote()).startsWith("Deleted pod " + POD).contains("etcd-main-client");
        assertThat(PrometheusText.parse(leader.metrics()).sum("dwd_events_total", Map.of("result", "written")))
                .isGreaterThanOrEqualTo(1);

        // JSON log lines, the namespace in a field of its own.
        List<JsonObject> lines = leader.log().lines().filter(line -> line.startsWith("{"))
                .map(line -> JsonParser.parseString(line).getAsJsonObject()).toList();
        assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(line.keySet()).contains("time", "level", "logger", "message"));
        assertThat(lines).anySatisfy(line -> {
            assertThat(line.get("message").getAsString()).contains("deleted pod " + POD);
            assertThat(line.get("shootNamespace").getAsString()).isEqualTo(namespace);
        });
        assertThat(standby.log()).doesNotContain("deleted pod").doesNotContain("deleting pod").doesNotContain("weeder running");

        // The leader stops and releases the Lease: the standby takes over at its next look.
        assertThat(leader.terminate()).as("exit status after SIGTERM").isEqualTo(143);
        assertThat(leader.log()).contains("released Lease " + namespace + "/" + LOCK);
        await("the standby leads").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> standby.log().contains("weeder running") && standby.readyz() == 200);
        assertThat(standby.healthBody("/readyz")).contains("[+]leader-election: leading; caches synced");
        assertThat(new CoordinationV1Api(client).readNamespacedLease(LOCK, namespace).execute().getSpec()
                .getHolderIdentity()).isNotBlank();
        await("the new leader weeds the ready service afresh").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100)).until(() -> weederOf(standby, namespace).isPresent());
        assertThat(weederOf(standby, namespace).orElseThrow().get("podsDeleted").getAsInt()).isZero();
        assertThat(standby.log()).as("nothing left to delete").doesNotContain("deleting pod");
    }

    public static String createReplicaSet(ApiClient client, String namespace) throws Exception {
        // No controller manager runs here: the ReplicaSet only has to exist, as the pod's owner.
        return new AppsV1Api(client).createNamespacedReplicaSet(namespace, new V1ReplicaSet()
                .metadata(new V1ObjectMeta().name(OWNER))
                .spec(new V1ReplicaSetSpec().replicas(0)
                        .selector(new V1LabelSelector().matchLabels(APISERVER_LABELS))
                        .template(new V1PodTemplateSpec()
                                .metadata(new V1ObjectMeta().labels(APISERVER_LABELS))
                                .spec(new V1PodSpec().overhead(null).containers(List.of(
                                        new V1Container().name("kube-apiserver").image("x")))))))
                .execute().getMetadata().getUid();
    }

    public static void createCrashLoopingPod(ApiClient client, String namespace, String ownerUid) throws Exception {
        var core = new CoreV1Api(client);
        core.createNamespacedPod(namespace, new V1Pod()
                .metadata(new V1ObjectMeta().name(POD).labels(APISERVER_LABELS).ownerReferences(List.of(
                        new V1OwnerReference().apiVersion("apps/v1").kind("ReplicaSet").name(OWNER).uid(ownerUid)
                                .controller(true).blockOwnerDeletion(true))))
                .spec(new V1PodSpec().overhead(null) // client-java sends {}, which the server rejects without a RuntimeClass
                        .containers(List.of(new V1Container().name("kube-apiserver").image("x")))))
                .execute();
        patch(client, () -> core.patchNamespacedPodStatus(POD, namespace, new V1Patch(
                "{\"status\":{\"containerStatuses\":[{\"name\":\"kube-apiserver\",\"image\":\"x\",\"imageID\":\"\","
                        + "\"ready\":false,\"restartCount\":3,\"state\":{\"waiting\":{\"reason\":\"CrashLoopBackOff\"}}}]}}"))
                .buildCall(null));
    }

    private static Optional<JsonObject> weederOf(WeederProcess process, String namespace) throws Exception {
        return StreamSupport.stream(JsonParser.parseString(process.weeders()).getAsJsonObject()
                        .getAsJsonArray("weeders").spliterator(), false)
                .map(JsonElement::getAsJsonObject)
                .filter(entry -> entry.get("namespace").getAsString().equals(namespace))
                .findFirst();
    }

    private static List<EventsV1Event> podDeletedEvents(ApiClient client, String namespace) throws Exception {
        return new EventsV1Api(client).listNamespacedEvent(namespace).execute().getItems().stream()
                .filter(event -> "PodDeleted".equals(event.getReason())).toList();
    }
}
