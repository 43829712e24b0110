package dwd.adapters.k8s.prober;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.JsonCalls;
import dwd.adapters.k8s.JsonFields;
import dwd.application.port.out.ApiFailure;
import dwd.domain.config.ResourceRef;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Scale;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Call;

/**
 * Finds how to reach a kind and its {@code scale} subresource. Deployments and StatefulSets are
 * known; any other kind is looked up in its API group's resource list (discovery), which is cached
 * per group version and fetched again when a kind is not in it (a CRD may have been installed
 * since).
 */
final class ScalableKinds {

    private final ApiClient client;
    private final Map<String, Map<String, DiscoveredKind>> discovered = new ConcurrentHashMap<>();

    ScalableKinds(ApiClient client) {
        this.client = client;
    }

    /**
     * Whether {@code ref}'s kind keeps in its object's {@code spec.replicas} what its scale subresource
     * shows (Deployments and StatefulSets), so that reading the object alone tells its replicas.
     */
    static boolean replicasInSpec(ResourceRef ref) {
        return ref.apiVersion().equals("apps/v1") && (ref.kind().equals("Deployment") || ref.kind().equals("StatefulSet"));
    }

    /** The calls of one kind, each built by the seed client and executed by the caller. */
    interface Endpoint {
        Call readObject(String namespace, String name) throws ApiException;

        Call readScale(String namespace, String name) throws ApiException;

        /** @param dryRun {@code "All"} for a server-side dry run, {@code null} for a real write */
        Call replaceScale(String namespace, String name, V1Scale scale, String dryRun) throws ApiException;

        /** @param dryRun {@code "All"} for a server-side dry run, {@code null} for a real write */
        Call patchObject(String namespace, String name, V1Patch patch, String dryRun) throws ApiException;
    }

    /**
     * The endpoint of {@code ref}'s kind.
     *
     * @param action what the caller is doing, for messages
     * @throws ApiFailure INVALID when the server has no such namespaced kind with a scale subresource
     */
    Endpoint resolve(ResourceRef ref, Duration timeout, String action) {
        if (ref.apiVersion().equals("apps/v1") && ref.kind().equals("Deployment")) {
            return deployments();
        }
        if (ref.apiVersion().equals("apps/v1") && ref.kind().equals("StatefulSet")) {
            return statefulSets();
        }
        DiscoveredKind kind = discover(ref, timeout, action);
        if (!kind.namespaced()) {
            throw invalid(action, ref.kind() + " in " + ref.apiVersion()
                    + " is cluster-scoped; dwd scales resources in the shoot namespace");
        }
        if (!kind.scalable()) {
            throw invalid(action, ref.kind() + " in " + ref.apiVersion() + " has no scale subresource");
        }
        if (ref.group().isEmpty()) {
            if (kind.plural().equals("replicationcontrollers")) {
                return replicationControllers();
            }
            throw invalid(action, "scaling " + ref.kind() + " of the core API group is not supported");
        }
        return customObjects(ref.group(), ref.version(), kind.plural());
    }

    private DiscoveredKind discover(ResourceRef ref, Duration timeout, String action) {
        DiscoveredKind known = discovered.getOrDefault(ref.apiVersion(), Map.of()).get(ref.kind());
        if (known != null) {
            return known;
        }
        Map<String, DiscoveredKind> kinds = fetchKinds(ref, timeout, action);
        discovered.put(ref.apiVersion(), kinds);
        DiscoveredKind kind = kinds.get(ref.kind());
        if (kind == null) {
            throw invalid(action, "no kind \"" + ref.kind() + "\" in " + ref.apiVersion());
        }
        return kind;
    }

    private Map<String, DiscoveredKind> fetchKinds(ResourceRef ref, Duration timeout, String action) {
        JsonObject resources;
        try {
            resources = ApiFailures.call(action + ": discovering " + ref.apiVersion(), () -> JsonCalls.execute(
                    ref.group().isEmpty()
                            ? new CoreV1Api(client).getAPIResources().buildCall(null)
                            : new CustomObjectsApi(client).getAPIResources(ref.group(), ref.version()).buildCall(null),
                    timeout));
        } catch (ApiFailure failure) {
            if (failure.is(ApiFailure.Kind.NOT_FOUND)) {
                throw invalid(action, "no kind \"" + ref.kind() + "\" in " + ref.apiVersion()
                        + ": the server does not serve " + ref.apiVersion());
            }
            throw failure;
        }
        Map<String, String> pluralByKind = new HashMap<>();
        Map<String, Boolean> namespacedByPlural = new HashMap<>();
        Map<String, Boolean> hasScale = new HashMap<>();
        for (JsonObject resource : JsonFields.objects(resources, "resources")) {
            String name = JsonFields.string(resource, "name").orElse("");
            int slash = name.indexOf('/');
            if (slash < 0) {
                JsonFields.string(resource, "kind").ifPresent(kind -> pluralByKind.putIfAbsent(kind, name));
                namespacedByPlural.put(name, resource.has("namespaced") && resource.get("namespaced").isJsonPrimitive()
                        && resource.get("namespaced").getAsBoolean());
            } else if (name.substring(slash + 1).equals("scale")) {
                hasScale.put(name.substring(0, slash), true);
            }
        }
        Map<String, DiscoveredKind> kinds = new HashMap<>();
        pluralByKind.forEach((kind, plural) -> kinds.put(kind, new DiscoveredKind(plural,
                namespacedByPlural.getOrDefault(plural, false), hasScale.getOrDefault(plural, false))));
        return Map.copyOf(kinds);
    }

