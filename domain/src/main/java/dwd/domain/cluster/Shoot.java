package dwd.domain.cluster;

import dwd.domain.internal.NullSafe;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The fields of a Gardener shoot (embedded in a {@code Cluster}) that decide whether and how its prober runs.
 *
 * @param deletionRequested      {@code metadata.deletionTimestamp} is set
 * @param hibernationEnabled     {@code spec.hibernation.enabled}; empty when hibernation or the flag is unset
 * @param hibernated             {@code status.hibernated}
 * @param lastOperation          {@code status.lastOperation}; empty when unset
 * @param workers                {@code spec.provider.workers}
 * @param nodeMonitorGracePeriod {@code spec.kubernetes.kubeControllerManager.nodeMonitorGracePeriod}; empty when unset
 */
public record Shoot(boolean deletionRequested, Optional<Boolean> hibernationEnabled, boolean hibernated,
                    Optional<LastOperation> lastOperation, List<Worker> workers,
                    Optional<Duration> nodeMonitorGracePeriod) {

    public Shoot {
        hibernationEnabled = NullSafe.optional(hibernationEnabled);
        lastOperation = NullSafe.optional(lastOperation);
        workers = NullSafe.list(workers);
        nodeMonitorGracePeriod = NullSafe.optional(nodeMonitorGracePeriod);
    }

    /** Hibernation is switched on: the flag is present and {@code true}. */
    public boolean isHibernationEnabled() {
        return hibernationEnabled.orElse(false);
    }
}
