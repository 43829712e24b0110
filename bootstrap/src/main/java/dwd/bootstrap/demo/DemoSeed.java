package dwd.bootstrap.demo;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Scheduler;
import dwd.bootstrap.run.Readiness;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.apis.DiscoveryV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1Endpoint;
import io.kubernetes.client.openapi.models.V1EndpointConditions;
import io.kubernetes.client.openapi.models.V1EndpointSlice;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.util.PatchUtils;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The demo's seed: shoots with their Cluster objects, kube-controller-manager,
 * machine-controller-manager and cluster-autoscaler Deployments, a kubeconfig secret, nodes
 * with Machines and leases that this class renews as kubelets would, and the etcd-main-client and
 * kube-apiserver services with kube-apiserver pods. The control plane has no scheduler,
 * controller-manager or kubelet: no pod runs, and whatever a kubelet or the endpoints controller
 * would write (lease renewals, container statuses, endpoint readiness) this class writes.
 */
final class DemoSeed implements AutoCloseable {

    static final String SECRET = "shoot-access-dependency-watchdog-probe";
    static final String KCM = "kube-controller-manager";
    static final String MCM = "machine-controller-manager";
    static final String CA = "cluster-autoscaler";
    static final Map<String, Integer> REPLICAS = Map.of(KCM, 3, MCM, 2, CA, 1);
    static final List<String> DEPENDENTS = List.of(KCM, MCM, CA);
    static final int NODES_PER_SHOOT = 5;

    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX");

    private final ApiClient client;
    private final Scheduler scheduler;
    private final Set<String> renewing = ConcurrentHashMap.newKeySet();
    private final Map<String, java.time.Instant> lastRenewal = new ConcurrentHashMap<>();
    private volatile Cancellable kubelets = () -> { };
    private volatile boolean closed;

    DemoSeed(ApiClient client, Scheduler scheduler) {
        this.client = client;
        this.scheduler = scheduler;
    }

    static InputStream resource(String path) {
        InputStream in = DemoSeed.class.getResourceAsStream("/dwd/bootstrap/deploy/" + path);
        return Objects.requireNonNull(in, () -> "missing bundled resource deploy/" + path);
    }

    static String resourceText(String path) {
        try (InputStream in = resource(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Installs the Cluster and Machine CRDs and waits until they are served. */
    void installCrds() {
        var api = new CustomObjectsApi(client); // a CRD is a cluster-scoped object like any other to this API
        for (String file : List.of("clusters.extensions.gardener.cloud.yaml", "machines.machine.sapcloud.io.yaml")) {
            Map<?, ?> crd;
            try (InputStream in = resource("crds/" + file)) {
                crd = new YAMLMapper().readValue(in, Map.class);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            try {
                api.createClusterCustomObject("apiextensions.k8s.io", "v1", "customresourcedefinitions", crd).execute();
            } catch (ApiException e) {
                throw new IllegalStateException("cannot install CRD " + file + ": " + e.getCode() + " " + e.getResponseBody(), e);
            }
        }
        Readiness.await(scheduler, "the Cluster and Machine CRDs", Duration.ofSeconds(60), () -> {
            try {
                new CustomObjectsApi(client).listClusterCustomObject("extensions.gardener.cloud", "v1alpha1", "clusters").execute();
                new CustomObjectsApi(client).listClusterCustomObject("machine.sapcloud.io", "v1alpha1", "machines").execute();
                return true;
            } catch (ApiException notYet) {
                return false;
            }
        });
    }

    /** A namespace, e.g. {@code garden}, where the roles keep their leader-election Leases. */
    void createNamespace(String namespace) throws ApiException {
        new CoreV1Api(client).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
    }

    /** A shoot: namespace, Cluster, secret, dependents, nodes with Machines and fresh leases. */
    List<String> createShoot(String namespace, String kubeconfig, String gracePeriod) throws ApiException {
        var core = new CoreV1Api(client);
        core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
        core.createNamespacedSecret(namespace, new V1Secret().metadata(new V1ObjectMeta().name(SECRET))
                .data(Map.of("kubeconfig", kubeconfig.getBytes(StandardCharsets.UTF_8)))).execute();
        for (String dependent : DEPENDENTS) {
            createDeployment(namespace, dependent, REPLICAS.get(dependent));
        }
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < NODES_PER_SHOOT; i++) {
            String node = namespace.replace("shoot--", "") + "-node-" + i;
            createNode(namespace, node);
            nodes.add(node);
        }
        createCluster(namespace, gracePeriod);
        return nodes;
    }

    private void createDeployment(String namespace, String name, int replicas) throws ApiException {
        var labels = Map.of("app", name, "gardener.cloud/role", "controlplane");
        new AppsV1Api(client).createNamespacedDeployment(namespace, new V1Deployment()
                .metadata(new V1ObjectMeta().name(name))
                .spec(new V1DeploymentSpec().replicas(replicas)
                        .selector(new V1LabelSelector().matchLabels(labels))
                        .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
                                .spec(new V1PodSpec().containers(List.of(
                                        new V1Container().name(name).image("registry.invalid/" + name)))))))
                .execute();
    }

    private void createNode(String namespace, String node) throws ApiException {
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
                .spec(new V1LeaseSpec().holderIdentity(node).leaseDurationSeconds(40)
                        .renewTime(OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS))))
                .execute();
        renewing.add(node);
    }

