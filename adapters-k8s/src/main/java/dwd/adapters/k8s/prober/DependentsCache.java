package dwd.adapters.k8s.prober;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.watch.ListWatch;
import dwd.adapters.k8s.watch.WatchOptions;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.application.port.out.ScalableResource;
import dwd.domain.config.GoDuration;
import dwd.domain.config.ResourceRef;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The shoots' dependents in the seed as watches see them, for the check a healthy shoot makes
 * after every probe ("is any dependent down?"), which would otherwise read each dependent from the
 * API server: at thousands of shoots, most of the seed requests the prober sends.
 *
 * <p>One {@link ListWatch} per dependent (kind and name, in practice three), over all namespaces and
 * restricted by the field selector {@code metadata.name=<name>}, started when the dependent is first
 * asked for. It keeps dwd's annotations, the replica counts and the resourceVersion (a scale-down
 * may be decided on the cached copy and written at its version). Only Deployments and StatefulSets are
 * cached (their {@code spec.replicas} is what their scale subresource shows); for any other kind, and
 * while a watch has not listed (a read waits for its first list, at most {@link #FIRST_LIST_WAIT}), there is no
 * cached view. Nor is there while the watch has not proven itself alive ({@link ListWatch#hasSynced()}).
 *
 * <p>dwd's own writes: after a write answered at version W, the cached copy of that dependent is not
 * used until its watch has seen W (an event or a bookmark at W or later). A watch on a connection that
 * went silent without closing never sees the scale-down dwd wrote on another connection, and the
 * next scale-up would find, in the cache, nothing to do; it reads the API server instead.
 */
final class DependentsCache implements AutoCloseable {

    private static final Logger LOG = LogManager.getLogger();

    /** dwd's annotations share this prefix; the cache keeps no other annotation. */
    static final String ANNOTATION_PREFIX = "dependency-watchdog.gardener.cloud/";

    /**
     * How long a read waits for the first list of its dependent's watch: when a prober starts, every
     * healthy shoot's first scale-up check comes within seconds, and reading the API server instead
     * (two requests per dependent) would put thousands of requests on the seed at once.
     */
    static final Duration FIRST_LIST_WAIT = Duration.ofSeconds(10);

    /** A write the watch has not shown for this long is logged at INFO: a live watch shows it within moments. */
    static final Duration UNSEEN_WRITE_NOTICE = Duration.ofSeconds(5);
    /** Writes noted at most; beyond, the ones their watch has seen are forgotten (dependents of deleted shoots). */
    private static final int MAX_NOTED_WRITES = 10_000;

    private final Supplier<ApiClient> newSeedClient;
    private final WatchReports reports;
    private final Map<ResourceRef, Dependent> watches = new ConcurrentHashMap<>();
    private final Map<WrittenObject, OwnWrite> ownWrites = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** @param reports where the watches report an unreachable seed and that they run (the process's) */
    DependentsCache(Supplier<ApiClient> newSeedClient, WatchReports reports) {
        this.newSeedClient = newSeedClient;
        this.reports = Objects.requireNonNull(reports, "reports");
    }

    /**
     * The resource as cached, or empty (not cached, not in the seed, the watch's first list failed
     * or took longer than {@link #FIRST_LIST_WAIT}, the watch has not proven itself alive lately, or
     * its copy is not yet at or past dwd's last write of the resource: a copy from before it would show
     * what the write replaced, to a decision and to a readiness check alike).
     */
    Optional<ScalableResource> get(String namespace, ResourceRef ref) {
        if (closed || !cacheable(ref)) {
            return Optional.empty();
        }
        ListWatch<ScalableResource> watch = watches.computeIfAbsent(ref, this::start).watch();
        if (!watch.hasSynced()) {
            try {
                watch.awaitFirstList(FIRST_LIST_WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        if (!watch.hasSynced()) {
            return Optional.empty();
        }
        Optional<ScalableResource> cached = watch.get(namespace, ref.name());
        var written = new WrittenObject(namespace, ref);
        OwnWrite write = ownWrites.get(written);
        if (write == null) {
            return cached;
        }
        // A watch delivers in order: once it has seen the write's version, its copy is at or past the write.
        if (watch.hasSeen(write.version()) || cached.filter(copy -> copy.version().equals(write.version())).isPresent()) {
            ownWrites.remove(written, write);
            return cached;
        }
        Duration unseenFor = Duration.ofNanos(System.nanoTime() - write.atNanos());
        Level level = unseenFor.compareTo(UNSEEN_WRITE_NOTICE) >= 0 && write.noticeOnce() ? Level.INFO : Level.DEBUG;
        LOG.log(level, () -> namespace + ": the watch of " + watch.kinds() + " has not shown dwd's write of " + ref.name()
                + " (version " + write.version() + ", " + GoDuration.format(unseenFor.truncatedTo(ChronoUnit.SECONDS))
                + " ago); reading the API server instead");
        return Optional.empty();
    }

    /**
     * dwd wrote the dependent and the API server answered at {@code version}: its cached copy is used
     * again once the watch has seen that version.
     */
    void wrote(String namespace, ResourceRef ref, String version) {
        if (closed || !cacheable(ref)) {
            return;
        }
        if (ownWrites.size() >= MAX_NOTED_WRITES) {
            ownWrites.entrySet().removeIf(noted -> {
                Dependent dependent = watches.get(noted.getKey().ref());
                return dependent == null || dependent.watch().hasSeen(noted.getValue().version());
            });
        }
        ownWrites.put(new WrittenObject(namespace, ref), new OwnWrite(version, System.nanoTime()));
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
        ownWrites.clear();
    }

    private record WrittenObject(String namespace, ResourceRef ref) { }

    /** A write the API server answered at {@code version}, at {@code atNanos} on the monotonic clock. */
    private record OwnWrite(String version, long atNanos, AtomicBoolean noticed) {
        OwnWrite(String version, long atNanos) {
            this(version, atNanos, new AtomicBoolean());
        }

        /** True the first time only: a write unseen for long is logged once at INFO. */
        boolean noticeOnce() {
            return noticed.compareAndSet(false, true);
        }
    }

    private record Dependent(ApiClient client, ListWatch<ScalableResource> watch) {
        void stop() {
            watch.close();
            OwnedClients.release(client);
        }
    }
}
