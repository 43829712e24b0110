package dwd.domain.status;

import java.util.Objects;

/**
 * A field of an object that cannot be read as a rule needs it: its path and what is wrong with it.
 *
 * @param fieldPath the dotted path, list indexes in brackets ({@code status.conditions[2].status}); empty for the
 *     object as a whole
 * @param problem what is wrong, without the path ({@code expected an integer, found "12" (a string)})
 */
public record FieldProblem(String fieldPath, String problem) {

    public FieldProblem {
        Objects.requireNonNull(fieldPath, "fieldPath");
        Objects.requireNonNull(problem, "problem");
    }

    /** {@code path: problem}, or the problem alone for the object as a whole. */
    public String describe() {
        return fieldPath.isEmpty() ? problem : fieldPath + ": " + problem;
    }

    @Override
    public String toString() {
        return describe();
    }
}
