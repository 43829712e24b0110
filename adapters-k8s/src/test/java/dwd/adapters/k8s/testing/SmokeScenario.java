package dwd.adapters.k8s.testing;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Scale;
import io.kubernetes.client.openapi.models.V1ScaleSpec;
import io.kubernetes.client.util.PatchUtils;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * The foundation's proof that client-java can do against a real API server what dwd needs:
 * the scale subresource of a Deployment, Cluster and Machine objects, and node leases.
 */
public final class SmokeScenario {

    private final ApiClient client;

    public SmokeScenario(ApiClient client) {
        this.client = client;
    }

    /** Runs the whole scenario in {@code namespace}, which must exist. */
    public void run(String namespace) throws ApiException {
        scaleSubresourceOfADeployment(namespace);
        clusterAndMachineRoundTrip(namespace);
        nodeLeasesAreListed(namespace);
    }

    private void scaleSubresourceOfADeployment(String namespace) throws ApiException {
        var apps = new AppsV1Api(client);
        var labels = Map.of("app", "kube-controller-manager");
        apps.createNamespacedDeployment(namespace, new V1Deployment()
                .metadata(new V1ObjectMeta().name("kube-controller-manager").labels(labels))
                .spec(new V1DeploymentSpec()
                        .replicas(3)
                        .selector(new V1LabelSelector().matchLabels(labels))
                        .template(new V1PodTemplateSpec()
                                .metadata(new V1ObjectMeta().labels(labels))
                                .spec(new V1PodSpec().containers(List.of(
                                        new V1Container().name("kcm").image("registry.invalid/kcm:v1")))))))
                .execute();

        V1Scale scale = apps.readNamespacedDeploymentScale("kube-controller-manager", namespace).execute();
        assertThat(scale.getSpec().getReplicas()).isEqualTo(3);

        V1Scale updated = apps.replaceNamespacedDeploymentScale("kube-controller-manager", namespace,
                        new V1Scale()
                                .metadata(new V1ObjectMeta()
                                        .name("kube-controller-manager")
                                        .namespace(namespace)
                                        .resourceVersion(scale.getMetadata().getResourceVersion()))
                                .spec(new V1ScaleSpec().replicas(0)))
                .execute();
        // Scale's spec.replicas is omitempty: the server leaves it out at 0, so the client sees null.
        assertThat(updated.getSpec().getReplicas()).isNull();
        assertThat(apps.readNamespacedDeployment("kube-controller-manager", namespace).execute()
                .getSpec().getReplicas()).isZero();
    }

    @SuppressWarnings("unchecked")
    private void clusterAndMachineRoundTrip(String namespace) throws ApiException {
        var custom = new CustomObjectsApi(client);
        Map<String, Object> cluster = Map.of(
                "apiVersion", "extensions.gardener.cloud/v1alpha1",
                "kind", "Cluster",
                "metadata", Map.of("name", namespace),
                "spec", Map.of(
                        "shoot", Map.of("apiVersion", "core.gardener.cloud/v1beta1", "kind", "Shoot",
                                "metadata", Map.of("name", "smoke", "namespace", "garden-dev"),
                                "spec", Map.of("hibernation", Map.of("enabled", false))),
                        "seed", Map.of("kind", "Seed"),
                        "cloudProfile", Map.of("kind", "CloudProfile")));
        custom.createClusterCustomObject("extensions.gardener.cloud", "v1alpha1", "clusters", cluster).execute();
        var readCluster = (Map<String, Object>) custom
                .getClusterCustomObject("extensions.gardener.cloud", "v1alpha1", "clusters", namespace).execute();
        var spec = (Map<String, Object>) readCluster.get("spec");
        var shoot = (Map<String, Object>) spec.get("shoot");
        assertThat(((Map<String, Object>) shoot.get("metadata")).get("name")).isEqualTo("smoke");

        Map<String, Object> machine = Map.of(
                "apiVersion", "machine.sapcloud.io/v1alpha1",
                "kind", "Machine",
                "metadata", Map.of("name", "machine-0", "namespace", namespace, "labels", Map.of("node", "node-0")),
                "spec", Map.of("class", Map.of("kind", "MachineClass", "name", "default")));
        custom.createNamespacedCustomObject("machine.sapcloud.io", "v1alpha1", namespace, "machines", machine)
                .execute();
        // status is a subresource: a merge patch on /status sets the phase (PatchUtils sets the media type).
        PatchUtils.patch(Object.class,
                () -> custom.patchNamespacedCustomObjectStatus("machine.sapcloud.io", "v1alpha1", namespace,
                                "machines", "machine-0",
                                new V1Patch("{\"status\":{\"currentStatus\":{\"phase\":\"Running\"}}}"))
                        .buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
        var readMachine = (Map<String, Object>) custom
                .getNamespacedCustomObject("machine.sapcloud.io", "v1alpha1", namespace, "machines", "machine-0")
                .execute();
        assertThat(((Map<String, Object>) readMachine.get("metadata")).get("labels"))
                .isEqualTo(Map.of("node", "node-0"));
        var status = (Map<String, Object>) readMachine.get("status");
        assertThat(((Map<String, Object>) status.get("currentStatus")).get("phase")).isEqualTo("Running");
    }

    private void nodeLeasesAreListed(String namespace) throws ApiException {
        var core = new CoreV1Api(client);
        boolean leaseNamespaceExists = core.listNamespace().execute().getItems().stream()
                .map(V1Namespace::getMetadata)
                .anyMatch(meta -> "kube-node-lease".equals(meta.getName()));
        assertThat(leaseNamespaceExists).as("kube-node-lease namespace exists").isTrue();

        var coordination = new CoordinationV1Api(client);
        String node = namespace + "-node";
        coordination.createNamespacedLease("kube-node-lease", new V1Lease()
                        .metadata(new V1ObjectMeta().name(node))
                        .spec(new V1LeaseSpec()
                                .holderIdentity(node)
                                .leaseDurationSeconds(40)
                                .renewTime(OffsetDateTime.now(ZoneOffset.UTC))))
                .execute();
        var leases = coordination.listNamespacedLease("kube-node-lease").execute().getItems();
        assertThat(leases).extracting(lease -> lease.getMetadata().getName()).contains(node);
        assertThat(leases).filteredOn(lease -> node.equals(lease.getMetadata().getName()))
                .singleElement()
                .satisfies(lease -> assertThat(lease.getSpec().getRenewTime()).isNotNull());
    }
}
