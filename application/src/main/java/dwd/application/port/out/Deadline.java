package dwd.application.port.out;

import dwd.domain.time.SaturatingTime;
import java.time.Duration;

/**
 * An instant on a {@link Clock}'s monotonic clock: when something is due, immune to steps of the
 * wall clock. Its arithmetic saturates, so a deadline "in 2^63 seconds" is merely far away.
 */
public final class Deadline {

    /** No deadline: it has always passed, and nothing is late for it. */
    public static final Deadline NONE = new Deadline(0, false);

    private final long nanoTime;
    private final boolean set;

    private Deadline(long nanoTime, boolean set) {
        this.nanoTime = nanoTime;
        this.set = set;
    }

    /** {@code delay} from now on {@code clock}'s monotonic clock. */
    public static Deadline in(Clock clock, Duration delay) {
        return new Deadline(SaturatingTime.plus(clock.nanoTime(), SaturatingTime.nanos(delay)), true);
    }

    /** This deadline moved by {@code delay}; {@link #NONE} stays none. */
    public Deadline plus(Duration delay) {
        return set ? new Deadline(SaturatingTime.plus(nanoTime, SaturatingTime.nanos(delay)), true) : this;
    }

    /** Whether the deadline has come (always, for {@link #NONE}). */
    public boolean hasPassed(Clock clock) {
        return remaining(clock).isZero();
    }

    /** How long until the deadline; zero once it has passed. */
    public Duration remaining(Clock clock) {
        if (!set) {
            return Duration.ZERO;
        }
        long remaining = SaturatingTime.minus(nanoTime, clock.nanoTime());
        return remaining > 0 ? Duration.ofNanos(remaining) : Duration.ZERO;
    }

    /** How long ago the deadline passed; zero before it, and for {@link #NONE}. */
    public Duration overdueBy(Clock clock) {
        if (!set) {
            return Duration.ZERO;
        }
        long overdue = SaturatingTime.minus(clock.nanoTime(), nanoTime);
        return overdue > 0 ? Duration.ofNanos(overdue) : Duration.ZERO;
    }

    @Override
    public String toString() {
        return set ? "Deadline[nanoTime=" + nanoTime + "]" : "Deadline[none]";
    }
}
