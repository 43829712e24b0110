package dwd.domain.lease;

import dwd.domain.internal.NullSafe;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which nodes' leases count: a node is a candidate only when none of the four {@link Exclusion} rules applies.
 *
 * <p>Built once per probe from the shoot's machines and worker node conditions, then asked about each node.
 */
public final class NodeCandidacy {

    /** Unhealthy condition types used when the node's pool configures none; the same defaults as MCM's. */
    public static final List<String> DEFAULT_UNHEALTHY_CONDITIONS =
            List.of("KernelDeadlock", "ReadonlyFilesystem", "DiskPressure", "NetworkUnavailable");

    /** The one label of a node the rules read: its worker pool. */
    public static final String WORKER_POOL_LABEL = "worker.gardener.cloud/pool";
    /** The one annotation of a node the rules read. */
    public static final String NOT_MANAGED_BY_MCM_ANNOTATION = "node.machine.sapcloud.io/not-managed-by-mcm";
    static final String IN_PLACE_UPDATE_CONDITION = "InPlaceUpdate";
    private static final Set<String> IN_PLACE_UPDATE_EXCLUDING_REASONS = Set.of("ReadyForUpdate", "UpdateFailed");
    private static final String TRUE = "True";

    private final Set<String> nodesWithLiveMachine;
    private final Map<String, List<String>> workerNodeConditions;

    private NodeCandidacy(Set<String> nodesWithLiveMachine, Map<String, List<String>> workerNodeConditions) {
        this.nodesWithLiveMachine = nodesWithLiveMachine;
        this.workerNodeConditions = workerNodeConditions;
    }

    /**
     * The rules for one probe.
     *
     * @param machines             the Machines of the shoot's seed namespace
     * @param workerNodeConditions unhealthy condition types per worker pool (see the cluster package)
     */
    public static NodeCandidacy of(Collection<Machine> machines, Map<String, List<String>> workerNodeConditions) {
        // The original scans machines in order for the first live one; whether one exists is all that matters.
        List<Machine> known = NullSafe.list(machines);
        var live = HashSet.<String>newHashSet(known.size());
        for (Machine machine : known) {
            if (machine.isLive()) {
                machine.nodeName().ifPresent(live::add);
            }
        }
        return new NodeCandidacy(live, NullSafe.stringLists(workerNodeConditions));
    }

    /**
     * Whether {@code condition} can exclude a node: a condition that is {@code True} (an unhealthy one,
     * for some pool) or an in-place update's. A reader may leave every other condition out.
     */
    public static boolean canExclude(NodeCondition condition) {
        return condition.status().equals(TRUE) || condition.type().equals(IN_PLACE_UPDATE_CONDITION);
    }

    /** Every rule that excludes {@code node}, in declaration order; empty for a candidate. */
    public Set<Exclusion> exclusionsOf(Node node) {
        var exclusions = EnumSet.noneOf(Exclusion.class);
        if (node.annotations().containsKey(NOT_MANAGED_BY_MCM_ANNOTATION)) {
            exclusions.add(Exclusion.NOT_MANAGED_BY_MCM);
        }
        if (hasUnhealthyCondition(node)) {
            exclusions.add(Exclusion.UNHEALTHY_CONDITION);
        }
        if (!nodesWithLiveMachine.contains(node.name())) {
            exclusions.add(Exclusion.NO_LIVE_MACHINE);
        }
        if (isUndergoingInPlaceUpdate(node)) {
            exclusions.add(Exclusion.IN_PLACE_UPDATE);
        }
        return Collections.unmodifiableSet(exclusions);
    }

    /** The unhealthy condition types that apply to {@code node}: its pool's list if the pool is known, else the defaults. */
    public List<String> unhealthyConditionsFor(Node node) {
        String pool = node.labels().get(WORKER_POOL_LABEL);
        if (pool != null) {
            List<String> poolConditions = workerNodeConditions.get(pool);
            if (poolConditions != null) {
                return poolConditions;
            }
        }
        return DEFAULT_UNHEALTHY_CONDITIONS;
    }

    private boolean hasUnhealthyCondition(Node node) {
        List<String> unhealthy = unhealthyConditionsFor(node);
        for (NodeCondition condition : node.conditions()) {
            if (condition.status().equals(TRUE) && unhealthy.contains(condition.type())) {
                return true;
            }
        }
        return false;
    }

    // The condition's status is ignored on purpose, as in the original: the reason alone marks the update phase.
    private static boolean isUndergoingInPlaceUpdate(Node node) {
        for (NodeCondition condition : node.conditions()) {
            if (condition.type().equals(IN_PLACE_UPDATE_CONDITION)
                    && IN_PLACE_UPDATE_EXCLUDING_REASONS.contains(condition.reason())) {
                return true;
            }
        }
        return false;
    }
}
