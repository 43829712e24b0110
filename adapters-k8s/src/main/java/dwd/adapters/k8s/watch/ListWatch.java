package dwd.adapters.k8s.watch;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.watch.WatchCache.Key;
import dwd.adapters.k8s.watch.WatchCalls.Expired;
import dwd.application.port.out.ApiFailure;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
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
 *     answers with 410 Gone is followed by a fresh list, after which vanished objects are reported
 *     deleted and the others changed.</li>
 * <li>Failures are retried with exponential back-off ({@link Backoff}), or after the server's
 *     {@code Retry-After} when that is longer; a watch that ends at once, without an event, counts
 *     as a failure. They are logged by {@link WatchFailureLog}.</li>
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

    /**
     * How a list-watch retries, and who hears that it went on or ended.
     *
     * @param initialBackoff the wait after a first failure; it doubles with each further one
     * @param maxBackoff     the longest wait
     * @param onRestart      run each time the watch goes on after its stream ended or a request failed
     * @param onEnd          run once when the watch's thread ends
     */
    public record Options(Duration initialBackoff, Duration maxBackoff, Runnable onRestart, Runnable onEnd) {

        public Options {
            Objects.requireNonNull(initialBackoff, "initialBackoff");
            Objects.requireNonNull(maxBackoff, "maxBackoff");
            Objects.requireNonNull(onRestart, "onRestart");
            Objects.requireNonNull(onEnd, "onEnd");
        }

        /** 1 s doubling to 30 s, nobody told. */
        public static Options defaults() {
            return new Options(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> { }, () -> { });
        }
    }

    private final String kinds;
    private final Options options;
    private final WatchCalls calls;
    private final WatchCache<T> cache;
    private final WatchFailureLog failures;
    private final CountDownLatch closed = new CountDownLatch(1);
    /** Counted down when the first list was delivered, or failed, or the watch closed. */
    private final CountDownLatch firstListAttempt = new CountDownLatch(1);
    private volatile boolean synced;
    private Thread thread;

    /** The watch thread's own: where the next watch starts. */
    private String resourceVersion;

    /**
     * @param kinds    what is watched, plural, for messages: {@code Clusters}, {@code EndpointSlices}
     * @param requests builds the requests, on a client with read timeout 0 (a watch may be quiet for minutes)
     * @param decode   turns an object's JSON into what the cache keeps
     * @param handler  told about changes and deletions
     * @param outages  where an unreachable server is reported
     */
    public ListWatch(String kinds, Requests requests, Function<JsonObject, T> decode, Handler<T> handler,
            OutageLog outages) {
        this(kinds, requests, decode, handler, outages, Options.defaults());
    }

    public ListWatch(String kinds, Requests requests, Function<JsonObject, T> decode, Handler<T> handler,
            OutageLog outages, Options options) {
        this.kinds = Objects.requireNonNull(kinds, "kinds");
        this.options = Objects.requireNonNull(options, "options");
        this.calls = new WatchCalls(kinds, Objects.requireNonNull(requests, "requests"), this::isClosed);
        this.cache = new WatchCache<>(kinds, Objects.requireNonNull(decode, "decode"),
                Objects.requireNonNull(handler, "handler"), this::isClosed);
        this.failures = new WatchFailureLog(kinds, Objects.requireNonNull(outages, "outages"));
    }

    /** Starts listing and watching (once; later calls do nothing). */
    public synchronized void start() {
        if (thread == null && !isClosed()) {
            thread = Thread.ofVirtual().name("dwd-watch-" + kinds).start(this::run);
        }
    }

    /** Whether the first list has been delivered. */
    public boolean hasSynced() {
        return synced;
    }

    /**
     * Waits until the first list request has ended, at most {@code timeout}: for readers that would
     * rather wait for the cache than ask the server themselves while it fills.
     *
     * @return whether the first list has been delivered
     */
    public boolean awaitFirstList(Duration timeout) throws InterruptedException {
        firstListAttempt.await(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
        return synced;
    }

    /** When the last list or watch request started; empty before the first. */
    public Optional<Instant> lastListOrWatch() {
        return calls.lastRequest();
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

    /** Lists, then watches and watches on; lists again after 410 Gone; backs off after failures. */
    private void run() {
        var backoff = new Backoff(options.initialBackoff(), options.maxBackoff());
        String listFrom = "0"; // the first list may come from the watch cache; after 410 Gone, from etcd
        boolean listed = false;
        try {
            while (!isClosed()) {
                try {
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
                } catch (ApiFailure failure) {
                    firstListAttempt.countDown();
                    if (isClosed() || !waitedAfter(failure, backoff)) {
                        return;
                    }
                }
                options.onRestart().run();
            }
        } catch (Exception unexpected) { // OkHttp may throw InterruptedException undeclared when stop() interrupts
            if (!isClosed()) {
                LOG.error("{}: the watch stopped unexpectedly; the cache stays as it is", kinds, unexpected);
            }
        } finally {
            firstListAttempt.countDown();
            options.onEnd().run();
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
        synced = true;
        firstListAttempt.countDown();
    }

    /** One event of the watch into the cache; every event, a bookmark too, moves the version to watch on from. */
    private void apply(WatchCalls.Event event) {
        switch (event.type()) {
            case "ADDED", "MODIFIED" -> Key.of(event.object()).ifPresent(key -> cache.changed(key, event.object()));
            case "DELETED" -> Key.of(event.object()).ifPresent(cache::deleted);
            default -> { } // BOOKMARK: only its resourceVersion counts
        }
        event.resourceVersion().ifPresent(version -> resourceVersion = version);
    }

    /** Reports the failure and waits its back-off; false when the watch was closed meanwhile. */
    private boolean waitedAfter(ApiFailure failure, Backoff backoff) {
        Duration wait = backoff.next(failure.retryAfter());
        failures.failed(failure, wait);
        try {
            return !closed.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            return false; // only stop() interrupts this thread
        }
    }
}
