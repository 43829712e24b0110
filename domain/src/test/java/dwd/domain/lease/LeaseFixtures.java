package dwd.domain.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builders for lease-probe scenarios: healthy MCM-managed nodes with live machines unless told otherwise. */
final class LeaseFixtures {

    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final Duration GRACE = Duration.ofSeconds(40);
    /** 0.75 × 40 s: a lease renewed this long before {@link #NOW} has just expired. */
    static final Duration BUFFER = Duration.ofSeconds(30);

    private LeaseFixtures() {
    }

    static Node node(String name) {
        return new Node(name, Map.of(), Map.of(), List.of());
    }

    static Node node(String name, NodeCondition... conditions) {
        return new Node(name, Map.of(), Map.of(), List.of(conditions));
    }

    static Node nodeInPool(String name, String pool, NodeCondition... conditions) {
        return new Node(name, Map.of("worker.gardener.cloud/pool", pool), Map.of(), List.of(conditions));
    }

    static Node nodeAnnotated(String name, String key, String value) {
        return new Node(name, Map.of(), Map.of(key, value), List.of());
    }

    static NodeCondition condition(String type, String status) {
        return new NodeCondition(type, status, "");
    }

    static NodeCondition inPlaceUpdate(String status, String reason) {
        return new NodeCondition("InPlaceUpdate", status, reason);
    }

    static Machine machine(String node) {
        return new Machine("machine-" + node, Optional.of(node), "Running");
    }

    static Machine machine(String node, String phase) {
        return new Machine("machine-" + node + "-" + phase, Optional.of(node), phase);
    }

    static NodeLease fresh(String name) {
        return new NodeLease(name, Optional.of(NOW.minusSeconds(5)));
    }

    static NodeLease expired(String name) {
        return new NodeLease(name, Optional.of(NOW.minus(BUFFER)));
    }

    static NodeLease renewedAt(String name, Instant renewTime) {
        return new NodeLease(name, Optional.of(renewTime));
    }

    static NodeLease withoutRenewTime(String name) {
        return new NodeLease(name, Optional.empty());
    }

    static LeaseProbeInput input(List<Node> nodes, List<Machine> machines, List<NodeLease> leases) {
        return new LeaseProbeInput(nodes, machines, leases, Map.of(), GRACE, 0.6, NOW);
    }

    /** {@code total} candidate nodes with machines and leases, the first {@code expiredCount} of them expired. */
    static LeaseProbeInput cluster(int total, int expiredCount, double failureFraction) {
        var nodes = new ArrayList<Node>();
        var machines = new ArrayList<Machine>();
        var leases = new ArrayList<NodeLease>();
        for (int i = 0; i < total; i++) {
            String name = "node-" + i;
            nodes.add(node(name));
            machines.add(machine(name));
            leases.add(i < expiredCount ? expired(name) : fresh(name));
        }
        return new LeaseProbeInput(nodes, machines, leases, Map.of(), GRACE, failureFraction, NOW);
    }
}
