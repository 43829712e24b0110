package dwd.adapters.k8s.leader;

import dwd.domain.config.GoDuration;
import java.time.Duration;
import java.util.Objects;

/**
 * client-go's three durations, from the original's flags (defaults 15s, 10s, 2s).
 *
 * @param leaseDuration how long a standby waits, after it last saw the record change, before taking over
 * @param renewDeadline how long the leader keeps trying to renew before it gives up leading
 * @param retryPeriod   the interval between attempts
 */
public record LeaderElectionTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

    public LeaderElectionTimings {
        Objects.requireNonNull(leaseDuration, "leaseDuration");
        Objects.requireNonNull(renewDeadline, "renewDeadline");
        Objects.requireNonNull(retryPeriod, "retryPeriod");
        if (!retryPeriod.isPositive()) {
            throw new IllegalArgumentException("--leader-elect-retry-period must be positive, was " + GoDuration.format(retryPeriod));
        }
        if (renewDeadline.compareTo(retryPeriod) <= 0) {
            throw new IllegalArgumentException("--leader-elect-renew-deadline (" + GoDuration.format(renewDeadline)
                    + ") must be longer than --leader-elect-retry-period (" + GoDuration.format(retryPeriod) + ")");
        }
        if (leaseDuration.compareTo(renewDeadline) <= 0) {
            throw new IllegalArgumentException("--leader-elect-lease-duration (" + GoDuration.format(leaseDuration)
                    + ") must be longer than --leader-elect-renew-deadline (" + GoDuration.format(renewDeadline) + ")");
        }
        if (leaseDuration.toSeconds() < 1) {
            throw new IllegalArgumentException("--leader-elect-lease-duration must be at least 1s (the Lease stores whole seconds)");
        }
    }

    public static LeaderElectionTimings defaults() {
        return new LeaderElectionTimings(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));
    }

    /** The bound of each Lease call: half the renew deadline, so one hung call cannot use up the renewal window. */
    public Duration callTimeout() {
        return renewDeadline.dividedBy(2);
    }
}
