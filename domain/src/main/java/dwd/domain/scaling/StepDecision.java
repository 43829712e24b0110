package dwd.domain.scaling;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one scale step does with its dependent, decided on the dependent as seen at one moment. The
 * step sends what the decision says and nothing else; after a conflict it decides again on a fresh
 * read. Annotation changes map a key to its new value, or to empty for a removal.
 */
public sealed interface StepDecision {

    /**
     * The decision of a step scaling {@code direction}, on {@code seen} (empty: the dependent does not exist):
     * <ol>
     *   <li>absent: skipped when optional, else missing;</li>
     *   <li>{@code ignore-scaling}: skipped, and a meltdown annotation dwd left on it removed;</li>
     *   <li>already where the step takes it: nothing to do, and a scale-up removes a leftover record;</li>
     *   <li>a scale-down: to 0, recording the count it replaces;</li>
     *   <li>a scale-up: to the recorded count (1 without a record), removing the record; an unusable record
     *       is a failure that retrying cannot mend.</li>
     * </ol>
     */
    static StepDecision decide(ScaleDirection direction, ScaleStep step, Optional<? extends SeenDependent> seen) {
        if (seen.isEmpty()) {
            return step.optional() ? new Skip("not found; it is optional", Map.of()) : new Missing();
        }
        Map<String, String> annotations = seen.get().annotations();
        int replicas = seen.get().specReplicas();
        boolean protectedByDwd = annotations.containsKey(Annotations.MELTDOWN_PROTECTION_ACTIVE);
        if (ScalingRules.ignoreScaling(annotations)) {
            return new Skip(Annotations.IGNORE_SCALING + " is true",
                    protectedByDwd ? removal(Annotations.MELTDOWN_PROTECTION_ACTIVE) : Map.of());
        }
        if (!ScalingRules.needsAction(direction, replicas)) {
            // Up already with the record left: someone scaled it up, or a crash came between dwd's scale and clean-up.
            boolean leftoverRecord = direction == ScaleDirection.UP && protectedByDwd;
            return new NothingToDo(leftoverRecord
                    ? removal(Annotations.REPLICAS, Annotations.MELTDOWN_PROTECTION_ACTIVE) : Map.of());
        }
        return switch (direction) {
            case DOWN -> new Scale(direction, replicas, 0, record(replicas));
            case UP -> switch (ScalingRules.scaleUpTarget(annotations, step.ref().name())) {
                case ScaleUpTarget.Replicas target -> new Scale(direction, replicas, target.replicas(),
                        removal(Annotations.REPLICAS, Annotations.MELTDOWN_PROTECTION_ACTIVE));
                case ScaleUpTarget.UnusableAnnotation unusable -> new UnusableRecord(unusable.message());
            };
        };
    }

    /** Whether the dependent is not where the step takes it: a scale is due (or its record is unusable). */
    default boolean needsScaling() {
        return this instanceof Scale || this instanceof UnusableRecord;
    }

    /** Leave the dependent as it is, after the annotation changes of {@code cleanUp} (none when empty). */
    record Skip(String reason, Map<String, Optional<String>> cleanUp) implements StepDecision {
        public Skip {
            Objects.requireNonNull(reason, "reason");
            cleanUp = ordered(cleanUp);
        }
    }

    /** The dependent is where the step takes it; {@code cleanUp} (none when empty) removes a leftover record. */
    record NothingToDo(Map<String, Optional<String>> cleanUp) implements StepDecision {
        public NothingToDo {
            cleanUp = ordered(cleanUp);
        }

        /** Nothing to send at all. */
        public boolean sendsNothing() {
            return cleanUp.isEmpty();
        }
    }

    /**
     * Scale from {@code from} to {@code to} replicas, with the annotation changes that keep the count: a
     * scale-down records the count before (or with) the scale, a scale-up removes the record after (or with)
     * it. Whatever fails when, the count is on the dependent or in its record.
     */
    record Scale(ScaleDirection direction, int from, int to, Map<String, Optional<String>> annotations)
            implements StepDecision {
        public Scale {
            Objects.requireNonNull(direction, "direction");
            annotations = ordered(annotations);
        }

        /** Whether the annotations go first, when the scale and the annotations are two writes. */
        public boolean annotationsFirst() {
            return direction == ScaleDirection.DOWN;
        }

        /** Whether {@code readyReplicas} show the scale done: up, at least one ready; down, none. */
        public boolean reachedBy(int readyReplicas) {
            return direction == ScaleDirection.UP ? readyReplicas >= 1 : readyReplicas == 0;
        }
    }

    /** A dependent the step may not do without does not exist. */
    record Missing() implements StepDecision {
    }

    /** The scale-up's record holds no usable count; {@code message} says which and how to mend it. */
    record UnusableRecord(String message) implements StepDecision {
        public UnusableRecord {
            Objects.requireNonNull(message, "message");
        }
    }

    private static Map<String, Optional<String>> record(int replicas) {
        var record = new LinkedHashMap<String, Optional<String>>();
        record.put(Annotations.REPLICAS, Optional.of(Integer.toString(replicas)));
        record.put(Annotations.MELTDOWN_PROTECTION_ACTIVE, Optional.of(""));
        return record;
    }

    private static Map<String, Optional<String>> removal(String... keys) {
        var removal = new LinkedHashMap<String, Optional<String>>();
        for (String key : keys) {
            removal.put(key, Optional.empty());
        }
        return removal;
    }

    private static Map<String, Optional<String>> ordered(Map<String, Optional<String>> changes) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(changes, "changes")));
    }
}
