package dwd.domain.lease;

import dwd.domain.internal.NullSafe;
import java.util.Optional;

/**
 * A machine-controller-manager {@code Machine} in the shoot's seed namespace.
 *
 * @param name     the machine name
 * @param nodeName the value of its {@code node} label: the node it backs, if it has joined
 * @param phase    {@code status.currentStatus.phase}; {@code ""} when unset
 */
public record Machine(String name, Optional<String> nodeName, String phase) {

    /** MCM phases of a machine that is gone or going; any other phase, including none, keeps its node a candidate. */
    private static final String FAILED = "Failed";
    private static final String TERMINATING = "Terminating";

    public Machine {
        name = NullSafe.text(name);
        nodeName = NullSafe.optional(nodeName);
        phase = NullSafe.text(phase);
    }

    /** {@code true} unless the machine has failed or is terminating. */
    public boolean isLive() {
        return !phase.equals(FAILED) && !phase.equals(TERMINATING);
    }
}
