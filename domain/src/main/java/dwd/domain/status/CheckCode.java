package dwd.domain.status;

import java.util.EnumSet;
import java.util.Set;

/**
 * The conditions-and-generations checks, in the order they run: all warnings, then all failures.
 * Each has a stable code, the one-line meaning the checker's design brief gives it, and the parts of
 * the object it reads. {@link #FAIL0000} is dwd's own: a part the checks need cannot be read.
 */
public enum CheckCode {
    WARN0001(Severity.WARNING, "Negative polarity condition present when Ready condition is True", StatusInput.CONDITIONS),
    WARN0002(Severity.WARNING, "Ready condition should have the value of the negative polarity condition that's present with the highest priority",
            StatusInput.CONDITIONS),
    WARN0003(Severity.WARNING, "Reconciling condition can be removed when its value is False", StatusInput.CONDITIONS),
    WARN0004(Severity.WARNING, "Stalled condition can be removed when its value is False", StatusInput.CONDITIONS),
    WARN0005(Severity.WARNING, "Missing ObservedGeneration from status condition", StatusInput.CONDITIONS),
    FAIL0000(Severity.FAILURE, "The object cannot be read as the checks need it"),
    FAIL0001(Severity.FAILURE, "Negative polarity condition cannot be True when Ready condition is True", StatusInput.CONDITIONS),
    FAIL0002(Severity.FAILURE, "Ready condition must always be present", StatusInput.CONDITIONS),
    FAIL0003(Severity.FAILURE, "Ready condition must be False when Reconciling condition is True", StatusInput.CONDITIONS),
    FAIL0004(Severity.FAILURE, "Ready condition must be False when Stalled condition is True", StatusInput.CONDITIONS),
    FAIL0005(Severity.FAILURE, "Only one of Reconciling condition or Stalled condition must be present at a time", StatusInput.CONDITIONS),
    FAIL0006(Severity.FAILURE, "The ObservedGeneration must be less than or equal to the object Generation",
            StatusInput.GENERATION, StatusInput.OBSERVED_GENERATION),
    FAIL0007(Severity.FAILURE, "Ready condition must be False when the ObservedGeneration is less than the object Generation",
            StatusInput.GENERATION, StatusInput.OBSERVED_GENERATION, StatusInput.CONDITIONS),
    FAIL0008(Severity.FAILURE, "Ready condition must be False when any of the status condition's ObservedGeneration is less than the object Generation",
            StatusInput.GENERATION, StatusInput.CONDITIONS),
    FAIL0009(Severity.FAILURE, "The status conditions' ObservedGenerations must be equal to the root ObservedGeneration when Ready condition is True",
            StatusInput.OBSERVED_GENERATION, StatusInput.CONDITIONS),
    FAIL0010(Severity.FAILURE, "The root ObservedGeneration must be less than the Reconciling condition ObservedGeneration when Reconciling condition is True",
            StatusInput.OBSERVED_GENERATION, StatusInput.CONDITIONS);

    private final Severity severity;
    private final String meaning;
    private final Set<StatusInput> inputs;

    CheckCode(Severity severity, String meaning, StatusInput... inputs) {
        this.severity = severity;
        this.meaning = meaning;
        this.inputs = inputs.length == 0 ? Set.of() : Set.copyOf(EnumSet.of(inputs[0], inputs));
    }

    public Severity severity() {
        return severity;
    }

    /** What the check asserts; also the start of every message it produces. */
    public String meaning() {
        return meaning;
    }

    /** The parts of the object the check reads. */
    public Set<StatusInput> inputs() {
        return inputs;
    }
}
