package dwd.adapters.k8s.watch;

import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link ListWatch} retries, how long it may hear nothing, and the client its requests go out on.
 *
 * @param initialBackoff the wait after a first failure; it doubles with each further one
 * @param maxBackoff     the longest wait, also the longest a server's {@code Retry-After} is honoured
 * @param silenceBound   how long a request may hear nothing before it is cut and the objects listed afresh
 * @param client         the client the watch's requests are built on: after a silence, they go out on new
 *                       connections of a client like it (HTTP/2 carries many requests on one connection,
 *                       which may still be busy with other watches)
 */
public record WatchOptions(Duration initialBackoff, Duration maxBackoff, Duration silenceBound, ApiClient client) {

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
        Objects.requireNonNull(silenceBound, "silenceBound");
        Objects.requireNonNull(client, "client");
        if (!initialBackoff.isPositive() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("back-off must be positive and at most its maximum, was "
                    + initialBackoff + " to " + maxBackoff);
        }
        if (!silenceBound.isPositive()) {
            throw new IllegalArgumentException("the silence bound must be positive, was " + silenceBound);
        }
    }

    /** Requests built on {@code client}; back-off 1 s doubling to 30 s; {@link #SILENCE_BOUND}. */
    public static WatchOptions on(ApiClient client) {
        return new WatchOptions(Duration.ofSeconds(1), Duration.ofSeconds(30), SILENCE_BOUND, client);
    }

    /** These options with another back-off. */
    public WatchOptions backingOff(Duration initial, Duration max) {
        return new WatchOptions(initial, max, silenceBound, client);
    }
}
