package dwd.domain.status;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the conditions-and-generations checks look at: {@code metadata.generation}, the root
 * {@code status.observedGeneration} and {@code status.conditions} in list order.
 *
 * <p>The lookups reproduce Flux's condition helpers, which decide the edge cases: a type is matched
 * exactly and only its first entry counts; "ready" means Ready is True while neither Reconciling nor
 * Stalled wins (see {@link #isReady()}).
 *
 * @param generation {@code metadata.generation}, 0 when absent
 * @param observedGeneration {@code status.observedGeneration}, 0 when absent
 */
public record ObjectStatus(long generation, long observedGeneration, List<Condition> conditions) {

    public ObjectStatus {
        conditions = List.copyOf(conditions);
    }

    /**
     * Reads the status model from an object document as controller-check reads it, through the typed
     * objects of Kubernetes' Go API: an absent or null field is 0 or empty (a condition without a type
     * has the type {@code ""}, a null entry is an empty condition); a field of the wrong type makes its
     * part unreadable, naming the field, and the other parts are still read.
     */
    public static StatusReading read(ObjectDocument document) {
        var unreadable = new EnumMap<StatusInput, FieldProblem>(StatusInput.class);
        long generation = readPart(StatusInput.GENERATION, unreadable, 0L,
                () -> document.requiredTypeInteger("metadata.generation").orElse(0));
        long observedGeneration = readPart(StatusInput.OBSERVED_GENERATION, unreadable, 0L,
                () -> document.requiredTypeInteger("status.observedGeneration").orElse(0));
        List<Condition> conditions = readPart(StatusInput.CONDITIONS, unreadable, List.of(), () -> conditions(document));
        return new StatusReading(new ObjectStatus(generation, observedGeneration, conditions), unreadable);
    }

    /** Shorthand for {@code read(ObjectDocument.of(document))}. */
    public static StatusReading read(Map<String, ?> document) {
        return read(ObjectDocument.of(document));
    }

    /**
     * Reads the status model, strictly.
     *
     * @throws MalformedObjectException naming the first field that cannot be read (see {@link #read})
     */
    public static ObjectStatus from(ObjectDocument document) {
        StatusReading reading = read(document);
        for (StatusInput input : StatusInput.values()) {
            FieldProblem problem = reading.unreadable().get(input);
            if (problem != null) {
                throw new MalformedObjectException(problem);
            }
        }
        return reading.status();
    }

    /** Shorthand for {@code from(ObjectDocument.of(document))}. */
    public static ObjectStatus from(Map<String, ?> document) {
        return from(ObjectDocument.of(document));
    }

    private static List<Condition> conditions(ObjectDocument document) {
        List<?> entries = document.requiredTypeList("status.conditions");
        List<Condition> conditions = new ArrayList<>(entries.size());
        for (int index = 0; index < entries.size(); index++) {
            String path = "status.conditions[" + index + "]";
            Object entry = entries.get(index);
            if (entry == null) {
                conditions.add(new Condition("", "", "", "", 0));
                continue;
            }
            if (!(entry instanceof Map<?, ?> map)) {
                throw new MalformedObjectException(path, "expected a mapping, found " + ObjectDocument.describe(entry));
            }
            @SuppressWarnings("unchecked")
            var fields = ObjectDocument.of((Map<String, ?>) map);
            conditions.add(new Condition(
                    withPath(path, () -> fields.requiredTypeString("type")).orElse(""),
                    withPath(path, () -> fields.requiredTypeString("status")).orElse(""),
                    withPath(path, () -> fields.requiredTypeString("reason")).orElse(""),
                    withPath(path, () -> fields.requiredTypeString("message")).orElse(""),
                    withPath(path, () -> fields.requiredTypeInteger("observedGeneration")).orElse(0)));
        }
        return conditions;
    }

    private static <T> T readPart(StatusInput input, Map<StatusInput, FieldProblem> unreadable, T unread, FieldRead<T> read) {
        try {
            return read.read();
        } catch (MalformedObjectException e) {
            unreadable.put(input, e.field());
            return unread;
        }
    }

    /** The first condition of that type. */
    public Optional<Condition> condition(String type) {
        return conditions.stream().filter(condition -> condition.type().equals(type)).findFirst();
    }

    public boolean has(String type) {
        return condition(type).isPresent();
    }

    /** The first condition of that type exists and its status is exactly {@code "True"}. */
    public boolean isTrue(String type) {
        return condition(type).map(Condition::isTrue).orElse(false);
    }

    /** Reconciling is True and Stalled is not. */
    public boolean isReconciling() {
        return isTrue(Condition.RECONCILING) && !isTrue(Condition.STALLED);
    }

    /** Stalled is True and Reconciling is not. */
    public boolean isStalled() {
        return isTrue(Condition.STALLED) && !isTrue(Condition.RECONCILING);
    }

    /**
     * Ready is True, and the object is neither reconciling nor stalled. When Reconciling and Stalled
     * are both True neither "wins", so this is just "Ready is True" (Flux's helper, kept as is).
     */
    public boolean isReady() {
        return isTrue(Condition.READY) && !isReconciling() && !isStalled();
    }

    private interface FieldRead<T> {
        T read();
    }

    /** Re-anchors a field error inside a condition entry to its full path. */
    private static <T> T withPath(String prefix, FieldRead<T> read) {
        try {
            return read.read();
        } catch (MalformedObjectException e) {
            throw new MalformedObjectException(prefix + "." + e.fieldPath(), e.problem());
        }
    }
}
