package dwd.domain.status;

import java.util.ArrayList;
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
     * Reads the status model from an object document. Absent fields are 0 or empty, as in the
     * Go original; fields of the wrong type are reported, never guessed.
     *
     * @throws MalformedObjectException naming the first field that has the wrong type; a condition
     *     entry must at least have a string {@code type}
     */
    public static ObjectStatus from(ObjectDocument document) {
        long generation = document.requiredTypeInteger("metadata.generation").orElse(0);
        long observedGeneration = document.requiredTypeInteger("status.observedGeneration").orElse(0);
        List<?> entries = document.requiredTypeList("status.conditions");
        List<Condition> conditions = new ArrayList<>(entries.size());
        for (int index = 0; index < entries.size(); index++) {
            String path = "status.conditions[" + index + "]";
            if (!(entries.get(index) instanceof Map<?, ?> entry)) {
                throw new MalformedObjectException(path, "expected a mapping, found " + ObjectDocument.describe(entries.get(index)));
            }
            @SuppressWarnings("unchecked")
            var fields = ObjectDocument.of((Map<String, ?>) entry);
            String type = withPath(path, () -> fields.requiredTypeString("type"))
                    .orElseThrow(() -> new MalformedObjectException(path + ".type", "missing; every condition needs a type"));
            conditions.add(new Condition(
                    type,
                    withPath(path, () -> fields.requiredTypeString("status")).orElse(""),
                    withPath(path, () -> fields.requiredTypeString("reason")).orElse(""),
                    withPath(path, () -> fields.requiredTypeString("message")).orElse(""),
                    withPath(path, () -> fields.requiredTypeInteger("observedGeneration")).orElse(0)));
        }
        return new ObjectStatus(generation, observedGeneration, conditions);
    }

    /** Shorthand for {@code from(ObjectDocument.of(document))}. */
    public static ObjectStatus from(Map<String, ?> document) {
        return from(ObjectDocument.of(document));
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
