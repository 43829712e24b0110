package dwd.adapters.k8s.weeder;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Creates the objects the weeder reacts to on the local control plane: EndpointSlices (no endpoints
 * controller runs, so they are written directly) and pods whose container states are set through the
 * status subresource (no kubelet runs, so they stay Pending otherwise). Slices it created are deleted
 * on {@link #close()}, so that the all-namespaces informers of later tests do not see them.
 */
final class ControlPlaneObjects implements AutoCloseable {

    static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";
    static final String IMAGE = "registry.invalid/dwd-test:1";

    /** Labels of Gardener's kube-apiserver pods (selected for etcd-main-client). */
    static final Map<String, String> KUBE_APISERVER_LABELS =
            Map.of("app", "kubernetes", "gardener.cloud/role", "controlplane", "role", "apiserver");
    /** Labels of Gardener's etcd-main pods (selected for neither service). */
    static final Map<String, String> ETCD_MAIN_LABELS =
            Map.of("app", "etcd-statefulset", "gardener.cloud/role", "controlplane", "role", "main");

    private final ApiClient client;
    private final CoreV1Api core;
    private final DiscoveryV1Api discovery;
    private final List<String[]> slices = new ArrayList<>();

    ControlPlaneObjects(ApiClient client) {
        this.client = client;
        this.core = new CoreV1Api(client);
        this.discovery = new DiscoveryV1Api(client);
    }

    /** Creates a slice of {@code service} with one endpoint per readiness: true, false or null (unset). */
    synchronized void createSlice(String namespace, String name, String service, Boolean... readiness) {
        call(() -> discovery.createNamespacedEndpointSlice(namespace, new V1EndpointSlice()
                .metadata(new V1ObjectMeta().name(name).labels(Map.of(SERVICE_NAME_LABEL, service)))
                .addressType("IPv4")
                .endpoints(endpoints(readiness))).execute());
        slices.add(new String[] {namespace, name});
    }

    /** Replaces the slice's endpoints. */
    void setSliceReadiness(String namespace, String name, Boolean... readiness) {
        call(() -> {
            V1EndpointSlice slice = discovery.readNamespacedEndpointSlice(name, namespace).execute();
            return discovery.replaceNamespacedEndpointSlice(name, namespace, slice.endpoints(endpoints(readiness)))
                    .execute();
        });
    }

    /** Points the slice at another service, as relabelling would. */
    void relabelSlice(String namespace, String name, String service) {
        call(() -> {
            V1EndpointSlice slice = discovery.readNamespacedEndpointSlice(name, namespace).execute();
            slice.getMetadata().putLabelsItem(SERVICE_NAME_LABEL, service);
            return discovery.replaceNamespacedEndpointSlice(name, namespace, slice).execute();
        });
    }

    void deleteSlice(String namespace, String name) {
        call(() -> discovery.deleteNamespacedEndpointSlice(name, namespace).execute());
        synchronized (this) {
            slices.removeIf(slice -> slice[0].equals(namespace) && slice[1].equals(name));
        }
    }

    private static List<V1Endpoint> endpoints(Boolean... readiness) {
        List<V1Endpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < readiness.length; i++) {
            endpoints.add(new V1Endpoint()
                    .addresses(List.of("10.0.0." + (i + 1)))
                    .conditions(new V1EndpointConditions().ready(readiness[i])));
        }
        return endpoints;
    }

    /** Creates a pod with one container {@code main} and, if asked, an init container {@code init}; returns its UID. */
    String createPod(String namespace, String name, Map<String, String> labels, boolean withInitContainer) {
        var spec = new V1PodSpec().containers(List.of(new V1Container().name("main").image(IMAGE)));
        // The model starts with an empty overhead map, which admission rejects without a RuntimeClass.
        spec.setOverhead(null);
        if (withInitContainer) {
            spec.initContainers(List.of(new V1Container().name("init").image(IMAGE)));
        }
        return call(() -> core.createNamespacedPod(namespace, new V1Pod()
                .metadata(new V1ObjectMeta().name(name).labels(labels))
                .spec(spec)).execute()).getMetadata().getUid();
    }

    String createPod(String namespace, String name, Map<String, String> labels) {
        return createPod(namespace, name, labels, false);
    }

    /** Sets container {@code main} to wait in CrashLoopBackOff, as the kubelet reports it. */
    void crashLoop(String namespace, String name) {
        patchStatus(namespace, name, "{\"status\":{\"phase\":\"Running\",\"containerStatuses\":["
                + waiting("main", "CrashLoopBackOff") + "]}}");
    }

    /** Sets init container {@code init} to wait in CrashLoopBackOff and {@code main} to wait for it. */
    void crashLoopInit(String namespace, String name) {
        patchStatus(namespace, name, "{\"status\":{\"phase\":\"Pending\",\"initContainerStatuses\":["
                + waiting("init", "CrashLoopBackOff") + "],\"containerStatuses\":["
                + waiting("main", "PodInitializing") + "]}}");
    }

    /** Sets container {@code main} to running. */
    void run(String namespace, String name) {
        patchStatus(namespace, name, "{\"status\":{\"phase\":\"Running\",\"containerStatuses\":[{\"name\":\"main\","
                + "\"image\":\"" + IMAGE + "\",\"imageID\":\"\",\"ready\":true,\"restartCount\":0,\"started\":true,"
                + "\"state\":{\"running\":{\"startedAt\":\"2026-01-01T00:00:00Z\"}}}]}}");
    }

    private static String waiting(String container, String reason) {
        return "{\"name\":\"" + container + "\",\"image\":\"" + IMAGE + "\",\"imageID\":\"\",\"ready\":false,"
                + "\"restartCount\":4,\"started\":false,\"state\":{\"waiting\":{\"reason\":\"" + reason
                + "\",\"message\":\"back-off 1m20s restarting failed container\"}}}";
    }

    private void patchStatus(String namespace, String name, String mergePatch) {
        // PatchUtils sets the merge-patch media type; a generated patch method's execute() gets 415.
        call(() -> PatchUtils.patch(V1Pod.class,
                () -> core.patchNamespacedPodStatus(name, namespace, new V1Patch(mergePatch)).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client));
    }

    /** The UID of the pod, or empty when there is no such pod. */
    Optional<String> podUid(String namespace, String name) {
        try {
            return Optional.of(core.readNamespacedPod(name, namespace).execute().getMetadata().getUid());
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return Optional.empty();
            }
            throw new IllegalStateException("reading pod " + namespace + "/" + name + ": " + e.getResponseBody(), e);
        }
    }

    void deletePod(String namespace, String name) {
        call(() -> core.deleteNamespacedPod(name, namespace).gracePeriodSeconds(0).execute());
    }

    /** Deletes the slices created here. */
    @Override
    public void close() {
        List<String[]> created;
        synchronized (this) {
            created = List.copyOf(slices);
        }
        for (String[] slice : created) {
            try {
                deleteSlice(slice[0], slice[1]);
            } catch (IllegalStateException alreadyGone) {
                // deleted by the test itself
            }
        }
    }

    @FunctionalInterface
    private interface ApiCall<T> {
        T call() throws ApiException;
    }

    private static <T> T call(ApiCall<T> call) {
        try {
            return call.call();
        } catch (ApiException e) {
            throw new IllegalStateException("HTTP " + e.getCode() + ": " + e.getResponseBody(), e);
        }
    }
}
