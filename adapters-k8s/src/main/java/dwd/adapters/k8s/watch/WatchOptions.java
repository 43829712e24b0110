package dwd.adapters.k8s.watch;

import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link ListWatch} retries, how long each watch request lasts, how long a request may hear
 * nothing, and the client its requests go out on.
 *
 * @param initialBackoff the wait after a first failure; it doubles with each further one
 * @param maxBackoff     the longest wait, also the longest a server's {@code Retry-After} is honoured
 * @param watchTimeout   the longest a watch request asks the server to run ({@code timeoutSeconds}, whole
 *                       seconds, at least 1); each asks for between three quarters of it and all of it
 * @param silenceBound   how long a request may hear nothing (no object, event, bookmark or end) before it
 *                       is cut and the objects are listed afresh; longer than {@code watchTimeout}, since
 *                       the server ends every watch at its {@code timeoutSeconds}
 * @param client         the client the watch's requests are built on: after a silence, they go out on new
 *                       connections of a client like it (HTTP/2 carries many requests on one connection,
 *                       which may still be busy with other watches)
 */
public record WatchOptions(Duration initialBackoff, Duration maxBackoff, Duration watchTimeout, Duration silenceBound,
                           ApiClient client) {

    /**
     * The longest a watch request lasts: kube-apiserver ends a watch at the {@code timeoutSeconds} it
     * asked for, whatever else it does or does not send, so each watch ends within this minute and
     * the next goes on from where it was. Bookmarks cannot be relied on: kube-apiserver sends one
     * only when its watch cache has moved past where the watch stands, and an idle resource's cache
     * may not move for many minutes (docs/watches.md has the measurements).
     */
    public static final Duration WATCH_TIMEOUT = Duration.ofMinutes(1);

    /**
     * How long a request may hear nothing before its connection is taken for dead: the longest watch,
     * {@link #WATCH_TIMEOUT}, and 15 s for its end to arrive from a busy server. A list is ended by
     * kube-apiserver's own request timeout (1 minute by default) if it does not finish, and every
     * listed object counts as heard.
     */
    public static final Duration SILENCE_BOUND = WATCH_TIMEOUT.plusSeconds(15);

    public WatchOptions {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(watchTimeout, "watchTimeout");
        Objects.requireNonNull(silenceBound, "silenceBound");
        Objects.requireNonNull(client, "client");
        if (!initialBackoff.isPositive() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("back-off must be positive and at most its maximum, was "
                    + initialBackoff + " to " + maxBackoff);
        }
        if (watchTimeout.toSeconds() < 1) {
            throw new IllegalArgumentException("a watch lasts at least 1s, was " + watchTimeout);
        }
        if (silenceBound.compareTo(watchTimeout) <= 0) {
            throw new IllegalArgumentException("the silence bound must be longer than the longest watch ("
                    + watchTimeout + "), was " + silenceBound);
        }
    }

    /** Requests built on {@code client}; back-off 1 s doubling to 30 s; {@link #WATCH_TIMEOUT}, {@link #SILENCE_BOUND}. */
    public static WatchOptions on(ApiClient client) {
        return new WatchOptions(Duration.ofSeconds(1), Duration.ofSeconds(30), WATCH_TIMEOUT, SILENCE_BOUND, client);
    }

    /** These options with another back-off. */
    public WatchOptions backingOff(Duration initial, Duration max) {
        return new WatchOptions(initial, max, watchTimeout, silenceBound, client);
    }

    /** These options with other watch lengths and silence bound (for tests). */
    public WatchOptions watchingFor(Duration longestWatch, Duration bound) {
        return new WatchOptions(initialBackoff, maxBackoff, longestWatch, bound, client);
    }

    /** The {@code timeoutSeconds} of one watch request: between three quarters of {@link #watchTimeout()} and all of it. */
    int watchSeconds(int random) {
        long longest = watchTimeout.toSeconds();
        long shortest = Math.max(1, longest * 3 / 4);
        return (int) Math.min(Integer.MAX_VALUE, shortest + Math.floorMod(random, longest - shortest + 1));
    }
}
