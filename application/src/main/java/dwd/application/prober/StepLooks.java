package dwd.application.prober;

import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.scaling.ScaleStep;
import dwd.domain.scaling.StepDecision;
import dwd.domain.scaling.StepDecision.NothingToDo;
import dwd.domain.scaling.StepDecision.Scale;
import java.util.Optional;

/**
 * What a shoot's scale steps decide on: the dependent as the seed's cache or a read shows it. The cache
 * may decide a step's first look, while no write of the dependent is in doubt, when its copy shows a
 * scale (written at the copy's version, so a copy behind ends in a conflict, never in a wrong write) or,
 * before the step's initial delay, nothing at all to send (a healthy shoot's check sends no request).
 * Anything else is decided on a read: a skip, a clean-up, a decision after the delay, after a conflict
 * or a failed attempt.
 */
final class StepLooks {

    /** Where a step's view of its dependent came from. */
    enum Source {
        CACHE("the cache's copy"), SERVER("a read");

        private final String described;

        Source(String described) {
            this.described = described;
        }

        @Override
        public String toString() {
            return described;
        }
    }

    /** The dependent as a step decides on it ({@code seen}, empty when it does not exist), the decision, and its source. */
    record Look(Optional<ScalableResource> seen, StepDecision decision, Source source) { }

    private final String namespace;
    private final ScalableResources resources;
    private final WritesInDoubt doubts;

    StepLooks(String namespace, ScalableResources resources, WritesInDoubt doubts) {
        this.namespace = namespace;
        this.resources = resources;
        this.doubts = doubts;
    }

    /**
     * The dependent of {@code step} and the decision on it.
     *
     * @param firstLook whether this is the step's first look (the first decision of its first attempt)
     * @param delayed   whether the step has waited its initial delay
     * @param budget    the step's, which gives a read its time
     */
    Look look(ScaleStep step, ScaleDirection direction, boolean firstLook, boolean delayed, StepBudget budget) {
        if (firstLook && doubts.of(step.ref()).isEmpty()) {
            Optional<ScalableResource> cached = resources.cached(namespace, step.ref());
            Optional<StepDecision> onCache = cached.map(copy -> StepDecision.decide(direction, step, Optional.of(copy)));
            if (onCache.filter(decided -> decided instanceof Scale || !delayed && sendsNothing(decided)).isPresent()) {
                return new Look(cached, onCache.get(), Source.CACHE);
            }
        }
        Optional<ScalableResource> seen = resources.read(namespace, step.ref(), budget.forRead());
        doubts.seen(step.ref(), seen);
        return new Look(seen, StepDecision.decide(direction, step, seen), Source.SERVER);
    }

    private static boolean sendsNothing(StepDecision decided) {
        return decided instanceof NothingToDo nothing && nothing.sendsNothing();
    }
}
