package dwd.adapters.k8s.watch;

import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link ListWatch} retries, how long it may hear nothing, and who hears that it went on or ended.
 *
 * @param initialBackoff  the wait after a first failure; it doubles with each further one
 * @param maxBackoff      the longest wait
 * @param onRestart       run each time the watch goes on after its stream ended or a request failed
 * @param onEnd           run once when the watch's thread ends
 * @param silenceBound    how long a request may hear nothing before it is cut and the objects listed afresh
 * @param dropConnections run after a request was cut for its silence, so that the next one opens a new
 *                        connection instead of queuing on the dead one (HTTP/2 shares a connection)
 */
public record WatchOptions(Duration initialBackoff, Duration maxBackoff, Runnable onRestart, Runnable onEnd,
                           Duration silenceBound, Runnable dropConnections) {

    /**
     * How long a watch may hear nothing before it is taken for dead: kube-apiserver's watch cache sends
     * every watch that asks for bookmarks one about every minute (its {@code defaultBookmarkFrequency},
     * checked every second with 25 % jitter), so a minute and a quarter (the watch cache's own
     * {@code DefaultEventFreshDuration}) is a bookmark late by 14 s and more.
     */
    public static final Duration SILENCE_BOUND = Duration.ofSeconds(75);

    public WatchOptions {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(onRestart, "onRestart");
        Objects.requireNonNull(onEnd, "onEnd");
        Objects.requireNonNull(silenceBound, "silenceBound");
        Objects.requireNonNull(dropConnections, "dropConnections");
        if (!silenceBound.isPositive()) {
            throw new IllegalArgumentException("the silence bound must be positive, was " + silenceBound);
        }
    }

    public WatchOptions(Duration initialBackoff, Duration maxBackoff, Runnable onRestart, Runnable onEnd) {
        this(initialBackoff, maxBackoff, onRestart, onEnd, SILENCE_BOUND, () -> { });
    }

    /** 1 s doubling to 30 s, {@link #SILENCE_BOUND}, nobody told. */
    public static WatchOptions defaults() {
        return new WatchOptions(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> { }, () -> { });
    }

    /** These options with another silence bound (tests shorten it). */
    public WatchOptions withSilenceBound(Duration bound) {
        return new WatchOptions(initialBackoff, maxBackoff, onRestart, onEnd, bound, dropConnections);
    }

    /** These options, dropping {@code client}'s idle connections after a request was cut for its silence. */
    public WatchOptions droppingConnectionsOf(ApiClient client) {
        return new WatchOptions(initialBackoff, maxBackoff, onRestart, onEnd, silenceBound,
                () -> client.getHttpClient().connectionPool().evictAll());
    }
}
