package dwd.domain.status;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The kstatus of an object: the status, a human-readable message, and the standard conditions that
 * describe it (one {@code Reconciling=True} for InProgress, one {@code Stalled=True} for Failed,
 * none otherwise).
 *
 * @param unreadable for {@link KstatusStatus#UNKNOWN}: the field that kstatus could not read as it
 *     reads it (a wrong type, an explicit null where it looks a value up); empty when the status is
 *     known or unknown for another reason (a Pod phase kstatus has no rule for)
 */
public record KstatusResult(KstatusStatus status, String message, List<KstatusCondition> conditions,
        Optional<FieldProblem> unreadable) {

    public KstatusResult {
        Objects.requireNonNull(status, "status");
        message = Objects.requireNonNullElse(message, "");
        conditions = List.copyOf(conditions);
        Objects.requireNonNull(unreadable, "unreadable");
    }

    public KstatusResult(KstatusStatus status, String message, List<KstatusCondition> conditions) {
        this(status, message, conditions, Optional.empty());
    }

    static KstatusResult current(String message) {
        return new KstatusResult(KstatusStatus.CURRENT, message, List.of());
    }

    static KstatusResult inProgress(String reason, String message) {
        return new KstatusResult(KstatusStatus.IN_PROGRESS, message,
                List.of(new KstatusCondition(Condition.RECONCILING, Condition.TRUE, reason, message)));
    }

    static KstatusResult failed(String reason, String message) {
        return failed(reason, message, message);
    }

    /** Failed, where the result's message and the Stalled condition's message differ. */
    static KstatusResult failed(String reason, String conditionMessage, String resultMessage) {
        return new KstatusResult(KstatusStatus.FAILED, resultMessage,
                List.of(new KstatusCondition(Condition.STALLED, Condition.TRUE, reason, conditionMessage)));
    }

    /** Unknown, carrying the error that kept the status from being computed. */
    public static KstatusResult unknown(String error) {
        return new KstatusResult(KstatusStatus.UNKNOWN, error, List.of());
    }

    /** Unknown because a field cannot be read; the message is the field and its problem. */
    public static KstatusResult unreadable(FieldProblem field) {
        return new KstatusResult(KstatusStatus.UNKNOWN, field.describe(), List.of(), Optional.of(field));
    }

    /** The reason of the attached condition, if there is one (e.g. {@code LessReplicas}). */
    public Optional<String> reason() {
        return conditions.stream().map(KstatusCondition::reason).filter(reason -> !reason.isEmpty()).findFirst();
    }
}