    private void createCluster(String namespace, String gracePeriod) throws ApiException {
        Map<String, Object> shoot = Map.of(
                "apiVersion", "core.gardener.cloud/v1beta1", "kind", "Shoot",
                "metadata", Map.of("name", namespace.substring(namespace.lastIndexOf('-') + 1), "namespace", "garden-demo"),
                "spec", Map.of(
                        "hibernation", Map.of("enabled", false),
                        "provider", Map.of("workers", List.of(Map.of("name", "pool-a", "machineControllerManager", Map.of()))),
                        "kubernetes", Map.of("kubeControllerManager", Map.of("nodeMonitorGracePeriod", gracePeriod))),
                "status", Map.of("hibernated", false, "lastOperation", Map.of("type", "Reconcile", "state", "Succeeded")));
        new CustomObjectsApi(client).createClusterCustomObject("extensions.gardener.cloud", "v1alpha1", "clusters",
                Map.of("apiVersion", "extensions.gardener.cloud/v1alpha1", "kind", "Cluster",
                        "metadata", Map.of("name", namespace),
                        "spec", Map.of("shoot", shoot, "seed", Map.of(), "cloudProfile", Map.of()))).execute();
    }

    /** Renews every lease still renewing every {@code period}, as kubelets do (there are none). */
    void startKubelets(Duration period) {
        renewLeases(period);
    }

    private void renewLeases(Duration period) {
        if (closed) {
            return;
        }
        String renewTime = MICRO_TIME.format(OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS));
        for (String node : renewing) {
            try {
                PatchUtils.patch(V1Lease.class, () -> new CoordinationV1Api(client).patchNamespacedLease(node,
                                "kube-node-lease", new V1Patch("{\"spec\":{\"renewTime\":\"" + renewTime + "\"}}"))
                        .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
                lastRenewal.put(node, java.time.Instant.now());
            } catch (ApiException | RuntimeException missed) {
                // A kubelet that misses a renewal tries again next period, as here.
            }
        }
        kubelets = scheduler.schedule(period, () -> renewLeases(period));
    }

    /** When the node's lease was last renewed. */
    java.time.Instant lastRenewal(String node) {
        return lastRenewal.getOrDefault(node, java.time.Instant.EPOCH);
    }

    void cut(List<String> nodes) {
        renewing.removeAll(nodes);
    }

    void heal(List<String> nodes) {
        renewing.addAll(nodes);
    }

