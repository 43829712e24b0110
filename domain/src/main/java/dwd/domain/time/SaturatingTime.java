package dwd.domain.time;

import java.time.Duration;
import java.time.Instant;

/**
 * Time arithmetic that saturates instead of throwing: a duration from a shoot (a Retry-After of
 * 2^63 seconds) or from the config (the largest Go duration as an interval) must cap a schedule at
 * "far away", never end it with an {@link ArithmeticException}.
 */
public final class SaturatingTime {

    /** The longest a duration here gets: the largest that still fits in nanoseconds (about 292 years). */
    public static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);

    private SaturatingTime() {
    }

    /** {@code duration} in nanoseconds, at most {@link Long#MAX_VALUE} and at least {@code -Long.MAX_VALUE}. */
    public static long nanos(Duration duration) {
        return clamp(duration).toNanos();
    }

    /** {@code a + b}, between {@code -MAX} and {@link #MAX}. */
    public static Duration plus(Duration a, Duration b) {
        return clamp(clamp(a).plus(clamp(b)));
    }

    /** {@code duration × factor} for a factor of 0 or more (NaN counts as 0), at most {@link #MAX}. */
    public static Duration times(Duration duration, double factor) {
        if (!(factor > 0)) {
            return Duration.ZERO;
        }
        double nanos = nanos(duration) * factor;
        return nanos >= Long.MAX_VALUE ? MAX : Duration.ofNanos((long) nanos);
    }

    /** {@code instant + duration}, at most {@link Instant#MAX} and at least {@link Instant#MIN}. */
    public static Instant plus(Instant instant, Duration duration) {
        try {
            return instant.plus(duration);
        } catch (ArithmeticException | java.time.DateTimeException beyond) {
            return duration.isNegative() ? Instant.MIN : Instant.MAX;
        }
    }

    /** {@code a + b} on nanosecond readings, at most {@link Long#MAX_VALUE} and at least {@link Long#MIN_VALUE}. */
    public static long plus(long a, long b) {
        long sum = a + b;
        // Overflow only when both have the same sign and the sum's sign differs.
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }

    /** {@code a - b} on nanosecond readings, at most {@link Long#MAX_VALUE} and at least {@link Long#MIN_VALUE}. */
    public static long minus(long a, long b) {
        long difference = a - b;
        // Overflow only when the signs of a and b differ and the result's sign differs from a's.
        if (((a ^ b) & (a ^ difference)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return difference;
    }

    /** {@code duration}, between {@code -MAX} and {@link #MAX}. */
    public static Duration clamp(Duration duration) {
        if (duration.compareTo(MAX) > 0) {
            return MAX;
        }
        return duration.compareTo(MAX.negated()) < 0 ? MAX.negated() : duration;
    }
}
