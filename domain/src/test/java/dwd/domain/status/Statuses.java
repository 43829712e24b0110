package dwd.domain.status;

import java.util.List;

/** Builders for status models in tests: {@code status(gen, rootOG, ready(TRUE, 3), ...)}. */
final class Statuses {

    static final String TRUE = Condition.TRUE;
    static final String FALSE = Condition.FALSE;
    static final String UNKNOWN = Condition.UNKNOWN;

    private Statuses() {
    }

    static ObjectStatus status(long generation, long observedGeneration, Condition... conditions) {
        return new ObjectStatus(generation, observedGeneration, List.of(conditions));
    }

    /** Generation 1, root observedGeneration 1. */
    static ObjectStatus status(Condition... conditions) {
        return status(1, 1, conditions);
    }

    static Condition condition(String type, String status, long observedGeneration) {
        return Condition.of(type, status, observedGeneration);
    }

    static Condition condition(String type, String status) {
        return Condition.of(type, status, 1);
    }

    static Condition condition(String type, String status, String reason, String message) {
        return new Condition(type, status, reason, message, 1);
    }

    static Condition ready(String status) {
        return condition(Condition.READY, status);
    }

    static Condition ready(String status, long observedGeneration) {
        return condition(Condition.READY, status, observedGeneration);
    }

    static Condition reconciling(String status) {
        return condition(Condition.RECONCILING, status);
    }

    static Condition stalled(String status) {
        return condition(Condition.STALLED, status);
    }
}
