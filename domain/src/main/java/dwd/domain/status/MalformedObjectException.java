package dwd.domain.status;

/**
 * An object document whose fields do not have the shape a Kubernetes object has, e.g. a
 * {@code metadata.generation} that is not an integer. Carries the path of the offending field, so
 * that a reader that knows where each field came from (a file and a line) can say where it is.
 */
public final class MalformedObjectException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient FieldProblem field;

    public MalformedObjectException(String fieldPath, String problem) {
        this(new FieldProblem(fieldPath, problem));
    }

    public MalformedObjectException(FieldProblem field) {
        super(field.describe());
        this.field = field;
    }

    /** The field and what is wrong with it. */
    public FieldProblem field() {
        return field;
    }

    /** The dotted path of the field, with list indexes in brackets: {@code status.conditions[2].status}. */
    public String fieldPath() {
        return field.fieldPath();
    }

    /** What is wrong with the field, without its path. */
    public String problem() {
        return field.problem();
    }
}
