package dwd.adapters.k8s.watch;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.watch.WatchCache.Key;
import dwd.adapters.k8s.watch.WatchCalls.Expired;
import dwd.adapters.k8s.watch.WatchCalls.Silent;
import dwd.application.port.out.ApiFailure;
import dwd.domain.time.SaturatingTime;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import okhttp3.Call;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Lists a kind of object, then watches it from the list's resourceVersion, and keeps a cache of
 * what it saw: client-go's reflector and informer, reduced to what dwd needs, on one virtual thread.
 * Every watch of the seed is one: Clusters, Machines, shoot-access Secrets, dependents,
 * EndpointSlices and the weeder's pods.
 * <ul>
 * <li>The first list is served from the API server's watch cache ({@code resourceVersion=0}); every
 *     object is then reported as changed. A watch that ends normally (the server closes it after
 *     its timeout) is resumed from the last resourceVersion seen, without a list; one the server
 *     answers with 410 Gone is followed by a fresh, consistent list ({@code resourceVersion=""}), after
 *     which vanished objects are reported deleted and the others changed.</li>
 * <li>Failures are retried with exponential back-off ({@link Backoff}), or after the server's
 *     {@code Retry-After} when that is longer, up to the longest back-off; a watch that ends at once,
 *     without an event, counts as a failure. They are logged by {@link WatchFailureLog}.</li>
 * <li>The cache proves it is alive: watches ask for bookmarks, which kube-apiserver's watch cache
 *     sends about once a minute when nothing changes, and a request that hears nothing (no object,
 *     event or bookmark) for longer than {@link WatchOptions#silenceBound()} is cut, and the objects
 *     are listed afresh on a new connection ({@link Heartbeat}, {@link WatchCalls}). An unexpected
 *     exception in the loop is logged and the loop goes on, with back-off, from a fresh list; whatever
 *     ends the loop otherwise (an {@link Error}, or a failure while handling a failure) marks it
 *     dead, which {@link RunningWatches#dead()} reports. The cache counts as
 *     {@linkplain #hasSynced() synced} only from a complete list on, and only while it has heard
 *     from its server within the bound and its loop runs: readers then ask the server instead.</li>
 * </ul>
 * Objects are read as plain JSON ({@link WatchCalls}) and turned into {@code T} by the caller's
 * decoder, which may keep as little as it needs ({@link WatchCache}); the client-java models are not
 * involved, so a server newer than the client cannot break a watch. The handler runs on the watch's
 * thread, in event order; it must be quick and must not throw (a throw is logged and the object
 * skipped).
 *
 * @param <T> what the cache keeps of each object
 */
public final class ListWatch<T> implements AutoCloseable {

    private static final Logger LOG = LogManager.getLogger();

    /** Builds the list or watch request; client-java's request builders do ({@code …buildCall(null)}). */
    @FunctionalInterface
    public interface Requests {
        /**
         * @param watch           false for the list, true for the watch
         * @param resourceVersion where to list or watch from
         * @param timeoutSeconds  for a watch, when the server should end it (5 to 10 minutes); null for a list
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
    private final WatchOptions options;
    private final Heartbeat heartbeat;
    private final WatchCalls calls;
    private final WatchCache<T> cache;
    private final WatchFailureLog failures;
    private final RunningWatches runningWatches;
    private final CountDownLatch closed = new CountDownLatch(1);
    /** Counted down when the first list was delivered, or failed, or the watch closed. */
    private final CountDownLatch firstListAttempt = new CountDownLatch(1);
    /** A complete list is in the cache, and nothing since has put it in doubt (silence, an unexpected exception). */
    private volatile boolean proven;
    /** The loop ended without being closed: nothing will fill the cache again. */
    private volatile boolean dead;
    private Thread thread;

    /** The watch thread's own: where the next watch starts. */
    private String resourceVersion;
    /** The last version listed or told, for readers asking whether a write has been seen. */
    private volatile String seenVersion = "";
    /** When a list, event or bookmark last made the cache current (monotonic); null before the first list. */
    private volatile Long currentAtNanos;

    /**
     * @param kinds    what is watched, plural, for messages: {@code Clusters}, {@code Secrets named x}; the first
     *                 word is the {@linkplain #resource() resource}
     * @param requests builds the requests, on {@code options}' client, with read timeout 0 (a watch may be quiet
     *                 for minutes)
     * @param decode   turns an object's JSON into what the cache keeps
     * @param handler  told about changes and deletions
     * @param reports  where an unreachable server is reported, and that this watch runs
     */
    public ListWatch(String kinds, Requests requests, Function<JsonObject, T> decode, Handler<T> handler,
            WatchReports reports, WatchOptions options) {
        this.kinds = Objects.requireNonNull(kinds, "kinds");
        this.options = Objects.requireNonNull(options, "options");
        this.heartbeat = new Heartbeat(options.silenceBound(), System::nanoTime);
        this.calls = new WatchCalls(kinds, Objects.requireNonNull(requests, "requests"), options.client(),
                this::isClosed, heartbeat);
        this.cache = new WatchCache<>(kinds, Objects.requireNonNull(decode, "decode"),
                Objects.requireNonNull(handler, "handler"), this::isClosed);
        this.failures = new WatchFailureLog(kinds, reports.outages());
        this.runningWatches = reports.running();
    }

    /** Starts listing and watching (once; later calls do nothing). */
    public synchronized void start() {
        if (thread == null && !isClosed()) {
            runningWatches.add(this);
            thread = Thread.ofVirtual().name("dwd-watch-" + kinds).start(this::run);
        }
    }

    /**
     * Whether the cache can be trusted: it holds a complete list, has heard from its server within
     * the silence bound since, and its loop runs. False before the first list and while the watch
     * proves itself again.
     */
    public boolean hasSynced() {
        return proven && !dead && !heartbeat.silentBeyondBound();
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
        return kinds.split(" ", 2)[0].toLowerCase(Locale.ROOT);
    }

    /** Since the cache last heard from its server (an object, an event, a bookmark); before that, since it was made. */
    public Duration age() {
        return heartbeat.age();
    }

    /**
     * How old the cache's copy is: since a complete list, an event or a bookmark last made it current
     * (an error answer makes nothing current); empty before the first list. A reader may take a young
     * enough copy while the cache is not {@linkplain #hasSynced() trusted}.
     */
    public Optional<Duration> copyAge() {
        Long current = currentAtNanos;
        return current == null ? Optional.empty() : Optional.of(Duration.ofNanos(Math.max(0, System.nanoTime() - current)));
    }

    /** Whether the loop ended without being closed (an error it cannot go on from): the cache will not fill again. */
    boolean isDead() {
        return dead;
    }

    /**
     * Whether the watch has seen its objects up to {@code resourceVersion}: the last version it
     * listed or was told (an event, a bookmark) is that one or later. Versions are compared as
     * Kubernetes documents them, as decimal integers of one resource; one that is not is never seen.
     */
    public boolean hasSeen(String resourceVersion) {
        return ResourceVersions.atLeast(seenVersion, resourceVersion);
    }

    /**
     * Waits until the first list request has ended, at most {@code timeout}: for readers that would
     * rather wait for the cache than ask the server themselves while it fills.
     *
     * @return whether the cache is {@linkplain #hasSynced() synced} then
     */
    public boolean awaitFirstList(Duration timeout) throws InterruptedException {
        firstListAttempt.await(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
        return hasSynced();
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
            firstListAttempt.countDown();
            running = thread;
        }
        if (running == null || dead) {
            runningWatches.remove(this); // a loop that runs leaves the registry as its thread ends
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

    /**
     * Lists, then watches and watches on; lists again after 410 Gone, after a silence and after an
     * unexpected exception; backs off after failures. Ends when closed; anything else that ends it
     * marks it dead.
     */
    private void run() {
        Throwable ended = null;
        try {
            loop();
        } catch (Throwable fatal) { // an Error, or a failure while handling a failure: nothing goes on from here
            ended = fatal;
        } finally {
            if (!isClosed()) {
                dead = true;
                LOG.error("{}: the watch stopped for good; its cache is no longer trusted and readers ask the server",
                        kinds, ended);
            }
            firstListAttempt.countDown();
            calls.releaseOwnConnections();
            if (!dead || isClosed()) { // a dead loop stays listed until it is closed
                runningWatches.remove(this);
            }
        }
    }

    private void loop() {
        var backoff = new Backoff(options.initialBackoff(), options.maxBackoff());
        String listFrom = "0"; // the first list may come from the watch cache; later ones are consistent
        boolean listed = false;
        while (!isClosed()) {
            try {
                if (listed && heartbeat.silentBeyondBound()) {
                    // Failed for longer than the bound: resuming could miss nothing, but the cache has
                    // not proven itself meanwhile, and a list is what proves it.
                    listed = false;
                    listFrom = "";
                }
                if (!listed) {
                    list(listFrom);
                    listed = true;
                    backoff.reset();
                    failures.working();
                }
                switch (calls.watch(resourceVersion, this::apply)) {
                    case CLOSED -> {
                        return;
                    }
                    case HEALTHY -> {
                        backoff.reset();
                        failures.working();
                    }
                    case AT_ONCE -> throw new ApiFailure(ApiFailure.Kind.INVALID, "watching " + kinds
                            + ": the server ended the watch at once, without an event");
                }
            } catch (Expired expired) {
                LOG.debug("{}: resourceVersion {} is too old (410 Gone), listing again", kinds, resourceVersion);
                listed = false;
                listFrom = "";
            } catch (Silent silent) {
                proven = false;
                listed = false;
                listFrom = "";
                failures.silent(heartbeat.bound());
                calls.moveToNewConnections();
            } catch (ApiFailure failure) {
                firstListAttempt.countDown();
                if (isClosed() || !waitedAfter(failure, backoff)) {
                    return;
                }
            } catch (Exception | Error unexpected) { // OkHttp may throw InterruptedException undeclared when stop() interrupts
                if (unexpected instanceof VirtualMachineError fatal) {
                    throw fatal;
                }
                if (isClosed()) {
                    return;
                }
                proven = false;
                listed = false;
                listFrom = "";
                firstListAttempt.countDown();
                Duration wait = backoff.next(Optional.empty());
                failures.unexpected(unexpected, wait);
                if (!waited(wait)) {
                    return;
                }
            }
        }
    }

    /** Lists from {@code from} into the cache; after a complete list, objects it did not hold are gone. */
    private void list(String from) {
        Set<Key> listed = new HashSet<>();
        resourceVersion = calls.list(from, object -> Key.of(object).ifPresent(key -> {
            listed.add(key);
            cache.changed(key, object);
        }));
        cache.keepOnly(listed);
        seenVersion = resourceVersion;
        currentAtNanos = System.nanoTime();
        proven = true;
        firstListAttempt.countDown();
    }

    /** One event of the watch into the cache; every event, a bookmark too, moves the version to watch on from. */
    private void apply(WatchCalls.Event event) {
        switch (event.type()) {
            case "ADDED", "MODIFIED" -> Key.of(event.object()).ifPresent(key -> cache.changed(key, event.object()));
            case "DELETED" -> Key.of(event.object()).ifPresent(cache::deleted);
            default -> { } // BOOKMARK: only its resourceVersion counts
        }
        event.resourceVersion().ifPresent(version -> {
            resourceVersion = version;
            seenVersion = version;
        });
        currentAtNanos = System.nanoTime();
    }

    /** Reports the failure and waits its back-off; false when the watch was closed meanwhile. */
    private boolean waitedAfter(ApiFailure failure, Backoff backoff) {
        Duration wait = backoff.next(failure.retryAfter());
        failures.failed(failure, wait);
        return waited(wait);
    }

    /** Waits {@code wait}; false when the watch was closed meanwhile. */
    private boolean waited(Duration wait) {
        try {
            return !closed.await(SaturatingTime.nanos(wait), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            return false; // only stop() interrupts this thread
        }
    }
}
