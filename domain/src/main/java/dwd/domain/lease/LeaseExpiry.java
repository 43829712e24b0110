package dwd.domain.lease;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;

/**
 * The expiry rule of a node lease: expired once {@code renewTime + 0.75 × grace} is reached.
 *
 * <p>The 0.75 buffer lets dwd act before kube-controller-manager marks the node {@code Unknown} at the full grace
 * period, while the kubelet still gets about three renewal attempts.
 */
public final class LeaseExpiry {

    static final double BUFFER_FRACTION = 0.75;

    private LeaseExpiry() {
    }

    /**
     * {@code 0.75 × grace}, computed as Go does: on nanoseconds in floating point, truncated to whole nanoseconds.
     * A grace beyond the range of {@code long} nanoseconds (about 292 years, which Go cannot even express) is clamped.
     */
    public static Duration buffer(Duration nodeMonitorGracePeriod) {
        long graceNanos = clampedNanos(nodeMonitorGracePeriod);
        return Duration.ofNanos((long) (graceNanos * BUFFER_FRACTION));
    }

    /** The instant a lease renewed at {@code renewTime} expires; saturates at {@link Instant#MAX} instead of overflowing. */
    public static Instant expiresAt(Instant renewTime, Duration nodeMonitorGracePeriod) {
        return plusSaturating(renewTime, buffer(nodeMonitorGracePeriod));
    }

    /**
     * {@code true} when a lease that expires at {@code expiresAt} (see {@link #expiresAt}) has expired at
     * {@code now}; reaching the expiry instant exactly counts as expired.
     */
    public static boolean isExpired(Instant expiresAt, Instant now) {
        return !expiresAt.isAfter(now);
    }

    private static Instant plusSaturating(Instant instant, Duration duration) {
        try {
            return instant.plus(duration);
        } catch (DateTimeException | ArithmeticException beyondTheTimeLine) {
            return duration.isNegative() ? Instant.MIN : Instant.MAX;
        }
    }

    private static long clampedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException beyondLongNanos) {
            return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
