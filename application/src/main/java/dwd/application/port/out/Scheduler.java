package dwd.application.port.out;

import java.time.Duration;

/**
 * Runs tasks later. Every wait of a use case goes through here, so that tests run minutes of
 * probing on virtual time in milliseconds. Tasks may block (real schedulers run them on virtual
 * threads) and must not assume which thread runs them.
 */
public interface Scheduler extends Clock {

    /**
     * Runs {@code task} once, {@code delay} from now on the monotonic clock (a non-positive delay means
     * as soon as possible; longer delays than 2^63 ns, about 292 years, are that long).
     */
    Cancellable schedule(Duration delay, Runnable task);

    /** Runs {@code task} as soon as possible, concurrently with the caller. */
    default Cancellable execute(Runnable task) {
        return schedule(Duration.ZERO, task);
    }
}
