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
 * <p>Fields are read as kstatus reads them from Go's unstructured objects: the fields it looks up
 * strictly ({@code metadata.deletionTimestamp}, both generations, {@code status.conditions},
 * {@code status.containerStatuses}) fail on a wrong type and on an explicit null, while a null on the
 * way reads as absent; counts and other fields fall back to their defaults.
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
        } catch (Unreadable unreadable) {
            return KstatusResult.unreadable(unreadable.field);
        } catch (ComputeError error) {
            return KstatusResult.unknown(error.getMessage());
        }
    }

    private static KstatusResult computeOrFail(ObjectDocument object, Instant now) {
        Optional<String> deletionTimestamp = nestedString(object, "metadata.deletionTimestamp");
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
        OptionalLong generation = nestedInt64(object, "metadata.generation");
        if (generation.isEmpty()) {
            return Optional.empty();
        }
        OptionalLong observed = nestedInt64(object, "status.observedGeneration");
        if (observed.isEmpty() || observed.getAsLong() == generation.getAsLong()) {
            return Optional.empty();
        }
        String message = object.identity().kind() + " generation is " + generation.getAsLong()
                + ", but latest observed generation is " + observed.getAsLong();
        return Optional.of(KstatusResult.inProgress("LatestGenerationNotObserved", message));
    }

    /**
     * {@code status.conditions} as kstatus converts them into its typed conditions: absent or null
     * {@code status} or list means none, a null entry is an empty condition, and each entry's type,
     * status, reason and message are strings (absent or null: empty). Anything else is an error.
     */
    static List<KstatusCondition> conditions(ObjectDocument object) {
        ObjectDocument.Nested status = nested(object, "status");
        if (status.value() == null) {
            return List.of();
        }
        if (!(status.value() instanceof Map<?, ?> statusFields)) {
            throw new Unreadable("status", "expected a mapping, found " + ObjectDocument.describe(status.value()));
        }
        Object list = statusFields.get("conditions");
        if (list == null) {
            return List.of();
        }
        if (!(list instanceof List<?> entries)) {
            throw new Unreadable("status.conditions", "expected a list, found " + ObjectDocument.describe(list));
        }
        var conditions = new ArrayList<KstatusCondition>(entries.size());
        for (int index = 0; index < entries.size(); index++) {
            String path = "status.conditions[" + index + "]";
            Object entry = entries.get(index);
            if (entry == null) {
                conditions.add(new KstatusCondition("", "", "", ""));
                continue;
            }
            if (!(entry instanceof Map<?, ?> fields)) {
                throw new Unreadable(path, "expected a mapping, found " + ObjectDocument.describe(entry));
            }
            conditions.add(new KstatusCondition(
                    conditionField(fields, path, "type"), conditionField(fields, path, "status"),
                    conditionField(fields, path, "reason"), conditionField(fields, path, "message")));
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
        throw new Unreadable(path + "." + key, "expected a string, found " + ObjectDocument.describe(value)
                + ObjectDocument.hintFor(value));
    }

    /** Go's {@code NestedFieldNoCopy}; a step on the way that is not a mapping is unreadable. */
    static ObjectDocument.Nested nested(ObjectDocument object, String path) {
        try {
            return object.nested(path);
        } catch (MalformedObjectException e) {
            throw new Unreadable(e.field());
        }
    }

    /** Go's {@code NestedInt64}: absent is empty; present, it must be an integer (an explicit null is not). */
    static OptionalLong nestedInt64(ObjectDocument object, String path) {
        ObjectDocument.Nested field = nested(object, path);
        if (!field.found()) {
            return OptionalLong.empty();
        }
        return ObjectDocument.asInteger(field.value()).map(OptionalLong::of).orElseThrow(
                () -> new Unreadable(path, "expected an integer, found " + ObjectDocument.describe(field.value())));
    }

    /** Go's {@code NestedString}: absent is empty; present, it must be a string (an explicit null is not). */
    static Optional<String> nestedString(ObjectDocument object, String path) {
        ObjectDocument.Nested field = nested(object, path);
        if (!field.found()) {
            return Optional.empty();
        }
        if (field.value() instanceof String text) {
            return Optional.of(text);
        }
        throw new Unreadable(path, "expected a string, found " + ObjectDocument.describe(field.value()));
    }

    /** Go's {@code NestedSlice}: absent is empty; present, it must be a list (an explicit null is not). */
    static List<?> nestedList(ObjectDocument object, String path) {
        ObjectDocument.Nested field = nested(object, path);
        if (!field.found()) {
            return List.of();
        }
        if (field.value() instanceof List<?> list) {
            return list;
        }
        throw new Unreadable(path, "expected a list, found " + ObjectDocument.describe(field.value()));
    }

    /** An object kstatus cannot compute a status for. */
    static class ComputeError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ComputeError(String message) {
            super(message);
        }
    }

    /** A field kstatus cannot read as it needs it. */
    static final class Unreadable extends ComputeError {
        private static final long serialVersionUID = 1L;

        private final transient FieldProblem field;

        Unreadable(String fieldPath, String problem) {
            this(new FieldProblem(fieldPath, problem));
        }

        Unreadable(FieldProblem field) {
            super(field.describe());
            this.field = field;
        }
    }
}
