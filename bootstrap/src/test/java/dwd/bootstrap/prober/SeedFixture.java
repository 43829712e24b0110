package dwd.bootstrap.prober;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.PatchUtils;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A seed with one shoot on the local control plane, which serves as both seed and shoot: the
 * shoot's kubeconfig secret points back at the same API server. Nodes get live Machines, and
 * the fixture renews their leases like kubelets until told to stop.
 */
final class SeedFixture implements AutoCloseable {

    static final String SECRET = "shoot-access-dependency-watchdog-probe";

    private final ApiClient client;
    private final String namespace;
    private final ScheduledExecutorService kubelets = Executors.newSingleThreadScheduledExecutor();
    private final Set<String> renewing = ConcurrentHashMap.newKeySet();
    private final AtomicInteger renewalFailures = new AtomicInteger();
    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX");

    SeedFixture(ApiClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    String namespace() {
        return namespace;
    }

    /** The Cluster object of a reconciled shoot with one worker pool and the given node-monitor grace period. */
    void createCluster(String gracePeriod) throws ApiException {
        Map<String, Object> shoot = Map.of(
                "apiVersion", "core.gardener.cloud/v1beta1", "kind", "Shoot",
                "metadata", Map.of("name", "meltdown", "namespace", "garden-dev"),
                "spec", Map.of(
                        "hibernation", Map.of("enabled", false),
                        "provider", Map.of("workers", List.of(Map.of("name", "pool-a", "machineControllerManager", Map.of()))),
                        "kubernetes", Map.of("kubeControllerManager", Map.of("nodeMonitorGracePeriod", gracePeriod))),
                "status", Map.of("hibernated", false, "lastOperation", Map.of("type", "Reconcile", "state", "Succeeded")));
        new CustomObjectsApi(client).createClusterCustomObject("extensions.gardener.cloud", "v1alpha1", "clusters",
                Map.of("apiVersion", "extensions.gardener.cloud/v1alpha1", "kind", "Cluster",
                        "metadata", Map.of("name", namespace),
                        "spec", Map.of("shoot", shoot, "seed", Map.of(), "cloudProfile", Map.of())))
                .execute();
    }

    void createKubeconfigSecret(String kubeconfig) throws ApiException {
        new CoreV1Api(client).createNamespacedSecret(namespace, new V1Secret()
                .metadata(new V1ObjectMeta().name(SECRET))
                .data(Map.of("kubeconfig", kubeconfig.getBytes(StandardCharsets.UTF_8))))
                .execute();
    }

    void createDeployment(String name, int replicas) throws ApiException {
        var labels = Map.of("app", name);
        new AppsV1Api(client).createNamespacedDeployment(namespace, new V1Deployment()
                .metadata(new V1ObjectMeta().name(name))
                .spec(new V1DeploymentSpec().replicas(replicas)
                        .selector(new V1LabelSelector().matchLabels(labels))
                        .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
                                .spec(new V1PodSpec().containers(List.of(
                                        new V1Container().name(name).image("registry.invalid/" + name)))))))
                .execute();
    }

    /** A node with a Running Machine and a fresh lease, renewed every second from now on. */
    void createNode(String node) throws ApiException {
        new CoreV1Api(client).createNode(new V1Node().metadata(new V1ObjectMeta().name(node)
                .labels(Map.of("worker.gardener.cloud/pool", "pool-a")))).execute();
        var custom = new CustomObjectsApi(client);
        String machine = "machine-" + node;
        custom.createNamespacedCustomObject("machine.sapcloud.io", "v1alpha1", namespace, "machines", Map.of(
                "apiVersion", "machine.sapcloud.io/v1alpha1", "kind", "Machine",
                "metadata", Map.of("name", machine, "labels", Map.of("node", node)),
                "spec", Map.of())).execute();
        PatchUtils.patch(Object.class, () -> custom.patchNamespacedCustomObjectStatus("machine.sapcloud.io", "v1alpha1",
                        namespace, "machines", machine,
                        new V1Patch("{\"status\":{\"currentStatus\":{\"phase\":\"Running\"}}}")).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
        new CoordinationV1Api(client).createNamespacedLease("kube-node-lease", new V1Lease()
                .metadata(new V1ObjectMeta().name(node))
                .spec(new V1LeaseSpec().holderIdentity(node).leaseDurationSeconds(40).renewTime(now())))
                .execute();
        renewing.add(node);
    }

    /** Renews every lease still renewing, every second, like kubelets (every 10 s in a real cluster). */
    void startKubelets() {
        kubelets.scheduleAtFixedRate(() -> {
            for (String node : renewing) {
                try {
                    PatchUtils.patch(V1Lease.class, () -> new CoordinationV1Api(client).patchNamespacedLease(node,
                                    "kube-node-lease", new V1Patch("{\"spec\":{\"renewTime\":\"" + microTime() + "\"}}"))
                            .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
                } catch (ApiException | RuntimeException e) {
                    renewalFailures.incrementAndGet();
                }
            }
        }, 0, 1, TimeUnit.SECONDS);
    }

    void stopRenewing(List<String> nodes) {
        renewing.removeAll(nodes);
    }

    void resumeRenewing(List<String> nodes) {
        renewing.addAll(nodes);
    }

    /** Lease renewals the API server refused; a test that relies on renewals asserts there were none. */
    int renewalFailures() {
        return renewalFailures.get();
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }

    /** A MicroTime as the API server wants it: exactly six fractional digits. */
    private static String microTime() {
        return MICRO_TIME.format(now());
    }

    @Override
    public void close() {
        kubelets.shutdownNow();
    }
}
