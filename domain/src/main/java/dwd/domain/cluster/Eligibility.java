package dwd.domain.cluster;

import dwd.domain.internal.NullSafe;
import java.util.Objects;

/**
 * Whether a shoot should be probed, and why, in words fit for the log.
 *
 * @param action what to do with the shoot's prober
 * @param reason why; the original's log text where it has one
 */
public record Eligibility(ProbeAction action, String reason) {

    public Eligibility {
        Objects.requireNonNull(action, "action");
        reason = NullSafe.text(reason);
    }
}
