package dwd.adapters.k8s.prober;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.ConcurrencyBound;
import dwd.adapters.k8s.JsonCalls;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.NoDelaySockets;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.watch.WatchReports;
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
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The dependents of a shoot in the seed, through their {@code scale} subresource: Deployments and
 * StatefulSets, and any other namespaced kind with a scale subresource. Every HTTP call is bounded
 * by the timeout it is given.
 */
public final class KubernetesScalableResources implements ScalableResources, AutoCloseable {

    /** The only value of the API's {@code dryRun} parameter: run everything, persist nothing. */
    static final String DRY_RUN_ALL = "All";

    /**
     * Scale reads and writes at the seed at once: enough to keep a kube-apiserver busy (at 30 ms a
     * write, about 1,000 writes a second), far below the hundreds at which each write took seconds
     * (docs/decisions-prober.md, "seed scale requests a few dozen at a time").
     */
    static final int CONCURRENT_REQUESTS = 32;

    /** The most {@link #awaitDependentCaches} waits: a seed lists three dependents' objects in well under a second. */
    public static final Duration FIRST_LIST_WAIT = Duration.ofSeconds(10);

    private final ConcurrencyBound bound = new ConcurrencyBound(CONCURRENT_REQUESTS);
    private final ApiClient client;
    private final ScalableKinds kinds;
    private final DependentsCache cache;
    /** {@link #DRY_RUN_ALL} on every write, or {@code null} to write for real. */
    private final String dryRun;

    /**
     * @param newSeedClient makes a new client for the seed; this adapter owns the one it takes
     * @param reports       where the dependents' watches report an unreachable seed and that they run
     */
    public KubernetesScalableResources(Supplier<ApiClient> newSeedClient, WatchReports reports) {
        this(newSeedClient, reports, null);
    }

    private KubernetesScalableResources(Supplier<ApiClient> newSeedClient, WatchReports reports, String dryRun) {
        // Without Nagle: a PATCH or PUT is a HEADERS and a DATA frame, and with Nagle on, the DATA of every
        // write waited for the seed's delayed ACK (~40 ms) while the connection was busy (docs/decisions.md).
        this.client = bound.applied().apply(NoDelaySockets.applyTo(newSeedClient.get()));
        this.kinds = new ScalableKinds(client);
        this.cache = new DependentsCache(newSeedClient, reports);
        this.dryRun = dryRun;
    }

    /**
     * Shadow mode {@code server}: reads as usual; every annotation patch and scale write is sent with
     * {@code dryRun=All}, so the API server authorizes, admits and validates it and persists nothing.
     */
    public static KubernetesScalableResources serverDryRun(Supplier<ApiClient> newSeedClient, WatchReports reports) {
        return new KubernetesScalableResources(newSeedClient, reports, DRY_RUN_ALL);
    }

    /** The bound on this adapter's requests at the seed at once, and its waits (for metrics). */
    public ConcurrencyBound requestBound() {
        return bound;
    }

    @Override
    public boolean dryRunWrites() {
        return dryRun != null;
    }

