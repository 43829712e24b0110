package dwd.domain.lease;

import dwd.domain.internal.NullSafe;
import java.time.Instant;
import java.util.Optional;

/**
 * A lease in the shoot's {@code kube-node-lease} namespace, which the kubelet renews.
 *
 * @param name      the lease name, equal to the name of its node
 * @param renewTime {@code spec.renewTime}; empty when the lease carries none, which makes it no candidate
 */
public record NodeLease(String name, Optional<Instant> renewTime) {

    public NodeLease {
        name = NullSafe.text(name);
        renewTime = NullSafe.optional(renewTime);
    }
}
