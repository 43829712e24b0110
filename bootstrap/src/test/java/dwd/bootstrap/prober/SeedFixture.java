package dwd.bootstrap.prober;

import com.google.gson.Gson;
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
import io.kubernetes.client.openapi.models.V1NodeCondition;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A seed with one shoot on the local control plane, which serves as both seed and shoot: the
 * shoot's kubeconfig secret points back at the same API server. Nodes get live Machines, and
 * the fixture renews their leases like kubelets until told to stop. What it creates outside the
 * namespace (the Cluster, nodes, node leases) it removes on close.
 */
public final class SeedFixture implements AutoCloseable {

    static final String SECRET = "shoot-access-dependency-watchdog-probe";

    private final ApiClient client;
    private final String namespace;
    private final ScheduledExecutorService kubelets = Executors.newSingleThreadScheduledExecutor();
    private final Set<String> renewing = ConcurrentHashMap.newKeySet();
    private final AtomicInteger renewalFailures = new AtomicInteger();
    private final AtomicInteger machines = new AtomicInteger();
    private final List<String> nodes = new CopyOnWriteArrayList<>();
    private final List<String> leases = new CopyOnWriteArrayList<>();
    private volatile boolean clusterCreated;
    /** A MicroTime as the API server wants it: exactly six fractional digits. */
    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX");

    public SeedFixture(ApiClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    public String namespace() {
        return namespace;
    }

    /** The Cluster object of a reconciled shoot with one worker pool and the given node-monitor grace period. */
    public void createCluster(String gracePeriod) throws ApiException {
        createCluster(ShootDocument.reconciled().gracePeriod(gracePeriod).toMap());
    }

    /** The Cluster object named after the namespace, embedding {@code shoot} (a Gardener Shoot document). */
    void createCluster(Object shoot) throws ApiException {
        createClusterWithSpec(Map.of("shoot", shoot, "seed", Map.of(), "cloudProfile", Map.of()));
    }

    /** The Cluster object named after the namespace, with exactly this {@code spec}. */
    void createClusterWithSpec(Map<String, Object> spec) throws ApiException {
        new CustomObjectsApi(client).createClusterCustomObject("extensions.gardener.cloud", "v1alpha1", "clusters",
                Map.of("apiVersion", "extensions.gardener.cloud/v1alpha1", "kind", "Cluster",
                        "metadata", Map.of("name", namespace),
                        "spec", spec))
                .execute();
        clusterCreated = true;
    }

    /** Replaces the Cluster's {@code spec.shoot}, as Gardener does when the shoot changes. */
    void replaceShoot(Object shoot) throws ApiException {
        String patch = new Gson().toJson(List.of(Map.of("op", "replace", "path", "/spec/shoot", "value", shoot)));
        var custom = new CustomObjectsApi(client);
        PatchUtils.patch(Object.class, () -> custom.patchClusterCustomObject("extensions.gardener.cloud", "v1alpha1",
                        "clusters", namespace, new V1Patch(patch)).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_PATCH, client);
    }

    void deleteCluster() throws ApiException {
        new CustomObjectsApi(client).deleteClusterCustomObject("extensions.gardener.cloud", "v1alpha1", "clusters",
                namespace).execute();
        clusterCreated = false;
    }

    public void createKubeconfigSecret(String kubeconfig) throws ApiException {
        createSecret(SECRET, Map.of("kubeconfig", kubeconfig));
    }

    /** A secret named {@code name} in the shoot namespace with this (not yet encoded) data. */
    void createSecret(String name, Map<String, String> data) throws ApiException {
        new CoreV1Api(client).createNamespacedSecret(namespace, secret(name, data)).execute();
    }

    void replaceSecret(String name, Map<String, String> data) throws ApiException {
        new CoreV1Api(client).replaceNamespacedSecret(name, namespace, secret(name, data)).execute();
    }

    private static V1Secret secret(String name, Map<String, String> data) {
        var encoded = new LinkedHashMap<String, byte[]>();
        data.forEach((key, value) -> encoded.put(key, value.getBytes(StandardCharsets.UTF_8)));
        return new V1Secret().metadata(new V1ObjectMeta().name(name)).data(encoded);
    }

    void createDeployment(String name, int replicas) throws ApiException {
        createDeployment(name, replicas, Map.of());
    }

    void createDeployment(String name, int replicas, Map<String, String> annotations) throws ApiException {
        var labels = Map.of("app", name);
        new AppsV1Api(client).createNamespacedDeployment(namespace, new V1Deployment()
                .metadata(new V1ObjectMeta().name(name).annotations(annotations))
                .spec(new V1DeploymentSpec().replicas(replicas)
                        .selector(new V1LabelSelector().matchLabels(labels))
                        .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
                                .spec(new V1PodSpec().containers(List.of(
                                        new V1Container().name(name).image("registry.invalid/" + name)))))))
                .execute();
    }

