package dwd.bootstrap.weeder;

import static dwd.bootstrap.weeder.WeederLaunchIT.patch;

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
import java.util.List;
import java.util.Map;

/**
 * Gardener's weeder case in a shoot namespace: etcd-main-client's endpoints are not ready and
 * kube-apiserver-0 (labels matched by Gardener's weeder config) is in CrashLoopBackOff; there is no
 * kubelet, so the fixture writes the pod's status itself.
 */
public final class CrashLoopingApiServer {

    static final String POD = "kube-apiserver-0";

    private final ApiClient client;
    private final String namespace;

    private CrashLoopingApiServer(ApiClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    /** Creates the not-ready endpoint slice of etcd-main-client and the crash-looping kube-apiserver pod. */
    public static CrashLoopingApiServer create(ApiClient client, String namespace) throws ApiException {
        var core = new CoreV1Api(client);
        new DiscoveryV1Api(client).createNamespacedEndpointSlice(namespace, new V1EndpointSlice()
                .metadata(new V1ObjectMeta().name("etcd-main-client-x").labels(Map.of("kubernetes.io/service-name", "etcd-main-client")))
                .addressType("IPv4")
                .endpoints(List.of(new V1Endpoint().addresses(List.of("10.0.0.1"))
                        .conditions(new V1EndpointConditions().ready(false))))).execute();
        core.createNamespacedPod(namespace, new V1Pod()
                .metadata(new V1ObjectMeta().name(POD)
                        .labels(Map.of("gardener.cloud/role", "controlplane", "role", "apiserver")))
                .spec(new V1PodSpec().overhead(null).containers(List.of(new V1Container().name("kube-apiserver").image("x")))))
                .execute();
        patch(client, () -> core.patchNamespacedPodStatus(POD, namespace, new V1Patch(
                "{\"status\":{\"containerStatuses\":[{\"name\":\"kube-apiserver\",\"image\":\"x\",\"imageID\":\"\","
                        + "\"ready\":false,\"restartCount\":3,\"state\":{\"waiting\":{\"reason\":\"CrashLoopBackOff\"}}}]}}"))
                .buildCall(null));
        return new CrashLoopingApiServer(client, namespace);
    }

    /** etcd-main-client's endpoint turns ready. */
    public void etcdTurnsReady() throws ApiException {
        patch(client, () -> new DiscoveryV1Api(client).patchNamespacedEndpointSlice("etcd-main-client-x", namespace,
                new V1Patch("{\"endpoints\":[{\"addresses\":[\"10.0.0.1\"],\"conditions\":{\"ready\":true}}]}")).buildCall(null));
    }

    /** How many pods the namespace holds (deleted ones included until they are gone). */
    public int pods() throws ApiException {
        return new CoreV1Api(client).listNamespacedPod(namespace).execute().getItems().size();
    }

    /** Whether every pod in the namespace is deleted or being deleted. */
    public boolean podDeleted() throws ApiException {
        return new CoreV1Api(client).listNamespacedPod(namespace).execute().getItems().stream()
                .allMatch(pod -> pod.getMetadata().getDeletionTimestamp() != null);
    }
}
