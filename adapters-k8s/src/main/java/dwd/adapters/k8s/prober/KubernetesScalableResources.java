package dwd.adapters.k8s.prober;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.JsonCalls;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.watch.OutageLog;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.domain.config.ResourceRef;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Scale;
import io.kubernetes.client.openapi.models.V1ScaleSpec;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The dependents of a shoot in the seed, through their {@code scale} subresource: Deployments and
 * StatefulSets, and any other namespaced kind with a scale subresource. Every HTTP call is bounded
 * by the timeout it is given.
 */
public final class KubernetesScalableResources implements ScalableResources, AutoCloseable {

    /** Scale writes that lose a race with another writer are re-read and retried this often in all. */
    static final int SCALE_ATTEMPTS = 5;

    /** The only value of the API's {@code dryRun} parameter: run everything, persist nothing. */
    static final String DRY_RUN_ALL = "All";

    private final ApiClient client;
    private final ScalableKinds kinds;
    private final DependentsCache cache;
    /** {@link #DRY_RUN_ALL} on every write, or {@code null} to write for real. */
    private final String dryRun;

    /** @param newSeedClient makes a new client for the seed; this adapter owns the one it takes */
    public KubernetesScalableResources(Supplier<ApiClient> newSeedClient) {
        this(newSeedClient, null, null);
    }

    /** @param outages where the dependents' watches report an unreachable seed; null: a log of their own */
    public KubernetesScalableResources(Supplier<ApiClient> newSeedClient, OutageLog outages) {
        this(newSeedClient, outages, null);
    }

    private KubernetesScalableResources(Supplier<ApiClient> newSeedClient, OutageLog outages, String dryRun) {
        this.client = newSeedClient.get();
        this.kinds = new ScalableKinds(client);
        this.cache = new DependentsCache(newSeedClient, outages);
        this.dryRun = dryRun;
    }

    /**
     * Shadow mode {@code server}: reads as usual; every annotation patch and scale write is sent with
     * {@code dryRun=All}, so the API server authorizes, admits and validates it and persists nothing.
     */
    public static KubernetesScalableResources serverDryRun(Supplier<ApiClient> newSeedClient) {
        return serverDryRun(newSeedClient, null);
    }

    /** {@link #serverDryRun(Supplier)}, the dependents' watches reporting an unreachable seed to {@code outages}. */
    public static KubernetesScalableResources serverDryRun(Supplier<ApiClient> newSeedClient, OutageLog outages) {
        return new KubernetesScalableResources(newSeedClient, outages, DRY_RUN_ALL);
    }

    @Override
    public boolean dryRunWrites() {
        return dryRun != null;
    }

    @Override
    public Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout) {
        String action = "reading " + ref + " in namespace " + namespace;
        ScalableKinds.Endpoint endpoint = kinds.resolve(ref, timeout, action);
        Optional<JsonObject> object = absentIfNotFound(() -> ApiFailures.call(action,
                () -> JsonCalls.execute(client, endpoint.readObject(namespace, ref.name()), timeout)));
        if (object.isEmpty()) {
            return Optional.empty();
        }
        // Deleted between the two reads: as good as never there.
        Optional<JsonObject> scale = absentIfNotFound(() -> ApiFailures.call(action + " (scale subresource)",
                () -> JsonCalls.execute(client, endpoint.readScale(namespace, ref.name()), timeout)));
        return scale.map(found -> new ScalableResource(ref,
                JsonFields.stringMap(object.get(), "metadata", "annotations"),
                replicas(found, "spec", "replicas"), // omitted by the server when 0
                replicas(object.get(), "status", "readyReplicas")));
    }

    /** From watches over the seed's Deployments and StatefulSets of the dependents' names ({@link DependentsCache}). */
    @Override
    public Optional<ScalableResource> cached(String namespace, ResourceRef ref) {
        return cache.get(namespace, ref);
    }

    @Override
    public void patchAnnotations(String namespace, ResourceRef ref, Map<String, Optional<String>> changes,
            Duration timeout) {
        if (changes.isEmpty()) {
            return;
        }
        String action = "patching annotations " + changes.keySet() + " of " + ref + " in namespace " + namespace;
        ScalableKinds.Endpoint endpoint = kinds.resolve(ref, timeout, action);
        V1Patch patch = new V1Patch(annotationsMergePatch(changes));
        ApiFailures.call(action, () -> JsonCalls.patch(client,
                () -> endpoint.patchObject(namespace, ref.name(), patch, dryRun),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, timeout));
    }

    @Override
    public void scale(String namespace, ResourceRef ref, int replicas, Duration timeout) {
        String action = "scaling " + ref + " in namespace " + namespace + " to " + replicas;
        ScalableKinds.Endpoint endpoint = kinds.resolve(ref, timeout, action);
        ApiFailure lastConflict = null;
        for (int attempt = 1; attempt <= SCALE_ATTEMPTS; attempt++) {
            JsonObject current = ApiFailures.call(action + " (reading the scale subresource)",
                    () -> JsonCalls.execute(client, endpoint.readScale(namespace, ref.name()), timeout));
            // The write carries the version just read: a change in between is a conflict, not lost.
            V1Scale desired = new V1Scale()
                    .apiVersion("autoscaling/v1")
                    .kind("Scale")
                    .metadata(new V1ObjectMeta()
                            .name(ref.name())
                            .namespace(namespace)
                            .resourceVersion(JsonFields.string(current, "metadata", "resourceVersion").orElse(null)))
                    .spec(new V1ScaleSpec().replicas(replicas));
            try {
                ApiFailures.call(action, () -> JsonCalls.execute(client,
                        endpoint.replaceScale(namespace, ref.name(), desired, dryRun), timeout));
                return;
            } catch (ApiFailure failure) {
                if (!failure.is(ApiFailure.Kind.CONFLICT)) {
                    throw failure;
                }
                lastConflict = failure;
            }
        }
        throw new ApiFailure(ApiFailure.Kind.CONFLICT, action + ": the scale subresource changed during each of "
                + SCALE_ATTEMPTS + " attempts", lastConflict);
    }

    /** Stops the cache and frees the client's threads and connections. */
    @Override
    public void close() {
        cache.close();
        OwnedClients.release(client);
    }

    /**
     * {@code {"metadata":{"annotations":{key: value-or-null}}}}, written by hand: a typed model would
     * serialise its empty lists, and a merge patch with {@code "finalizers":[]} would wipe them.
     */
    static String annotationsMergePatch(Map<String, Optional<String>> changes) {
        JsonObject annotations = new JsonObject();
        changes.forEach((key, value) -> annotations.add(key,
                value.<JsonElement>map(JsonPrimitive::new).orElse(JsonNull.INSTANCE)));
        JsonObject metadata = new JsonObject();
        metadata.add("annotations", annotations);
        JsonObject patch = new JsonObject();
        patch.add("metadata", metadata);
        return patch.toString(); // JsonElement.toString keeps nulls, which remove keys in a merge patch
    }

    static int replicas(JsonObject object, String... path) {
        return JsonFields.integer(object, path)
                .map(count -> (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, count)))
                .orElse(0);
    }

    private static Optional<JsonObject> absentIfNotFound(Supplier<JsonObject> read) {
        try {
            return Optional.of(read.get());
        } catch (ApiFailure failure) {
            if (failure.is(ApiFailure.Kind.NOT_FOUND)) {
                return Optional.empty();
            }
            throw failure;
        }
    }
}
