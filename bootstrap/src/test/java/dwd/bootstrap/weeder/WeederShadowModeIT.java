package dwd.bootstrap.weeder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.DiscoveryV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Endpoint;
import io.kubernetes.client.openapi.models.V1EndpointConditions;
import io.kubernetes.client.openapi.models.V1EndpointSlice;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.util.PatchUtils;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ./dwd weeder} in shadow mode on a real API server: with Gardener's config, etcd recovers
 * while two kube-apiserver pods crash-loop; a client and a server dry-run weeder side by side each
 * log one would-delete line per pod, and both pods survive.
 */
@WithLocalControlPlane
class WeederShadowModeIT {

    private static final Path REPOSITORY = WeederLaunchIT.REPOSITORY;
    private static final List<String> PODS = List.of("kube-apiserver-0", "kube-apiserver-1");

    private final List<Process> weeders = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (Process weeder : weeders) {
            weeder.destroy();
            if (!weeder.waitFor(30, TimeUnit.SECONDS)) {
                weeder.destroyForcibly();
            }
        }
    }

    private Path start(LocalControlPlane controlPlane, String dryRunFlag) throws IOException {
        Path dir = Files.createTempDirectory("dwd-weeder-shadow");
        Path kubeconfig = Files.writeString(dir.resolve("seed.kubeconfig"), controlPlane.kubeconfig());
        Path log = dir.resolve("weeder.log");
        weeders.add(new ProcessBuilder(REPOSITORY.resolve("dwd").toString(), "weeder",
                "--config-file", REPOSITORY.resolve("deploy/examples/weeder-config.yaml").toString(),
                "--kubeconfig", kubeconfig.toString(), dryRunFlag, "--metrics-bind-addr=0", "--health-bind-addr=0")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start());
        return log;
    }

    private static List<String> wouldDelete(Path log, String namespace) throws IOException {
        return Files.readAllLines(log).stream().filter(line -> line.contains(namespace + ": [dry-run=")
                && line.contains("] would delete pod ")).toList();
    }

    /** Name to UID and deletion mark of the namespace's pods. */
    private static Map<String, String> pods(CoreV1Api core, String namespace) throws ApiException {
        var pods = new TreeMap<String, String>();
        for (V1Pod pod : core.listNamespacedPod(namespace).execute().getItems()) {
            pods.put(pod.getMetadata().getName(), pod.getMetadata().getUid()
                    + (pod.getMetadata().getDeletionTimestamp() == null ? "" : " deleting"));
        }
        return pods;
    }

    @Test
    void crashLoopingPodsSurviveAndEachIsReportedOnceAsAWouldBeDeletion(LocalControlPlane controlPlane, ApiClient client)
            throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--weeder-shadow");
        var core = new CoreV1Api(client);
        new DiscoveryV1Api(client).createNamespacedEndpointSlice(namespace, new V1EndpointSlice()
                .metadata(new V1ObjectMeta().name("etcd-main-client-x")
                        .labels(Map.of("kubernetes.io/service-name", "etcd-main-client")))
                .addressType("IPv4")
                .endpoints(List.of(new V1Endpoint().addresses(List.of("10.0.0.1"))
                        .conditions(new V1EndpointConditions().ready(false))))).execute();
        for (String pod : PODS) {
            core.createNamespacedPod(namespace, new V1Pod()
                    .metadata(new V1ObjectMeta().name(pod).labels(Map.of("gardener.cloud/role", "controlplane", "role", "apiserver")))
                    .spec(new V1PodSpec().overhead(null).containers(List.of(new V1Container().name("kube-apiserver").image("x")))))
                    .execute();
            crashLoop(client, namespace, pod, 3);
        }
        Map<String, String> before = pods(core, namespace);
        Path client1 = start(controlPlane, "--dry-run=client");
        Path server = start(controlPlane, "--dry-run=server");
        await("both weeders run").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> Files.readString(client1).contains("weeder running") && Files.readString(server).contains("weeder running"));

        patch(client, () -> new DiscoveryV1Api(client).patchNamespacedEndpointSlice("etcd-main-client-x", namespace,
                new V1Patch("{\"endpoints\":[{\"addresses\":[\"10.0.0.1\"],\"conditions\":{\"ready\":true}}]}")).buildCall(null));
        await("a would-be deletion of each pod").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> wouldDelete(client1, namespace).size() >= 2 && wouldDelete(server, namespace).size() >= 2);
        for (String pod : PODS) {
            crashLoop(client, namespace, pod, 4); // the kubelet reports the next restart: the pods are seen again
        }
        await("still one line per pod").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                .until(() -> wouldDelete(client1, namespace).size() == 2 && wouldDelete(server, namespace).size() == 2);

        assertThat(pods(core, namespace)).as("both pods survive: same UIDs, not being deleted").isEqualTo(before);
        for (Path log : List.of(client1, server)) {
            String mode = log == server ? "server" : "client";
            List<String> lines = wouldDelete(log, namespace);
            assertThat(lines).as(mode).hasSize(2);
            for (String pod : PODS) {
                assertThat(lines).as(mode).filteredOn(line -> line.contains("would delete pod " + pod + " (uid " + before.get(pod) + ")"))
                        .singleElement().asString()
                        .contains("[dry-run=" + mode + "]", "after service etcd-main-client turned ready: "
                                + (mode.equals("server") ? "would succeed" : "not sent"));
            }
            assertThat(Files.readString(log)).contains("dry-run " + mode).doesNotContain(": deleted pod ");
        }
    }

    private static void crashLoop(ApiClient client, String namespace, String pod, int restarts) throws ApiException {
        patch(client, () -> new CoreV1Api(client).patchNamespacedPodStatus(pod, namespace, new V1Patch(
                "{\"status\":{\"containerStatuses\":[{\"name\":\"kube-apiserver\",\"image\":\"x\",\"imageID\":\"\","
                        + "\"ready\":false,\"restartCount\":" + restarts
                        + ",\"state\":{\"waiting\":{\"reason\":\"CrashLoopBackOff\"}}}]}}")).buildCall(null));
    }

    interface CallFactory {
        okhttp3.Call call() throws ApiException;
    }

    private static void patch(ApiClient client, CallFactory call) throws ApiException {
        PatchUtils.patch(Object.class, call::call, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    }
}
