package dwd.domain.scaling;

import java.util.Objects;

/** The replica count a scale-up restores, or why the replicas annotation cannot say. */
public sealed interface ScaleUpTarget {

    /**
     * Scale up to {@code replicas}.
     *
     * @param fromAnnotation {@code false} when the annotation was absent and the default of 1 applies
     */
    record Replicas(int replicas, boolean fromAnnotation) implements ScaleUpTarget {
        public Replicas {
            if (replicas < 1) {
                throw new IllegalArgumentException("a scale-up target is at least 1, was " + replicas);
            }
        }
    }

    /**
     * The replicas annotation holds something that is not a replica count.
     *
     * @param message names the resource, the annotation and the value, and says how to fix it
     */
    record UnusableAnnotation(String resourceName, String value, String message) implements ScaleUpTarget {
        public UnusableAnnotation {
            Objects.requireNonNull(resourceName, "resourceName");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(message, "message");
        }
    }
}
