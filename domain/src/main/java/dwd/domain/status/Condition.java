package dwd.domain.status;

import java.util.Objects;

/**
 * One entry of {@code status.conditions}, as {@code metav1.Condition} has it. Statuses are kept as
 * written: the checks compare them with the exact strings {@code "True"} and {@code "False"}.
 *
 * @param observedGeneration 0 when the entry has none
 */
public record Condition(String type, String status, String reason, String message, long observedGeneration) {

    /** The condition every object must have (FAIL0002). */
    public static final String READY = "Ready";
    /** kstatus' "a reconcile is under way" condition. */
    public static final String RECONCILING = "Reconciling";
    /** kstatus' "the reconcile cannot make progress" condition. */
    public static final String STALLED = "Stalled";

    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";

    public Condition {
        Objects.requireNonNull(type, "type");
        status = Objects.requireNonNullElse(status, "");
        reason = Objects.requireNonNullElse(reason, "");
        message = Objects.requireNonNullElse(message, "");
    }

    /** A condition with the given status and generation, without reason or message. */
    public static Condition of(String type, String status, long observedGeneration) {
        return new Condition(type, status, "", "", observedGeneration);
    }

    public boolean isTrue() {
        return TRUE.equals(status);
    }

    public boolean isFalse() {
        return FALSE.equals(status);
    }
}