    private static ApiFailure invalid(String action, String problem) {
        return new ApiFailure(ApiFailure.Kind.INVALID, action + ": " + problem);
    }

    private Endpoint deployments() {
        AppsV1Api apps = new AppsV1Api(client);
        return new Endpoint() {
            @Override
            public Call readObject(String namespace, String name) throws ApiException {
                return apps.readNamespacedDeployment(name, namespace).buildCall(null);
            }

            @Override
            public Call readScale(String namespace, String name) throws ApiException {
                return apps.readNamespacedDeploymentScale(name, namespace).buildCall(null);
            }

            @Override
            public Call replaceScale(String namespace, String name, V1Scale scale, String dryRun) throws ApiException {
                return apps.replaceNamespacedDeploymentScale(name, namespace, scale).dryRun(dryRun).buildCall(null);
            }

            @Override
            public Call patchObject(String namespace, String name, V1Patch patch, String dryRun) throws ApiException {
                return apps.patchNamespacedDeployment(name, namespace, patch).dryRun(dryRun).buildCall(null);
            }
        };
    }

    private Endpoint statefulSets() {
        AppsV1Api apps = new AppsV1Api(client);
        return new Endpoint() {
            @Override
            public Call readObject(String namespace, String name) throws ApiException {
                return apps.readNamespacedStatefulSet(name, namespace).buildCall(null);
            }

            @Override
            public Call readScale(String namespace, String name) throws ApiException {
                return apps.readNamespacedStatefulSetScale(name, namespace).buildCall(null);
            }

            @Override
            public Call replaceScale(String namespace, String name, V1Scale scale, String dryRun) throws ApiException {
                return apps.replaceNamespacedStatefulSetScale(name, namespace, scale).dryRun(dryRun).buildCall(null);
            }

            @Override
            public Call patchObject(String namespace, String name, V1Patch patch, String dryRun) throws ApiException {
                return apps.patchNamespacedStatefulSet(name, namespace, patch).dryRun(dryRun).buildCall(null);
            }
        };
    }

    private Endpoint replicationControllers() {
        CoreV1Api core = new CoreV1Api(client);
        return new Endpoint() {
            @Override
            public Call readObject(String namespace, String name) throws ApiException {
                return core.readNamespacedReplicationController(name, namespace).buildCall(null);
            }

            @Override
            public Call readScale(String namespace, String name) throws ApiException {
                return core.readNamespacedReplicationControllerScale(name, namespace).buildCall(null);
            }

            @Override
            public Call replaceScale(String namespace, String name, V1Scale scale, String dryRun) throws ApiException {
                return core.replaceNamespacedReplicationControllerScale(name, namespace, scale).dryRun(dryRun).buildCall(null);
            }

            @Override
            public Call patchObject(String namespace, String name, V1Patch patch, String dryRun) throws ApiException {
                return core.patchNamespacedReplicationController(name, namespace, patch).dryRun(dryRun).buildCall(null);
            }
        };
    }

    /** Any kind of a named API group (custom resources, and apps kinds other than the two above). */
    private Endpoint customObjects(String group, String version, String plural) {
        CustomObjectsApi custom = new CustomObjectsApi(client);
        return new Endpoint() {
            @Override
            public Call readObject(String namespace, String name) throws ApiException {
                return custom.getNamespacedCustomObject(group, version, namespace, plural, name).buildCall(null);
            }

            @Override
            public Call readScale(String namespace, String name) throws ApiException {
                return custom.getNamespacedCustomObjectScale(group, version, namespace, plural, name).buildCall(null);
            }

            @Override
            public Call replaceScale(String namespace, String name, V1Scale scale, String dryRun) throws ApiException {
                return custom.replaceNamespacedCustomObjectScale(group, version, namespace, plural, name, scale)
                        .dryRun(dryRun).buildCall(null);
            }

            @Override
            public Call patchObject(String namespace, String name, V1Patch patch, String dryRun) throws ApiException {
                return custom.patchNamespacedCustomObject(group, version, namespace, plural, name, patch)
                        .dryRun(dryRun).buildCall(null);
            }
        };
    }

    /** A kind as its group's resource list describes it. */
    private record DiscoveredKind(String plural, boolean namespaced, boolean scalable) {
    }
}
