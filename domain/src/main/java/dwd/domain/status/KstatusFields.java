package dwd.domain.status;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An object's fields read as kstatus reads them from Go's unstructured objects: the fields it looks up
 * strictly fail on a wrong type and on an explicit null ({@link Unreadable}), while a null on the way
 * reads as absent.
 */
final class KstatusFields {

    private KstatusFields() {
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
    private static ObjectDocument.Nested nested(ObjectDocument object, String path) {
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

    /** A field kstatus cannot read as it needs it: kstatus returns an error naming it. */
    static final class Unreadable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final transient FieldProblem field;

        Unreadable(String fieldPath, String problem) {
            this(new FieldProblem(fieldPath, problem));
        }

        Unreadable(FieldProblem field) {
            super(field.describe());
            this.field = field;
        }

        FieldProblem field() {
            return field;
        }
    }
}
