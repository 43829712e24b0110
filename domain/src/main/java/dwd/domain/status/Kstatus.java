package dwd.domain.status;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * kstatus' {@code Compute}: the status of any Kubernetes object from the object alone (it never
 * calls a cluster). Generic rules first (deletion, generation, Reconciling/Stalled), then the rule
 * of the object's kind if it has one, then Ready, then Current.
 *
 * <p>Fields are read as kstatus reads them from Go's unstructured objects ({@link KstatusFields}): the
 * fields it looks up strictly ({@code metadata.deletionTimestamp}, both generations,
 * {@code status.conditions}, {@code status.containerStatuses}) fail on a wrong type and on an explicit
 * null, while a null on the way reads as absent; counts and other fields fall back to their defaults.
 *
 * <p>Where kstatus returns an error, this returns {@link KstatusStatus#UNKNOWN} with the error as
 * the message, which is what kstatus' polling layer makes of it.
 */
public final class Kstatus {

    private Kstatus() {
    }

    /**
     * Computes the status of an object.
     *
     * @param object the whole object, status included
     * @param now the current time; only the Pod rule looks at it (its 15 s scheduling window)
     */
    public static KstatusResult compute(Map<String, ?> object, Instant now) {
        try {
            return computeOrFail(ObjectDocument.of(object), now);
        } catch (KstatusFields.Unreadable unreadable) {
            return KstatusResult.unreadable(unreadable.field());
        }
    }

    private static KstatusResult computeOrFail(ObjectDocument object, Instant now) {
        Optional<String> deletionTimestamp = KstatusFields.nestedString(object, "metadata.deletionTimestamp");
        if (deletionTimestamp.isPresent() && !deletionTimestamp.get().isEmpty()) {
            return new KstatusResult(KstatusStatus.TERMINATING, "Resource scheduled for deletion", List.of());
        }
        Optional<KstatusResult> generation = generationNotObserved(object);
        if (generation.isPresent()) {
            return generation.get();
        }
        List<KstatusCondition> conditions = KstatusFields.conditions(object);
        for (KstatusCondition condition : conditions) {
            // Whichever of the two comes first in the list decides.
            if (condition.type().equals(Condition.RECONCILING) && condition.status().equals(Condition.TRUE)) {
                return KstatusResult.inProgress(condition.reason(), condition.message());
            }
            if (condition.type().equals(Condition.STALLED) && condition.status().equals(Condition.TRUE)) {
                return KstatusResult.failed(condition.reason(), condition.message());
            }
        }
        Optional<KstatusResult> byKind = KstatusRules.forKind(object, conditions, now);
        if (byKind.isPresent()) {
            return byKind.get();
        }
        for (KstatusCondition condition : conditions) {
            if (!condition.type().equals(Condition.READY)) {
                continue;
            }
            switch (condition.status()) {
                case Condition.TRUE -> {
                    return KstatusResult.current("Resource is Ready");
                }
                case Condition.FALSE, Condition.UNKNOWN -> {
                    return KstatusResult.inProgress(condition.reason(), condition.message());
                }
                default -> {
                    // A Ready with any other status says nothing; look further.
                }
            }
        }
        return KstatusResult.current("Resource is current");
    }

    /** Lenient: when either generation is absent there is nothing to compare. */
    private static Optional<KstatusResult> generationNotObserved(ObjectDocument object) {
        OptionalLong generation = KstatusFields.nestedInt64(object, "metadata.generation");
        if (generation.isEmpty()) {
            return Optional.empty();
        }
        OptionalLong observed = KstatusFields.nestedInt64(object, "status.observedGeneration");
        if (observed.isEmpty() || observed.getAsLong() == generation.getAsLong()) {
            return Optional.empty();
        }
        String message = object.identity().kind() + " generation is " + generation.getAsLong()
                + ", but latest observed generation is " + observed.getAsLong();
        return Optional.of(KstatusResult.inProgress("LatestGenerationNotObserved", message));
    }
}
