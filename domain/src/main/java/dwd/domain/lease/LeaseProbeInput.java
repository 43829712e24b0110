package dwd.domain.lease;

import dwd.domain.internal.NullSafe;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one lease probe decides from: the shoot's nodes and leases, the seed's machines, and the settings.
 *
 * <p>Collections that came back absent from the cluster are taken as empty. The grace period and {@code now}
 * are the caller's own values and must be given.
 *
 * @param nodes                  every node of the shoot
 * @param machines               every Machine in the shoot's seed namespace
 * @param leases                 every lease in the shoot's {@code kube-node-lease} namespace
 * @param workerNodeConditions   unhealthy condition types per worker pool
 * @param nodeMonitorGracePeriod kube-controller-manager's grace period in effect for the shoot
 * @param failureFraction        the expired fraction at or above which the verdict is {@link Decision#SCALE_DOWN}
 * @param now                    the instant to judge the leases at
 */
public record LeaseProbeInput(List<Node> nodes, List<Machine> machines, List<NodeLease> leases,
                              Map<String, List<String>> workerNodeConditions, Duration nodeMonitorGracePeriod,
                              double failureFraction, Instant now) {

    public LeaseProbeInput {
        nodes = NullSafe.list(nodes);
        machines = NullSafe.list(machines);
        leases = NullSafe.list(leases);
        workerNodeConditions = NullSafe.stringLists(workerNodeConditions);
        Objects.requireNonNull(nodeMonitorGracePeriod, "nodeMonitorGracePeriod");
        Objects.requireNonNull(now, "now");
    }

    /** The same input judged at another instant. */
    public LeaseProbeInput at(Instant instant) {
        return new LeaseProbeInput(nodes, machines, leases, workerNodeConditions, nodeMonitorGracePeriod,
                failureFraction, instant);
    }
}
