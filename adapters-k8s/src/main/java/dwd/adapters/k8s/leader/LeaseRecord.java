package dwd.adapters.k8s.leader;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The leader-election fields of a coordination.k8s.io Lease, as client-go's LeaseLock reads and
 * writes them.
 *
 * @param holderIdentity       who holds the lock; empty when released
 * @param leaseDurationSeconds how long others wait, from when they saw the record change, before taking over
 * @param resourceVersion      the version read, for the optimistic update; empty for a record not yet stored
 */
public record LeaseRecord(String holderIdentity, int leaseDurationSeconds, Optional<Instant> acquireTime,
                          Optional<Instant> renewTime, int leaseTransitions, Optional<String> resourceVersion) {

    public LeaseRecord {
        Objects.requireNonNull(holderIdentity, "holderIdentity");
        Objects.requireNonNull(acquireTime, "acquireTime");
        Objects.requireNonNull(renewTime, "renewTime");
        Objects.requireNonNull(resourceVersion, "resourceVersion");
    }

    /** Whether both carry the same leader-election content (the version is not content). */
    boolean sameContentAs(LeaseRecord other) {
        return other != null && holderIdentity.equals(other.holderIdentity)
                && leaseDurationSeconds == other.leaseDurationSeconds
                && acquireTime.equals(other.acquireTime) && renewTime.equals(other.renewTime)
                && leaseTransitions == other.leaseTransitions;
    }
}
