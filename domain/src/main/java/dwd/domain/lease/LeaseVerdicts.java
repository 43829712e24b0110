package dwd.domain.lease;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Turns the nodes, machines and leases of a shoot into a {@link LeaseVerdict}. */
public final class LeaseVerdicts {

    /** Below this many candidate leases an expired lease is not enough evidence to scale down. */
    static final int MINIMUM_CANDIDATES_TO_SCALE_DOWN = 2;

    private LeaseVerdicts() {
    }

    /**
     * Decides on one lease probe.
     *
     * <ul>
     *   <li>No candidate lease: {@link Decision#SCALE_UP}, as the original (nothing suggests the nodes are gone).
     *   <li>One candidate lease: {@link Decision#SCALE_UP} if it is fresh, {@link Decision#HOLD} if it has expired.
     *       The original holds in both cases and so never lifts protection of a one-node shoot.
     *   <li>Two or more: {@link Decision#SCALE_DOWN} when {@code expired / candidates >= failureFraction},
     *       else {@link Decision#SCALE_UP}.
     * </ul>
     */
    public static LeaseVerdict decide(LeaseProbeInput input) {
        NodeCandidacy candidacy = NodeCandidacy.of(input.machines(), input.workerNodeConditions());
        var candidateNodes = LinkedHashSet.<String>newLinkedHashSet(input.nodes().size());
        var excludedNodes = new LinkedHashMap<String, Set<Exclusion>>();
        for (Node node : input.nodes()) {
            Set<Exclusion> exclusions = candidacy.exclusionsOf(node);
            if (exclusions.isEmpty()) {
                candidateNodes.add(node.name());
            } else {
                excludedNodes.merge(node.name(), exclusions, LeaseVerdicts::union);
            }
        }

        Instant now = input.now();
        var nodesWithLease = HashSet.<String>newHashSet(input.leases().size());
        var expiries = new ArrayList<Instant>(input.leases().size());
        int expired = 0;
        int withoutRenewTime = 0;
        int orphans = 0;
        for (NodeLease lease : input.leases()) {
            if (!candidateNodes.contains(lease.name())) {
                orphans++;
                continue;
            }
            nodesWithLease.add(lease.name());
            if (lease.renewTime().isEmpty()) {
                withoutRenewTime++;
                continue;
            }
            Instant expiry = LeaseExpiry.expiresAt(lease.renewTime().get(), input.nodeMonitorGracePeriod());
            expiries.add(expiry);
            if (LeaseExpiry.isExpired(expiry, now)) {
                expired++;
            }
        }
        List<String> withoutLease = candidateNodes.stream()
                .filter(name -> !nodesWithLease.contains(name))
                .toList();

        int candidates = expiries.size();
        double threshold = input.failureFraction();
        double fraction = candidates == 0 ? 0.0 : (double) expired / candidates;
        return new LeaseVerdict(decision(candidates, expired, fraction, threshold), candidates, expired, fraction,
                threshold, excludedNodes, withoutRenewTime, orphans, withoutLease,
                predictedCrossing(expiries, threshold));
    }

    private static Decision decision(int candidates, int expired, double fraction, double threshold) {
        if (candidates < MINIMUM_CANDIDATES_TO_SCALE_DOWN) {
            // Nothing expired (including "no candidate at all") is no reason to keep the dependents down.
            return expired == 0 ? Decision.SCALE_UP : Decision.HOLD;
        }
        return fraction >= threshold ? Decision.SCALE_DOWN : Decision.SCALE_UP;
    }

    /**
     * The k-th earliest expiry, k being the fewest expired leases whose fraction reaches the threshold. The fraction
     * is computed exactly as in {@link #decide}, so the verdict flips at that instant and not a nanosecond earlier.
     * A threshold of 0 or less (rejected by config validation) is reached with no lease expired: {@link Instant#MIN}.
     * A threshold above 1 (or NaN) is never reached: empty.
     */
    private static Optional<Instant> predictedCrossing(List<Instant> expiries, double threshold) {
        int candidates = expiries.size();
        if (candidates < MINIMUM_CANDIDATES_TO_SCALE_DOWN) {
            return Optional.empty();
        }
        int needed = 0;
        // Written as "not reached" rather than "below", so that a NaN threshold is never reached, as in decide.
        while (needed <= candidates && !((double) needed / candidates >= threshold)) {
            needed++;
        }
        if (needed > candidates) {
            return Optional.empty();
        }
        if (needed == 0) {
            return Optional.of(Instant.MIN);
        }
        Instant[] sorted = expiries.toArray(Instant[]::new);
        Arrays.sort(sorted);
        return Optional.of(sorted[needed - 1]);
    }

    private static Set<Exclusion> union(Set<Exclusion> first, Set<Exclusion> second) {
        var both = EnumSet.copyOf(first);
        both.addAll(second);
        return both;
    }
}
