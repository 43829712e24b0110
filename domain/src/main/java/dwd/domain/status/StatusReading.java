package dwd.domain.status;

import java.util.EnumMap;
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

    /** A status whose every part was read. */
    public static StatusReading of(ObjectStatus status) {
        return new StatusReading(status, Map.of());
    }

    /** Whether every input the check needs could be read. */
    public boolean canRun(CheckCode code) {
        return code.inputs().stream().noneMatch(unreadable::containsKey);
    }
}
