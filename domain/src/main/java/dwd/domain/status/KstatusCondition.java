package dwd.domain.status;

/** A condition kstatus attaches to a result: {@code Reconciling} for InProgress, {@code Stalled} for Failed. */
public record KstatusCondition(String type, String status, String reason, String message) {
}
