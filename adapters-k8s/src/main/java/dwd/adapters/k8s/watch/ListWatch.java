package dwd.adapters.k8s.watch;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import okhttp3.Call;

/**
 * Lists a kind of object, then watches it from the list's resourceVersion, and keeps a cache of
 * what it saw: client-go's reflector and informer, reduced to what dwd needs, on one virtual thread.
 * Every watch of the seed is one: Clusters, Machines, shoot-access Secrets, dependents,
 * EndpointSlices and the weeder's pods. This class is what its users see; the parts are its loop
 * ({@link WatchLoop}: list, watch, back-off, relist), the requests ({@link WatchCalls}), the cache
 * ({@link WatchCache}), what the loop logs ({@link WatchFailureLog}) and what readers may know of the
 * cache's liveness ({@link CacheLiveness}).
 *
 * <p>The cache proves it is alive: each watch asks the server to end it within
 * {@link WatchOptions#watchTimeout()} (a minute), which kube-apiserver does whatever else it sends,
 * so a request that hears nothing (no object, event, bookmark or end) for longer than
 * {@link WatchOptions#silenceBound()} is on a dead connection: it is cut, and the objects are listed
 * afresh on a new connection. An unexpected exception in the loop is logged and the loop goes on,
 * with back-off, from a fresh list; whatever ends the loop otherwise marks it dead, which
 * {@link RunningWatches#dead()} reports. The cache counts as {@linkplain #hasSynced() synced} only
 * from a complete list on, and only while it has heard from its server within the bound and its loop
 * runs: readers then ask the server instead.
 *
 * <p>Objects are read as plain JSON and turned into {@code T} by the caller's decoder, which may keep
 * as little as it needs; the client-java models are not involved, so a server newer than the client
 * cannot break a watch. The handler runs on the watch's thread, in event order; it must be quick and
 * must not throw (a throw is logged and the object skipped).
 *
 * @param <T> what the cache keeps of each object
 */
public final class ListWatch<T> implements AutoCloseable {

    /** Builds the list or watch request; client-java's request builders do ({@code …buildCall(null)}). */
    @FunctionalInterface
    public interface Requests {
        /**
         * @param watch           false for the list, true for the watch
         * @param resourceVersion where to list or watch from
         * @param timeoutSeconds  for a watch, when the server should end it (within a minute); null for a list
         */
        Call build(boolean watch, String resourceVersion, Integer timeoutSeconds) throws ApiException;
    }

    /** Told about every object, on the watch's thread, in event order. */
    public interface Handler<T> {
        /** Added, modified, or still there after a fresh list. */
        void changed(T object);

        /** Deleted, or gone when a fresh list came (the last state seen). */
        void deleted(T object);

        /** Tells nobody: for a cache that is only read. */
        static <T> Handler<T> none() {
            return new Handler<>() {
                @Override
                public void changed(T object) {
                }

                @Override
                public void deleted(T object) {
                }
            };
        }
    }

    private final String kinds;
    private final WatchCalls calls;
    private final WatchCache<T> cache;
    private final CacheLiveness liveness;
    private final WatchLoop<T> loop;
    private final RunningWatches runningWatches;
    private final CountDownLatch closed = new CountDownLatch(1);
    private Thread thread;

    /**
     * @param kinds    what is watched, plural, for messages: {@code Clusters}, {@code Secrets named x}; the first
     *                 word is the {@linkplain #resource() resource}
     * @param requests builds the requests, on {@code options}' client, with read timeout 0 (a watch may be quiet
     *                 for its whole minute)
     * @param decode   turns an object's JSON into what the cache keeps
     * @param handler  told about changes and deletions
     * @param reports  where an unreachable server is reported, and that this watch runs
     */
    public ListWatch(String kinds, Requests requests, Function<JsonObject, T> decode, Handler<T> handler,
            WatchReports reports, WatchOptions options) {
        this.kinds = Objects.requireNonNull(kinds, "kinds");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(handler, "handler");
        var heartbeat = new Heartbeat(options.silenceBound(), System::nanoTime);
        this.calls = new WatchCalls(kinds, Objects.requireNonNull(requests, "requests")::build, options,
                this::isClosed, heartbeat);
        this.cache = new WatchCache<>(kinds, Objects.requireNonNull(decode, "decode"), handler::changed,
                handler::deleted, this::isClosed);
        this.liveness = new CacheLiveness(kinds, heartbeat);
        this.loop = new WatchLoop<>(kinds, options, calls, cache, new WatchFailureLog(kinds, reports.outages()),
                liveness, heartbeat, closed);
        this.runningWatches = reports.running();
    }

