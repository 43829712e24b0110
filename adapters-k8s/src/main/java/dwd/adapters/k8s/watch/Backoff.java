package dwd.adapters.k8s.watch;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The waits of a list-watch between failed tries: {@code initial}, doubling up to {@code max}, each
 * with up to 20 % jitter so that watches failing together do not come back together; the server's
 * {@code Retry-After} when that is longer, but never more than {@code max}: a server (or whatever
 * answers in its place) cannot park a watch for longer than its own back-off would. The watch's
 * thread's own.
 */
final class Backoff {

    private final Duration initial;
    private final Duration max;
    private Duration current;

    Backoff(Duration initial, Duration max) {
        this.initial = initial;
        this.max = max;
        this.current = initial;
    }

    /** The wait before the next try, and the one after it doubled. */
    Duration next(Optional<Duration> retryAfter) {
        Duration base = current;
        current = current.compareTo(max.dividedBy(2)) > 0 ? max : current.multipliedBy(2);
        return retryAfter.filter(asked -> asked.compareTo(base) > 0)
                .map(asked -> asked.compareTo(max) > 0 ? max : asked)
                .orElseGet(() -> jittered(base));
    }

    /** After a success: the next failure waits {@code initial} again. */
    void reset() {
        current = initial;
    }

    private static Duration jittered(Duration wait) {
        long extra = (long) (wait.toMillis() * 0.2 * ThreadLocalRandom.current().nextDouble());
        return wait.plusMillis(extra).truncatedTo(ChronoUnit.MILLIS);
    }
}
