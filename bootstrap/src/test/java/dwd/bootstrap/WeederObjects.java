package dwd.bootstrap;

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
import java.util.List;
import java.util.Map;

/** What the weeder looks at, written directly (no kubelet, no endpoint controller runs in the tests). */
public final class WeederObjects {

    /** The labels of kube-apiserver pods: dependants of etcd-main-client in Gardener's weeder config. */
    public static final Map<String, String> APISERVER_LABELS = Map.of("gardener.cloud/role", "controlplane",
            "role", "apiserver");

    private WeederObjects() {
    }

    /** An EndpointSlice of the service etcd-main-client with one endpoint, ready or not. */
    public static void createEtcdSlice(ApiClient client, String namespace, boolean ready) throws ApiException {
        new DiscoveryV1Api(client).createNamespacedEndpointSlice(namespace, new V1EndpointSlice()
                .metadata(new V1ObjectMeta().name("etcd-main-client-x")
                        .labels(Map.of("kubernetes.io/service-name", "etcd-main-client")))
                .addressType("IPv4")
                .endpoints(List.of(new V1Endpoint().addresses(List.of("10.0.0.1"))
                        .conditions(new V1EndpointConditions().ready(ready))))).execute();
    }

    /** The slice of {@link #createEtcdSlice} turns ready. */
    public static void markEtcdSliceReady(ApiClient client, String namespace) throws ApiException {
        PatchUtils.patch(Object.class, () -> new DiscoveryV1Api(client).patchNamespacedEndpointSlice("etcd-main-client-x",
                namespace, new V1Patch("{\"endpoints\":[{\"addresses\":[\"10.0.0.1\"],\"conditions\":{\"ready\":true}}]}"))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    }

    /** A kube-apiserver pod in CrashLoopBackOff (its status written directly). */
    public static void createCrashLoopingPod(ApiClient client, String namespace, String name) throws ApiException {
        var core = new CoreV1Api(client);
        core.createNamespacedPod(namespace, new V1Pod()
                .metadata(new V1ObjectMeta().name(name).labels(APISERVER_LABELS))
                .spec(new V1PodSpec().overhead(null) // client-java sends {}, which the server rejects without a RuntimeClass
                        .containers(List.of(new V1Container().name("kube-apiserver").image("x")))))
                .execute();
        PatchUtils.patch(Object.class, () -> core.patchNamespacedPodStatus(name, namespace, new V1Patch(
                "{\"status\":{\"containerStatuses\":[{\"name\":\"kube-apiserver\",\"image\":\"x\",\"imageID\":\"\","
                        + "\"ready\":false,\"restartCount\":3,\"state\":{\"waiting\":{\"reason\":\"CrashLoopBackOff\"}}}]}}"))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    }
}
