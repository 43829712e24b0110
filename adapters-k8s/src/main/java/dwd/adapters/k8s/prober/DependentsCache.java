package dwd.adapters.k8s.prober;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.watch.ListWatch;
import dwd.adapters.k8s.watch.WatchOptions;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.application.port.out.ScalableResource;
import dwd.domain.config.ResourceRef;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The shoots' dependents in the seed as watches see them, for the check a healthy shoot makes
 * after every probe ("is any dependent down?"), which would otherwise read each dependent from the
 * API server: at thousands of shoots, most of the seed requests the prober sends.
 *
 * <p>One {@link ListWatch} per dependent (kind and name, in practice three), over all namespaces and
 * restricted by the field selector {@code metadata.name=<name>}, started when the prober starts
 * ({@link #awaitFirstLists}) or when the dependent is first asked for. It keeps dwd's annotations, the
 * replica counts and the resourceVersion (a scale-down may be decided on the cached copy and written at
 * its version). Only Deployments and StatefulSets are cached (their {@code spec.replicas} is what their
 * scale subresource shows). Whether a copy is used is {@link CacheTrust}'s rule: while the watch has
 * proven itself alive and has shown dwd's last write of the dependent; a copy never stands in otherwise.
 * Asking never waits.
 */
final class DependentsCache implements AutoCloseable {

    /** dwd's annotations share this prefix; the cache keeps no other annotation. */
    static final String ANNOTATION_PREFIX = "dependency-watchdog.gardener.cloud/";

    private final Supplier<ApiClient> newSeedClient;
    private final WatchReports reports;
    private final Map<ResourceRef, Dependent> watches = new ConcurrentHashMap<>();
    private final CacheTrust<WrittenObject> trust = CacheTrust.forWrittenObjects(
            written -> Optional.ofNullable(watches.get(written.ref())).map(dependent -> CacheTrust.WatchState.of(dependent.watch())));
    private volatile boolean closed;

    /** @param reports where the watches report an unreachable seed and that they run (the process's) */
    DependentsCache(Supplier<ApiClient> newSeedClient, WatchReports reports) {
        this.newSeedClient = newSeedClient;
        this.reports = Objects.requireNonNull(reports, "reports");
    }

    /**
     * The resource as cached, or empty: not cached (another kind), not in the seed, or not to be used now
     * ({@link CacheTrust}: the watch has not listed or proven itself alive lately, or has not shown dwd's
     * last write of the resource). Never waits for the watch.
     */
    Optional<ScalableResource> get(String namespace, ResourceRef ref) {
        if (closed || !cacheable(ref)) {
            return Optional.empty();
        }
        ListWatch<ScalableResource> watch = watches.computeIfAbsent(ref, this::start).watch();
        Optional<ScalableResource> cached = watch.get(namespace, ref.name());
        return switch (trust.use(watch, new WrittenObject(namespace, ref), cached.map(ScalableResource::version))) {
            case CACHE -> cached;
            case RECENT_COPY, SERVER -> Optional.empty();
        };
    }

    /**
     * Starts the watches of {@code refs} (those that are cached) and waits for their first lists, at most
     * {@code atMost} in all: when a prober starts, every healthy shoot's first scale-up check comes within
     * seconds, and reading the API server instead (two requests per dependent) would put thousands of
     * requests on the seed at once.
     *
     * @return whether every such watch is trusted then
     */
    boolean awaitFirstLists(Collection<ResourceRef> refs, Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        boolean synced = true;
        for (ResourceRef ref : refs) {
            if (!closed && cacheable(ref)) {
                ListWatch<ScalableResource> watch = watches.computeIfAbsent(ref, this::start).watch();
                synced &= watch.awaitFirstList(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            }
        }
        return synced;
    }

    /**
     * dwd wrote the dependent and the API server answered at {@code version}: its cached copy is used
     * again once the watch has seen that version.
     */
    void wrote(String namespace, ResourceRef ref, String version) {
        if (!closed && cacheable(ref)) {
            trust.wrote(new WrittenObject(namespace, ref), version);
        }
    }

    static boolean cacheable(ResourceRef ref) {
        return ScalableKinds.replicasInSpec(ref);
    }

    private Dependent start(ResourceRef ref) {
        ApiClient client = OwnedClients.forWatches(newSeedClient);
        AppsV1Api apps = new AppsV1Api(client);
        String selector = "metadata.name=" + ref.name();
        boolean deployment = ref.kind().equals("Deployment");
        var watch = new ListWatch<ScalableResource>((deployment ? "Deployments" : "StatefulSets") + " named " + ref.name(),
                (isWatch, resourceVersion, timeoutSeconds) -> deployment
                        ? apps.listDeploymentForAllNamespaces().fieldSelector(selector).resourceVersion(resourceVersion)
                                .watch(isWatch).allowWatchBookmarks(isWatch ? true : null)
                                .timeoutSeconds(timeoutSeconds).buildCall(null)
                        : apps.listStatefulSetForAllNamespaces().fieldSelector(selector).resourceVersion(resourceVersion)
                                .watch(isWatch).allowWatchBookmarks(isWatch ? true : null)
                                .timeoutSeconds(timeoutSeconds).buildCall(null),
                object -> kept(ref, object), ListWatch.Handler.none(),
                reports, WatchOptions.on(client));
        watch.start();
        return new Dependent(client, watch);
    }

    /** What the cache keeps of a dependent: dwd's annotations, the two replica counts and the resourceVersion. */
    private static ScalableResource kept(ResourceRef ref, JsonObject object) {
        var annotations = new HashMap<String, String>();
        JsonFields.stringMap(object, "metadata", "annotations").forEach((key, value) -> {
            if (key.startsWith(ANNOTATION_PREFIX)) {
                annotations.put(key, value);
            }
        });
        return new ScalableResource(ref, Map.copyOf(annotations),
                DependentFields.replicas(object, "spec", "replicas"),
                DependentFields.replicas(object, "status", "readyReplicas"),
                DependentFields.version(object));
    }

    @Override
    public void close() {
        closed = true;
        watches.values().forEach(Dependent::stop);
        watches.clear();
        trust.forget();
    }

    /** A dependent of one shoot, as dwd writes it. */
    private record WrittenObject(String namespace, ResourceRef ref) implements CacheTrust.Written {
        @Override
        public String name() {
            return ref.name();
        }
    }

    private record Dependent(ApiClient client, ListWatch<ScalableResource> watch) {
        void stop() {
            watch.close();
            OwnedClients.release(client);
        }
    }
}
