package dwd.adapters.k8s.watch;

import dwd.adapters.k8s.watch.WatchCache.Key;
import dwd.adapters.k8s.watch.WatchCalls.Expired;
import dwd.adapters.k8s.watch.WatchCalls.Silent;
import dwd.application.port.out.ApiFailure;
import dwd.domain.time.SaturatingTime;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The loop of one list-watch, on its own thread: lists, then watches and watches on from where it
 * stands; lists again after 410 Gone, after a silence and after an unexpected exception; backs off
 * after failures. It ends when the list-watch is closed; anything else that ends it (an
 * {@link Error}, or a failure while handling a failure) marks the watch dead.
 * <ul>
 * <li>The first list is served from the API server's watch cache ({@code resourceVersion=0}); every
 *     object is then reported as changed. A watch that ends normally (the server ends each at the
 *     {@code timeoutSeconds} it asked for, within a minute) is resumed from the last resourceVersion
 *     seen, without a list; one the server answers with 410 Gone is followed by a fresh, consistent
 *     list ({@code resourceVersion=""}), after which vanished objects are reported deleted and the
 *     others changed.</li>
 * <li>Failures are retried with exponential back-off ({@link Backoff}), or after the server's
 *     {@code Retry-After} when that is longer, up to the longest back-off; a watch that ends at once,
 *     without an event, counts as a failure. They are logged by {@link WatchFailureLog}.</li>
 * <li>A request that hears nothing for longer than the silence bound is cut ({@link WatchCalls}):
 *     the objects are listed afresh on a new connection, and until then the cache is not trusted.</li>
 * </ul>
 */
final class WatchLoop<T> {

    private static final Logger LOG = LogManager.getLogger();

    private final String kinds;
    private final WatchOptions options;
    private final WatchCalls calls;
    private final WatchCache<T> cache;
    private final WatchFailureLog failures;
    private final CacheLiveness liveness;
    private final Heartbeat heartbeat;
    /** Counted down when the list-watch is closed. */
    private final CountDownLatch closed;

    /** Where the next watch starts. */
    private String resourceVersion;

    WatchLoop(String kinds, WatchOptions options, WatchCalls calls, WatchCache<T> cache, WatchFailureLog failures,
            CacheLiveness liveness, Heartbeat heartbeat, CountDownLatch closed) {
        this.kinds = kinds;
        this.options = options;
        this.calls = calls;
        this.cache = cache;
        this.failures = failures;
        this.liveness = liveness;
        this.heartbeat = heartbeat;
        this.closed = closed;
    }

    /** The thread's body: the loop, and what ends it. */
    void run() {
        Throwable ended = null;
        try {
            loop();
        } catch (Throwable fatal) { // an Error, or a failure while handling a failure: nothing goes on from here
            ended = fatal;
        } finally {
            if (!isClosed()) {
                liveness.died();
                LOG.error("{}: the watch stopped for good; its cache is no longer trusted and readers ask the server",
                        kinds, ended);
            }
            liveness.firstListEnded();
            calls.releaseOwnConnections();
        }
    }

    private boolean isClosed() {
        return closed.getCount() == 0;
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
                        liveness.endedByServer();
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
                liveness.doubted();
                listed = false;
                listFrom = "";
                failures.silent(heartbeat.bound(), options.watchTimeout());
                calls.moveToNewConnections();
            } catch (ApiFailure failure) {
                liveness.firstListEnded();
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
                liveness.doubted();
                listed = false;
                listFrom = "";
                liveness.firstListEnded();
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
        liveness.listed(resourceVersion);
    }

    /** One event of the watch into the cache; every event, a bookmark too, moves the version to watch on from. */
    private void apply(WatchCalls.Event event) {
        switch (event.type()) {
            case "ADDED", "MODIFIED" -> Key.of(event.object()).ifPresent(key -> cache.changed(key, event.object()));
            case "DELETED" -> Key.of(event.object()).ifPresent(cache::deleted);
            default -> { } // BOOKMARK: only its resourceVersion counts
        }
        Optional<String> version = event.resourceVersion();
        version.ifPresent(seen -> resourceVersion = seen);
        liveness.told(version);
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
