package dwd.domain.lease;

import dwd.domain.internal.NullSafe;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The outcome of one lease probe, with the counts that explain it.
 *
 * @param decision                   what to do with the shoot's dependents
 * @param candidates                 candidate leases: leases with a renew time whose node is a candidate
 * @param expired                    how many of the candidate leases have expired
 * @param fraction                   {@code expired / candidates}; 0 without candidates
 * @param threshold                  the failure fraction the verdict was taken against
 * @param excludedNodes              every node that is no candidate, with all the rules that exclude it, in node order
 * @param leasesWithoutRenewTime     leases of candidate nodes that carry no renew time (not counted as candidates)
 * @param orphanLeases               leases without a candidate node of the same name (ignored)
 * @param candidateNodesWithoutLease candidate nodes that have no lease at all (ignored), in node order
 * @param predictedCrossing          when the expired fraction reaches the threshold if no lease is renewed any more;
 *                                   at or before the probe instant if it already has; empty below two candidates
 *                                   or when the threshold can never be reached
 */
public record LeaseVerdict(Decision decision, int candidates, int expired, double fraction, double threshold,
                           Map<String, Set<Exclusion>> excludedNodes, int leasesWithoutRenewTime, int orphanLeases,
                           List<String> candidateNodesWithoutLease, Optional<Instant> predictedCrossing) {

    public LeaseVerdict {
        Objects.requireNonNull(decision, "decision");
        excludedNodes = orderedCopy(excludedNodes);
        candidateNodesWithoutLease = NullSafe.list(candidateNodesWithoutLease);
        predictedCrossing = NullSafe.optional(predictedCrossing);
    }

    /** One line for logs and events, e.g. {@code 5 candidates, 3 expired, fraction 0.60 >= threshold 0.60}. */
    public String summary() {
        String counts = String.format(Locale.ROOT, "%d candidate%s, %d expired", candidates,
                candidates == 1 ? "" : "s", expired);
        if (candidates == 0) {
            return counts + ", no candidate leases";
        }
        if (candidates == 1) {
            return counts + ", fewer than 2 candidates";
        }
        return String.format(Locale.ROOT, "%s, fraction %.2f %s threshold %.2f", counts, fraction,
                fraction >= threshold ? ">=" : "<", threshold);
    }

    private static Map<String, Set<Exclusion>> orderedCopy(Map<String, Set<Exclusion>> excludedNodes) {
        var copy = new LinkedHashMap<String, Set<Exclusion>>();
        if (excludedNodes != null) {
            excludedNodes.forEach((node, exclusions) -> {
                var reasons = EnumSet.noneOf(Exclusion.class);
                reasons.addAll(NullSafe.list(exclusions));
                if (node != null && !reasons.isEmpty()) {
                    copy.put(node, Collections.unmodifiableSet(reasons));
                }
            });
        }
        return Collections.unmodifiableMap(copy);
    }
}