    /**
     * One GET of the object for a Deployment or a StatefulSet (its {@code spec.replicas} is what its
     * scale subresource shows); the object, then its scale subresource, for any other kind. The
     * version is the object's: a write made at it lands only if nothing changed after the first GET,
     * so the scale read after it saw the same resource.
     */
    @Override
    public Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout) {
        String action = "reading " + ref + " in namespace " + namespace;
        ScalableKinds.Endpoint endpoint = kinds.resolve(ref, timeout, action);
        Optional<JsonObject> object = absentIfNotFound(() -> ApiFailures.call(action,
                () -> JsonCalls.execute(endpoint.readObject(namespace, ref.name()), timeout)));
        if (object.isEmpty()) {
            return Optional.empty();
        }
        Optional<JsonObject> scale = ScalableKinds.replicasInSpec(ref) ? object
                // Deleted between the two reads: as good as never there.
                : absentIfNotFound(() -> ApiFailures.call(action + " (scale subresource)",
                        () -> JsonCalls.execute(endpoint.readScale(namespace, ref.name()), timeout)));
        return scale.map(found -> new ScalableResource(ref,
                JsonFields.stringMap(object.get(), "metadata", "annotations"),
                DependentFields.replicas(found, "spec", "replicas"), // omitted by the server in a Scale at 0
                DependentFields.replicas(object.get(), "status", "readyReplicas"),
                DependentFields.version(object.get())));
    }

    /**
     * From watches over the seed's Deployments and StatefulSets of the dependents' names ({@link DependentsCache}),
     * when {@link CacheTrust} lets their copies decide; never waits for a watch.
     */
    @Override
    public Optional<ScalableResource> cached(String namespace, ResourceRef ref) {
        return cache.get(namespace, ref);
    }

    /**
     * Starts the watches of the dependents {@code refs} and waits for their first lists, at most
     * {@link #FIRST_LIST_WAIT} in all: before the first probe, so that the healthy shoots' first checks,
     * which all come within seconds, find the cache filled rather than each read the seed.
     *
     * @return whether every watch is trusted then (if not, checks read the seed until it is)
     */
    public boolean awaitDependentCaches(Collection<ResourceRef> refs) throws InterruptedException {
        return cache.awaitFirstLists(refs, FIRST_LIST_WAIT);
    }

    /**
     * The merge patch carries {@code metadata.resourceVersion}: the API server applies it only to the
     * object at that version and answers 409 otherwise. A dry run answers with the version unchanged.
     */
    @Override
    public String patchAnnotationsAt(String namespace, ResourceRef ref, String version,
            Map<String, Optional<String>> changes, Duration timeout) {
        String action = "patching annotations " + changes.keySet() + " of " + ref + " in namespace " + namespace;
        ScalableKinds.Endpoint endpoint = kinds.resolve(ref, timeout, action);
        V1Patch patch = new V1Patch(annotationsMergePatch(changes, requireVersion(version)));
        return wrote(namespace, ref, ApiFailures.call(action, () -> JsonCalls.patch(client,
                () -> endpoint.patchObject(namespace, ref.name(), patch, dryRun),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, timeout)));
    }

    /**
     * The Scale written carries {@code version} as its resourceVersion, which the API server checks
     * against its object's (a Scale has no version of its own): 409 when the object changed since.
     */
    @Override
    public String scaleAt(String namespace, ResourceRef ref, String version, int replicas, Duration timeout) {
        String action = "scaling " + ref + " in namespace " + namespace + " to " + replicas;
        ScalableKinds.Endpoint endpoint = kinds.resolve(ref, timeout, action);
        V1Scale desired = new V1Scale()
                .apiVersion("autoscaling/v1")
                .kind("Scale")
                .metadata(new V1ObjectMeta().name(ref.name()).namespace(namespace).resourceVersion(requireVersion(version)))
                .spec(new V1ScaleSpec().replicas(replicas));
        return wrote(namespace, ref, ApiFailures.call(action,
                () -> JsonCalls.execute(endpoint.replaceScale(namespace, ref.name(), desired, dryRun), timeout)));
    }

    /** Deployments and StatefulSets: their scale subresource is their own {@code spec.replicas}. */
    @Override
    public boolean scalesInOneWrite(ResourceRef ref) {
        return ScalableKinds.replicasInSpec(ref);
    }

    /**
     * One JSON merge patch sets {@code spec.replicas} (what the scale subresource writes) and the
     * annotations, with the resourceVersion as its precondition.
     */
    @Override
    public void scaleAndAnnotateAt(String namespace, ResourceRef ref, String version, int replicas,
            Map<String, Optional<String>> changes, Duration timeout) {
        if (!scalesInOneWrite(ref)) {
            throw new IllegalArgumentException(ref + " does not scale and annotate in one write");
        }
        String action = "scaling " + ref + " in namespace " + namespace + " to " + replicas
                + " and patching annotations " + changes.keySet();
        ScalableKinds.Endpoint endpoint = kinds.resolve(ref, timeout, action);
        V1Patch patch = new V1Patch(mergePatch(changes, requireVersion(version), replicas));
        wrote(namespace, ref, ApiFailures.call(action, () -> JsonCalls.patch(client,
                () -> endpoint.patchObject(namespace, ref.name(), patch, dryRun),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, timeout)));
    }

    /**
     * Tells the cache the version a write was answered at (a Scale answers its object's), so that it is
     * not trusted for the dependent until its watch has seen that write; a dry run changed nothing.
     *
     * @return that version
     */
    private String wrote(String namespace, ResourceRef ref, JsonObject answer) {
        String version = DependentFields.version(answer);
        if (dryRun == null) {
            cache.wrote(namespace, ref, version);
        }
        return version;
    }

    /** An empty version would make the write unconditional: refused, as a bug of the caller. */
    private static String requireVersion(String version) {
        if (version == null || version.isEmpty()) {
            throw new IllegalArgumentException("a write at a version needs the version, got \"" + version + "\"");
        }
        return version;
    }

    /** Stops the cache and frees the client's threads and connections. */
    @Override
    public void close() {
        cache.close();
        OwnedClients.release(client);
    }

    /**
     * {@code {"metadata":{"resourceVersion": version, "annotations":{key: value-or-null}}}}, written by
     * hand: a typed model would serialise its empty lists, and a merge patch with {@code "finalizers":[]}
     * would wipe them.
     */
    static String annotationsMergePatch(Map<String, Optional<String>> changes, String version) {
        return mergePatch(changes, version, null);
    }

    /** {@link #annotationsMergePatch}, which also sets {@code spec.replicas} unless {@code replicas} is null. */
    static String mergePatch(Map<String, Optional<String>> changes, String version, Integer replicas) {
        JsonObject annotations = new JsonObject();
        changes.forEach((key, value) -> annotations.add(key,
                value.<JsonElement>map(JsonPrimitive::new).orElse(JsonNull.INSTANCE)));
        JsonObject metadata = new JsonObject();
        metadata.addProperty("resourceVersion", version); // a precondition: 409 unless the object is at it
        metadata.add("annotations", annotations);
        JsonObject patch = new JsonObject();
        patch.add("metadata", metadata);
        if (replicas != null) {
            JsonObject spec = new JsonObject();
            spec.addProperty("replicas", replicas);
            patch.add("spec", spec);
        }
        return patch.toString(); // JsonElement.toString keeps nulls, which remove keys in a merge patch
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