    /** The Deployment's {@code spec.replicas} now. */
    public int replicas(String deployment) throws ApiException {
        V1Deployment read = new AppsV1Api(client).readNamespacedDeployment(deployment, namespace).execute();
        return java.util.Objects.requireNonNullElse(read.getSpec().getReplicas(), 0);
    }

    /** The Deployment's annotations now. */
    Map<String, String> annotations(String deployment) throws ApiException {
        V1Deployment read = new AppsV1Api(client).readNamespacedDeployment(deployment, namespace).execute();
        return java.util.Objects.requireNonNullElse(read.getMetadata().getAnnotations(), Map.of());
    }

    /** Gardener's three dependents at 3 (kube-controller-manager), 2 (machine-controller-manager) and 1 (cluster-autoscaler) replicas. */
    public void createGardenerDependents() throws ApiException {
        createDeployment("kube-controller-manager", 3);
        createDeployment("machine-controller-manager", 2);
        createDeployment("cluster-autoscaler", 1);
    }

    /** Gardener's three dependents as a meltdown left them: at 0, their counts (3, 2, 1) recorded. */
    void createGardenerDependentsScaledDown() throws ApiException {
        String replicas = "dependency-watchdog.gardener.cloud/replicas";
        String meltdown = "dependency-watchdog.gardener.cloud/meltdown-protection-active";
        createDeployment("kube-controller-manager", 0, Map.of(replicas, "3", meltdown, ""));
        createDeployment("machine-controller-manager", 0, Map.of(replicas, "2", meltdown, ""));
        createDeployment("cluster-autoscaler", 0, Map.of(replicas, "1", meltdown, ""));
    }