    /** The etcd-main-client and kube-apiserver services with one ready endpoint each, and two kube-apiserver pods. */
    void createControlPlaneServices(String namespace) throws ApiException {
        for (String service : List.of("etcd-main-client", "kube-apiserver")) {
            new CoreV1Api(client).createNamespacedService(namespace, new V1Service().metadata(new V1ObjectMeta().name(service))
                    .spec(new V1ServiceSpec().ports(List.of(new V1ServicePort().port(443))))).execute();
            new DiscoveryV1Api(client).createNamespacedEndpointSlice(namespace, new V1EndpointSlice()
                    .metadata(new V1ObjectMeta().name(service + "-slice")
                            .labels(Map.of("kubernetes.io/service-name", service)))
                    .addressType("IPv4")
                    .endpoints(List.of(new V1Endpoint().addresses(List.of("10.0.0.10"))
                            .conditions(new V1EndpointConditions().ready(true))))).execute();
        }
        for (int i = 0; i < 2; i++) {
            new CoreV1Api(client).createNamespacedPod(namespace, new V1Pod()
                    .metadata(new V1ObjectMeta().name("kube-apiserver-" + i)
                            .labels(Map.of("gardener.cloud/role", "controlplane", "role", "apiserver")))
                    // The typed model sends an empty "overhead", which the server rejects without a RuntimeClass.
                    .spec(new V1PodSpec().overhead(null).containers(List.of(
                            new V1Container().name("kube-apiserver").image("registry.invalid/kube-apiserver")))))
                    .execute();
        }
    }

    /** Marks the service's endpoint ready or not, as the endpoints controller would. */
    void setServiceReady(String namespace, String service, boolean ready) {
        try {
            PatchUtils.patch(V1EndpointSlice.class, () -> new DiscoveryV1Api(client).patchNamespacedEndpointSlice(
                            service + "-slice", namespace,
                            new V1Patch("{\"endpoints\":[{\"addresses\":[\"10.0.0.10\"],\"conditions\":{\"ready\":" + ready + "}}]}"))
                    .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
        } catch (ApiException e) {
            throw new IllegalStateException("cannot update the endpoints of " + service + ": " + e.getResponseBody(), e);
        }
    }

    /**
     * Writes a CrashLoopBackOff status for the pod's container, as a kubelet would report it. There is
     * no kubelet and no container: the status is all there is.
     */
    void crashLoop(String namespace, String pod) {
        String status = "{\"status\":{\"phase\":\"Running\",\"containerStatuses\":[{\"name\":\"kube-apiserver\","
                + "\"image\":\"registry.invalid/kube-apiserver\",\"imageID\":\"\",\"ready\":false,\"restartCount\":4,"
                + "\"state\":{\"waiting\":{\"reason\":\"CrashLoopBackOff\",\"message\":\"back-off 40s restarting\"}}}]}}";
        try {
            PatchUtils.patch(V1Pod.class, () -> new CoreV1Api(client).patchNamespacedPodStatus(pod, namespace,
                    new V1Patch(status)).buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
        } catch (ApiException e) {
            throw new IllegalStateException("cannot set the status of pod " + pod + ": " + e.getResponseBody(), e);
        }
    }

    List<String> podNames(String namespace) throws ApiException {
        return new CoreV1Api(client).listNamespacedPod(namespace).execute().getItems().stream()
                .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
                .map(pod -> pod.getMetadata().getName()).sorted().toList();
    }

    /**
     * {@code deployment/NAME -> resourceVersion} and {@code pod/NAME -> UID} (plus {@code deleting} once marked for
     * deletion): whatever dwd writes to a dependent or deletes changes one of them; the demo's own status
     * updates of pods do not.
     */
    Map<String, String> fingerprints(String namespace) throws ApiException {
        var fingerprints = new TreeMap<String, String>();
        for (var deployment : new AppsV1Api(client).listNamespacedDeployment(namespace).execute().getItems()) {
            fingerprints.put("deployment/" + deployment.getMetadata().getName(), deployment.getMetadata().getResourceVersion());
        }
        for (var pod : new CoreV1Api(client).listNamespacedPod(namespace).execute().getItems()) {
            fingerprints.put("pod/" + pod.getMetadata().getName(), pod.getMetadata().getUid()
                    + (pod.getMetadata().getDeletionTimestamp() == null ? "" : " deleting"));
        }
        return fingerprints;
    }

    int replicas(String namespace, String deployment) throws ApiException {
        return Objects.requireNonNullElse(new AppsV1Api(client).readNamespacedDeployment(deployment, namespace)
                .execute().getSpec().getReplicas(), 0);
    }

    Map<String, String> annotations(String namespace, String deployment) throws ApiException {
        return Objects.requireNonNullElse(new AppsV1Api(client).readNamespacedDeployment(deployment, namespace)
                .execute().getMetadata().getAnnotations(), Map.of());
    }

    @Override
    public void close() {
        closed = true;
        kubelets.cancel();
    }
}
