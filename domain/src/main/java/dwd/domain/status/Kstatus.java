package dwd.domain.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * kstatus' {@code Compute}: the status of any Kubernetes object from the object alone (it never
 * calls a cluster). Generic rules first (deletion, generation, Reconciling/Stalled), then the rule
 * of the object's kind if it has one, then Ready, then Current.
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
        } catch (ComputeError error) {
            return KstatusResult.unknown(error.getMessage());
        }
    }

    private static KstatusResult computeOrFail(ObjectDocument object, Instant now) {
        Optional<String> deletionTimestamp = lookUp("metadata.deletionTimestamp",
                () -> object.requiredTypeString("metadata.deletionTimestamp"));
        if (deletionTimestamp.isPresent() && !deletionTimestamp.get().isEmpty()) {
            return new KstatusResult(KstatusStatus.TERMINATING, "Resource scheduled for deletion", List.of());
        }
        Optional<KstatusResult> generation = generationNotObserved(object);
        if (generation.isPresent()) {
            return generation.get();
        }
        List<KstatusCondition> conditions = conditions(object);
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
        OptionalLong generation = lookUp("metadata.generation", () -> object.requiredTypeInteger("metadata.generation"));
        if (generation.isEmpty()) {
            return Optional.empty();
        }
        OptionalLong observed = lookUp("status.observedGeneration",
                () -> object.requiredTypeInteger("status.observedGeneration"));
        if (observed.isEmpty() || observed.getAsLong() == generation.getAsLong()) {
            return Optional.empty();
        }
        String message = object.identity().kind() + " generation is " + generation.getAsLong()
                + ", but latest observed generation is " + observed.getAsLong();
        return Optional.of(KstatusResult.inProgress("LatestGenerationNotObserved", message));
    }

    /**
     * {@code status.conditions} as kstatus reads them: entries with string type, status, reason and
     * message (each empty when absent). A wrongly shaped list is an error.
     */
    static List<KstatusCondition> conditions(ObjectDocument object) {
        List<?> entries = lookUp("status.conditions", () -> object.requiredTypeList("status.conditions"));
        var conditions = new ArrayList<KstatusCondition>(entries.size());
        for (int index = 0; index < entries.size(); index++) {
            String path = "status.conditions[" + index + "]";
            if (!(entries.get(index) instanceof Map<?, ?> entry)) {
                throw new ComputeError("reading status.conditions from resource: " + path
                        + ": expected a mapping, found " + ObjectDocument.describe(entries.get(index)));
            }
            conditions.add(new KstatusCondition(
                    conditionField(entry, path, "type"), conditionField(entry, path, "status"),
                    conditionField(entry, path, "reason"), conditionField(entry, path, "message")));
        }
        return conditions;
    }

    private static String conditionField(Map<?, ?> entry, String path, String key) {
        Object value = entry.get(key);
        if (value == null) {
            return "";
        }
        if (value instanceof String text) {
            return text;
        }
        throw new ComputeError("reading status.conditions from resource: " + path + "." + key
                + ": expected a string, found " + ObjectDocument.describe(value));
    }

    interface Lookup<T> {
        T read();
    }

    /** Runs a strict read and turns a type error into kstatus' "looking up … from resource" error. */
    static <T> T lookUp(String field, Lookup<T> read) {
        try {
            return read.read();
        } catch (MalformedObjectException e) {
            throw new ComputeError("looking up " + field + " from resource: " + e.getMessage());
        }
    }

    /** An object kstatus cannot compute a status for. */
    static final class ComputeError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ComputeError(String message) {
            super(message);
        }
    }
}
