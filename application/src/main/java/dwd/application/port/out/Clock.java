package dwd.application.port.out;

import dwd.domain.time.SaturatingTime;
import java.time.Duration;
import java.time.Instant;

/**
 * The time sources of every use case, so that tests can run on virtual time: the wall clock, which
 * dates things (lease ages against kubelets' renew times, what the status page shows), and a
 * monotonic clock, which measures (intervals, deadlines, how late a loop is). A step of the wall
 * clock (an NTP correction, an operator's {@code date -s}) moves the first and never the second.
 */
@FunctionalInterface
public interface Clock {

    /** The wall clock's current instant. */
    Instant now();

    /**
     * A reading of the monotonic clock in nanoseconds ({@link System#nanoTime()} in production): only
     * the difference between two readings means anything, and it is never changed by a wall-clock step.
     * A clock without a monotonic source of its own (a fixed instant in a test) measures by its wall
     * clock; every clock that runs in production has one.
     */
    default long nanoTime() {
        return SaturatingTime.nanos(Duration.between(Instant.EPOCH, now()));
    }

    /** The machine's clocks: the one place, with {@code SystemScheduler}'s timer, where the core reads them. */
    static Clock system() {
        return new Clock() {
            @Override
            public Instant now() {
                return Instant.now();
            }

            @Override
            public long nanoTime() {
                return System.nanoTime();
            }
        };
    }
}
