package dwd.domain.status;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An object's status model as far as it could be read: the parts that could not be read are in
 * {@code unreadable}, with the field and what is wrong with it, and read as 0 or empty in {@code status}.
 * The checks that need an unreadable part do not run; every other check does.
 */
public record StatusReading(ObjectStatus status, Map<StatusInput, FieldProblem> unreadable) {

    public StatusReading {
        Objects.requireNonNull(status, "status");
        unreadable = unreadable.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(unreadable));
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

    /** A status whose every part was read. */
    public static StatusReading of(ObjectStatus status) {
        return new StatusReading(status, Map.of());
    }

    /**
     * The status, read strictly.
     *
     * @throws MalformedObjectException naming the first field that could not be read (see {@link #read})
     */
    public ObjectStatus statusOrThrow() {
        for (StatusInput input : StatusInput.values()) {
            FieldProblem problem = unreadable.get(input);
            if (problem != null) {
                throw new MalformedObjectException(problem);
            }
        }
        return status;
    }

    /** Whether every input the check needs could be read. */
    public boolean canRun(CheckCode code) {
        return code.inputs().stream().noneMatch(unreadable::containsKey);
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
