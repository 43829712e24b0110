package dwd.domain.status;

/**
 * The conditions-and-generations checks, in the order they run: all warnings, then all failures.
 * Each has a stable code and the one-line meaning the checker's design brief gives it.
 */
public enum CheckCode {
    WARN0001(Severity.WARNING, "Negative polarity condition present when Ready condition is True"),
    WARN0002(Severity.WARNING, "Ready condition should have the value of the negative polarity condition that's present with the highest priority"),
    WARN0003(Severity.WARNING, "Reconciling condition can be removed when its value is False"),
    WARN0004(Severity.WARNING, "Stalled condition can be removed when its value is False"),
    WARN0005(Severity.WARNING, "Missing ObservedGeneration from status condition"),
    FAIL0001(Severity.FAILURE, "Negative polarity condition cannot be True when Ready condition is True"),
    FAIL0002(Severity.FAILURE, "Ready condition must always be present"),
    FAIL0003(Severity.FAILURE, "Ready condition must be False when Reconciling condition is True"),
    FAIL0004(Severity.FAILURE, "Ready condition must be False when Stalled condition is True"),
    FAIL0005(Severity.FAILURE, "Only one of Reconciling condition or Stalled condition must be present at a time"),
    FAIL0006(Severity.FAILURE, "The ObservedGeneration must be less than or equal to the object Generation"),
    FAIL0007(Severity.FAILURE, "Ready condition must be False when the ObservedGeneration is less than the object Generation"),
    FAIL0008(Severity.FAILURE, "Ready condition must be False when any of the status condition's ObservedGeneration is less than the object Generation"),
    FAIL0009(Severity.FAILURE, "The status conditions' ObservedGenerations must be equal to the root ObservedGeneration when Ready condition is True"),
    FAIL0010(Severity.FAILURE, "The root ObservedGeneration must be less than the Reconciling condition ObservedGeneration when Reconciling condition is True");

    private final Severity severity;
    private final String meaning;

    CheckCode(Severity severity, String meaning) {
        this.severity = severity;
        this.meaning = meaning;
    }

    public Severity severity() {
        return severity;
    }

    /** What the check asserts; also the start of every message it produces. */
    public String meaning() {
        return meaning;
    }
}
