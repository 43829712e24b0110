package dwd.adapters.k8s.watch;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What can be known of one list-watch's cache from outside its loop: whether it holds a complete
 * list that nothing has put in doubt, whether its loop ended for good, when it last heard from its
 * server, how far it has seen, and how old its copy is. The loop writes it; readers and the
 * {@link RunningWatches} registry read it from any thread.
 */
final class CacheLiveness {

    private final String kinds;
    private final Heartbeat heartbeat;
    /** Counted down when the first list was delivered, or failed, or the watch closed. */
    private final CountDownLatch firstListAttempt = new CountDownLatch(1);
    /** A complete list is in the cache, and nothing since has put it in doubt (silence, an unexpected exception). */
    private volatile boolean proven;
    /** The loop ended without being closed: nothing will fill the cache again. */
    private volatile boolean dead;
    /** The last version listed or told, for readers asking whether a write has been seen. */
    private volatile String seenVersion = "";
    /** When a list, event, bookmark or the server's end of a watch last made the cache current (monotonic); null before the first list. */
    private volatile Long currentAtNanos;

    CacheLiveness(String kinds, Heartbeat heartbeat) {
        this.kinds = kinds;
        this.heartbeat = heartbeat;
    }

    /** What is watched, for messages: {@code Clusters}, {@code Deployments named kube-controller-manager}. */
    String kinds() {
        return kinds;
    }

    /** The first word of {@link #kinds()}, in lower case: {@code clusters}, {@code deployments}. */
    String resource() {
        return kinds.split(" ", 2)[0].toLowerCase(Locale.ROOT);
    }

    /** A complete list, ending at {@code version}, is in the cache. */
    void listed(String version) {
        seenVersion = version;
        currentAtNanos = System.nanoTime();
        proven = true;
        firstListAttempt.countDown();
    }

    /** An event or a bookmark brought the cache to {@code version}, if it said one. */
    void told(Optional<String> version) {
        version.ifPresent(seen -> seenVersion = seen);
        currentAtNanos = System.nanoTime();
    }

    /** The server ended a watch after telling everything it had: the cache is current. */
    void endedByServer() {
        currentAtNanos = System.nanoTime();
    }

    /** A silence or an unexpected failure: the cache is not trusted until a complete list comes. */
    void doubted() {
        proven = false;
    }

    /** The first list failed, or the watch closed: whoever waits for it waits no longer. */
    void firstListEnded() {
        firstListAttempt.countDown();
    }

    /** The loop ended for good without being closed. */
    void died() {
        dead = true;
        firstListAttempt.countDown();
    }

    boolean isDead() {
        return dead;
    }

    /** A complete list, heard from its server within the silence bound since, and a loop that runs. */
    boolean hasSynced() {
        return proven && !dead && !heartbeat.silentBeyondBound();
    }

    /** Since the server last said anything; before it ever did, since the watch was made. */
    Duration age() {
        return heartbeat.age();
    }

    /** Since the cache was last made current; empty before the first list. */
    Optional<Duration> copyAge() {
        Long current = currentAtNanos;
        return current == null ? Optional.empty() : Optional.of(Duration.ofNanos(Math.max(0, System.nanoTime() - current)));
    }

    /** Whether the last version listed or told is {@code resourceVersion} or later. */
    boolean hasSeen(String resourceVersion) {
        return ResourceVersions.atLeast(seenVersion, resourceVersion);
    }

    /** Waits until the first list request has ended, at most {@code timeout}; whether the cache is synced then. */
    boolean awaitFirstList(Duration timeout) throws InterruptedException {
        firstListAttempt.await(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
        return hasSynced();
    }
}