    /** Starts listing and watching (once; later calls do nothing). */
    public synchronized void start() {
        if (thread == null && !isClosed()) {
            runningWatches.add(liveness);
            thread = Thread.ofVirtual().name("dwd-watch-" + kinds).start(this::run);
        }
    }

    /**
     * Whether the cache can be trusted: it holds a complete list, has heard from its server within
     * the silence bound since, and its loop runs. False before the first list and while the watch
     * proves itself again.
     */
    public boolean hasSynced() {
        return liveness.hasSynced();
    }

    /** What is watched, for messages: {@code Clusters}, {@code Deployments named kube-controller-manager}. */
    public String kinds() {
        return kinds;
    }

    /**
     * The resource watched, in lower case ({@code clusters}, {@code deployments}): the first word of
     * {@link #kinds()}, which labels the cache's age in metrics.
     */
    public String resource() {
        return liveness.resource();
    }

    /** Since the cache last heard from its server (an object, an event, a bookmark, a watch's end); before that, since it was made. */
    public Duration age() {
        return liveness.age();
    }

    /**
     * How old the cache's copy is: since a complete list, an event, a bookmark or the server's end of
     * a watch last made it current (an error answer makes nothing current); empty before the first
     * list. A reader may take a young enough copy while the cache is not {@linkplain #hasSynced() trusted}.
     */
    public Optional<Duration> copyAge() {
        return liveness.copyAge();
    }

    /**
     * Whether the watch has seen its objects up to {@code resourceVersion}: the last version it
     * listed or was told (an event, a bookmark) is that one or later. Versions are compared as
     * Kubernetes documents them, as decimal integers of one resource; one that is not is never seen.
     */
    public boolean hasSeen(String resourceVersion) {
        return liveness.hasSeen(resourceVersion);
    }

    /**
     * Waits until the first list request has ended, at most {@code timeout}: for readers that would
     * rather wait for the cache than ask the server themselves while it fills.
     *
     * @return whether the cache is {@linkplain #hasSynced() synced} then
     */
    public boolean awaitFirstList(Duration timeout) throws InterruptedException {
        return liveness.awaitFirstList(timeout);
    }

    /** Since the last list or watch request started, on the monotonic clock; empty before the first. */
    public Optional<Duration> sinceLastListOrWatch() {
        return calls.sinceLastRequest();
    }

    /** The cached object {@code namespace/name} ({@code ""} as namespace for cluster-scoped objects). */
    public Optional<T> get(String namespace, String name) {
        return cache.get(namespace, name);
    }

    /** The cached objects of {@code namespace}, in no particular order. */
    public List<T> inNamespace(String namespace) {
        return cache.inNamespace(namespace);
    }

    /**
     * Asks the watch to stop and returns at once: the request in flight is cancelled, and nothing is
     * reported afterwards but an event being handled at this moment. The thread ends soon after.
     */
    public void stop() {
        Thread running;
        synchronized (this) {
            closed.countDown();
            liveness.firstListEnded();
            running = thread;
        }
        if (running == null || liveness.isDead()) {
            runningWatches.remove(liveness); // a loop that runs leaves the registry as its thread ends
        }
        calls.cancel();
        if (running != null && running != Thread.currentThread()) {
            running.interrupt(); // a request waiting for the client-side rate limit
        }
    }

    /** Stops, and waits (up to 10 s) until the thread has ended: once this returns, nothing is reported. */
    @Override
    public void close() {
        stop();
        Thread running;
        synchronized (this) {
            running = thread;
        }
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private boolean isClosed() {
        return closed.getCount() == 0;
    }

    /** The thread's body: the loop; a loop that ended for good stays registered (as dead) until it is closed. */
    private void run() {
        try {
            loop.run();
        } finally {
            if (!liveness.isDead() || isClosed()) {
                runningWatches.remove(liveness);
            }
        }
    }
}
