package dwd.domain.status;

import java.util.List;
import java.util.Optional;

/**
 * What the conditions-and-generations checks look at: {@code metadata.generation}, the root
 * {@code status.observedGeneration} and {@code status.conditions} in list order.
 *
 * <p>The lookups reproduce Flux's condition helpers, which decide the edge cases: a type is matched
 * exactly and only its first entry counts; "ready" means Ready is True while neither Reconciling nor
 * Stalled wins (see {@link #isReady()}). An object's status is read by {@link StatusReading#read}.
 *
 * @param generation {@code metadata.generation}, 0 when absent
 * @param observedGeneration {@code status.observedGeneration}, 0 when absent
 */
public record ObjectStatus(long generation, long observedGeneration, List<Condition> conditions) {

    public ObjectStatus {
        conditions = List.copyOf(conditions);
    }

    /** The first condition of that type. */
    public Optional<Condition> condition(String type) {
        return conditions.stream().filter(condition -> condition.type().equals(type)).findFirst();
    }

    public boolean has(String type) {
        return condition(type).isPresent();
    }

    /** The first condition of that type exists and its status is exactly {@code "True"}. */
    public boolean isTrue(String type) {
        return condition(type).map(Condition::isTrue).orElse(false);
    }

    /** Reconciling is True and Stalled is not. */
    public boolean isReconciling() {
        return isTrue(Condition.RECONCILING) && !isTrue(Condition.STALLED);
    }

    /** Stalled is True and Reconciling is not. */
    public boolean isStalled() {
        return isTrue(Condition.STALLED) && !isTrue(Condition.RECONCILING);
    }

    /**
     * Ready is True, and the object is neither reconciling nor stalled. When Reconciling and Stalled
     * are both True neither "wins", so this is just "Ready is True" (Flux's helper, kept as is).
     */
    public boolean isReady() {
        return isTrue(Condition.READY) && !isReconciling() && !isStalled();
    }
}
