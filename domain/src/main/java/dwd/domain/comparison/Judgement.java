package dwd.domain.comparison;

import dwd.domain.internal.NullSafe;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The outcome of an episode, with the reason in words and dwd's lead.
 *
 * @param lead the original's first write minus dwd's first would-be write (positive: dwd was earlier); only
 *             when both acted
 */
public record Judgement(Outcome outcome, String reason, Optional<Duration> lead) {

    public Judgement {
        Objects.requireNonNull(outcome, "outcome");
        reason = NullSafe.text(reason);
        lead = NullSafe.optional(lead);
    }

    /**
     * Compares the two sides of an episode. Both acted alike when they acted on the same targets, to the
     * same replicas, and in the same level order: of two dependents on different levels of the flow's plan,
     * both acted on the same one first, in each side's own order (dependents of one level scale at once, in any
     * order; pods have no order). Each side's first action per target counts; the lead is between the sides'
     * earliest actions.
     *
     * @param levels the level of each dependent in the flow's plan, by name; empty for pods
     */
    public static Judgement judge(List<Act> dwd, List<Act> original, Map<String, Integer> levels) {
        List<Act> ours = firstPerTarget(dwd);
        List<Act> theirs = firstPerTarget(original);
        if (ours.isEmpty() && theirs.isEmpty()) {
            throw new IllegalArgumentException("an episode has at least one action");
        }
        if (theirs.isEmpty()) {
            return new Judgement(Outcome.DWD_ONLY, "the original did not act on " + labels(ours), Optional.empty());
        }
        if (ours.isEmpty()) {
            return new Judgement(Outcome.ORIGINAL_ONLY, "dwd would not have acted on " + labels(theirs), Optional.empty());
        }
        Optional<Duration> lead = Optional.of(Duration.between(earliest(ours), earliest(theirs)));
        Set<String> ourTargets = ours.stream().map(Act::target).collect(Collectors.toCollection(TreeSet::new));
        Set<String> theirTargets = theirs.stream().map(Act::target).collect(Collectors.toCollection(TreeSet::new));
        if (!ourTargets.equals(theirTargets)) {
            return new Judgement(Outcome.DIFFERENT, "other targets: dwd " + labels(ours) + ", the original "
                    + labels(theirs), lead);
        }
        Map<String, Act> theirsByTarget = theirs.stream().collect(Collectors.toMap(Act::target, Function.identity()));
        for (Act our : ours) {
            Act their = theirsByTarget.get(our.target());
            if (our.to() != their.to()) {
                return new Judgement(Outcome.DIFFERENT, "other replicas for " + our.label() + ": dwd " + our.to()
                        + ", the original " + their.to(), lead);
            }
        }
        for (Act a : ours) {
            for (Act b : ours) {
                Integer levelA = levels.get(a.target());
                Integer levelB = levels.get(b.target());
                if (levelA == null || levelB == null || levelA.equals(levelB)) {
                    continue;
                }
                // Only an order one side shows strictly can be contradicted: equal sequences tell none.
                Act theirA = theirsByTarget.get(a.target());
                Act theirB = theirsByTarget.get(b.target());
                if (a.sequence() < b.sequence() && theirA.sequence() > theirB.sequence()) {
                    return new Judgement(Outcome.DIFFERENT, "other level order: dwd " + labels(ours) + ", the original "
                            + labels(theirs), lead);
                }
            }
        }
        return new Judgement(Outcome.BOTH, "same " + (levels.isEmpty() ? "pods" : "dependents in the same order")
                + ": " + labels(ours), lead);
    }

    /** Each target's first action, in the side's order ({@link Act#sequence}). */
    public static List<Act> firstPerTarget(List<Act> acts) {
        var sorted = new ArrayList<>(acts);
        sorted.sort(Comparator.comparingLong(Act::sequence));
        var seen = new java.util.HashSet<String>();
        return sorted.stream().filter(act -> seen.add(act.target())).toList();
    }

    private static Instant earliest(List<Act> acts) {
        return acts.stream().map(Act::at).min(Instant::compareTo).orElseThrow();
    }

    private static String labels(List<Act> acts) {
        return acts.stream().map(act -> act.from() == act.to() ? act.label() : act.label() + " " + act.from() + "→" + act.to())
                .collect(Collectors.joining(", "));
    }
}