    /** Sets one annotation of the Deployment, as an operator's {@code kubectl annotate --overwrite} would. */
    void annotate(String deployment, String key, String value) throws ApiException {
        var apps = new AppsV1Api(client);
        String patch = new Gson().toJson(Map.of("metadata", Map.of("annotations", Map.of(key, value))));
        PatchUtils.patch(Object.class, () -> apps.patchNamespacedDeployment(deployment, namespace, new V1Patch(patch))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    }

    /**
     * Sets the Deployment's ready replicas through the status subresource, as its controller would
     * (no controller runs on the local control plane, so a Deployment never becomes ready by itself).
     */
    void reportReadyReplicas(String deployment, int ready) throws ApiException {
        var apps = new AppsV1Api(client);
        PatchUtils.patch(Object.class, () -> apps.patchNamespacedDeploymentStatus(deployment, namespace,
                        new V1Patch("{\"status\":{\"replicas\":" + ready + ",\"readyReplicas\":" + ready + "}}")).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    }

    /**
     * The shoot the meltdown tests start from: its kubeconfig secret, Gardener's three dependents,
     * {@code count} nodes whose leases are renewed like kubelets from now on, and the Cluster with
     * a grace period of 8 s (leases expire 6 s, 0.75 × 8 s, after their last renewal). Returns the nodes.
     */
    public List<String> createRenewingShoot(String kubeconfig, int count) throws ApiException {
        createKubeconfigSecret(kubeconfig);
        createGardenerDependents();
        List<String> created = createNodes(count);
        startKubelets();
        createCluster("8s");
        return created;
    }

    /** {@code count} nodes named after the namespace, each with a Running Machine and a fresh lease. */
    public List<String> createNodes(int count) throws ApiException {
        var created = new java.util.ArrayList<String>();
        for (int i = 0; i < count; i++) {
            created.add(namespace + "-node-" + i);
            createNode(created.getLast());
        }
        return created;
    }

    /** A node of {@code pool-a} with a Running Machine and a fresh lease, renewed every second from now on. */
    void createNode(String node) throws ApiException {
        createNode(node, Map.of("worker.gardener.cloud/pool", "pool-a"), Map.of(), List.of());
        createMachine(node, "Running");
        createLease(node, now());
        renewing.add(node);
    }

    /** A bare node (no Machine, no lease) with these labels, annotations and status conditions (type → status). */
    void createNode(String node, Map<String, String> labels, Map<String, String> annotations,
            List<V1NodeCondition> conditions) throws ApiException {
        new CoreV1Api(client).createNode(new V1Node()
                        .metadata(new V1ObjectMeta().name(node).labels(labels).annotations(annotations)))
                .execute();
        nodes.add(node);
        if (!conditions.isEmpty()) {
            patchNodeConditions(node, conditions);
        }
    }

    /** A node condition as the fixture writes it: type, status and, when not null, reason. */
    static V1NodeCondition condition(String type, String status, String reason) {
        return new V1NodeCondition().type(type).status(status).reason(reason);
    }

    /** Sets the node's status conditions (through the status subresource, as a kubelet does). */
    void patchNodeConditions(String node, List<V1NodeCondition> conditions) throws ApiException {
        List<Map<String, String>> written = new ArrayList<>();
        for (V1NodeCondition condition : conditions) {
            var fields = new LinkedHashMap<String, String>();
            fields.put("type", condition.getType());
            fields.put("status", condition.getStatus());
            if (condition.getReason() != null) {
                fields.put("reason", condition.getReason());
            }
            written.add(fields);
        }
        var core = new CoreV1Api(client);
        PatchUtils.patch(V1Node.class, () -> core.patchNodeStatus(node,
                        new V1Patch(new Gson().toJson(Map.of("status", Map.of("conditions", written))))).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    }

    /** A Machine in the shoot namespace for {@code node} (label {@code node}), in the given phase. */
    void createMachine(String node, String phase) throws ApiException {
        var custom = new CustomObjectsApi(client);
        String machine = "machine-" + node + "-" + machines.incrementAndGet();
        custom.createNamespacedCustomObject("machine.sapcloud.io", "v1alpha1", namespace, "machines", Map.of(
                "apiVersion", "machine.sapcloud.io/v1alpha1", "kind", "Machine",
                "metadata", Map.of("name", machine, "labels", Map.of("node", node)),
                "spec", Map.of())).execute();
        PatchUtils.patch(Object.class, () -> custom.patchNamespacedCustomObjectStatus("machine.sapcloud.io", "v1alpha1",
                        namespace, "machines", machine,
                        new V1Patch("{\"status\":{\"currentStatus\":{\"phase\":\"" + phase + "\"}}}")).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    }

    /** The node lease of {@code node} in {@code kube-node-lease}; without renew time when {@code renewTime} is null. */
    void createLease(String node, OffsetDateTime renewTime) throws ApiException {
        var coordination = new CoordinationV1Api(client);
        coordination.createNamespacedLease("kube-node-lease", new V1Lease().metadata(new V1ObjectMeta().name(node))
                .spec(new V1LeaseSpec().holderIdentity(node).leaseDurationSeconds(40))).execute();
        leases.add(node);
        if (renewTime != null) {
            renew(node, renewTime);
        }
    }

    /** Sets the lease's renew time, as a kubelet does. */
    void renew(String node, OffsetDateTime renewTime) throws ApiException {
        PatchUtils.patch(V1Lease.class, () -> new CoordinationV1Api(client).patchNamespacedLease(node,
                        "kube-node-lease", new V1Patch("{\"spec\":{\"renewTime\":\"" + MICRO_TIME.format(renewTime) + "\"}}"))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    }

    /** A node of {@code pool-a} with a Running Machine and a lease last renewed at {@code renewTime}, never renewed again. */
    void createNodeRenewedAt(String node, OffsetDateTime renewTime) throws ApiException {
        createNode(node, Map.of("worker.gardener.cloud/pool", "pool-a"), Map.of(), List.of());
        createMachine(node, "Running");
        createLease(node, renewTime);
    }

    /** Renews every lease still renewing, every second, like kubelets (every 10 s in a real cluster). */
    public void startKubelets() {
        kubelets.scheduleAtFixedRate(() -> {
            for (String node : renewing) {
                try {
                    renew(node, now());
                } catch (ApiException | RuntimeException e) {
                    renewalFailures.incrementAndGet();
                }
            }
        }, 0, 1, TimeUnit.SECONDS);
    }

    public void stopRenewing(List<String> nodes) {
        renewing.removeAll(nodes);
    }

    public void resumeRenewing(List<String> nodes) {
        renewing.addAll(nodes);
    }

    /** Lease renewals the API server refused; a test that relies on renewals asserts there were none. */
    public int renewalFailures() {
        return renewalFailures.get();
    }

    static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }

    /** Stops the kubelets and removes what this fixture created outside the namespace: Cluster, nodes, leases. */
    @Override
    public void close() {
        kubelets.shutdownNow();
        var core = new CoreV1Api(client);
        var coordination = new CoordinationV1Api(client);
        if (clusterCreated) {
            removeIfPresent(this::deleteCluster);
        }
        for (String node : nodes) {
            removeIfPresent(() -> core.deleteNode(node).execute());
        }
        for (String lease : leases) {
            removeIfPresent(() -> coordination.deleteNamespacedLease(lease, "kube-node-lease").execute());
        }
    }

    interface Removal {
        void run() throws ApiException;
    }

    /** Removes one object; one a test already removed itself (404) is fine. */
    private void removeIfPresent(Removal removal) {
        try {
            removal.run();
        } catch (ApiException e) {
            if (e.getCode() != 404) {
                throw new IllegalStateException("cleaning up after " + namespace + ": " + e.getCode() + " " + e.getResponseBody(), e);
            }
        }
    }
}
