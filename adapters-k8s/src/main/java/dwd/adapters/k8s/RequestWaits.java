package dwd.adapters.k8s;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/** Requests that had to wait before they were sent (for a token, for a place), and how long they waited in all. */
final class RequestWaits {

    private final LongAdder requests = new LongAdder();
    private final LongAdder nanos = new LongAdder();

    /** Counts a request that starts waiting now; returns the start, for {@link #ended}. */
    long started() {
        requests.increment();
        return System.nanoTime();
    }

    /** Adds the time since {@code start} to the total, however the wait ended. */
    void ended(long start) {
        nanos.add(System.nanoTime() - start);
    }

    long requests() {
        return requests.sum();
    }

    Duration total() {
        return Duration.ofNanos(nanos.sum());
    }
}
