package dwd.domain.config;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The outcome of validating a config: either the validated value or every problem found, never an exception.
 *
 * @param <T> the validated type
 */
public sealed interface Validated<T> {

    /** Every problem found; empty when the config is valid. */
    List<ConfigProblem> problems();

    /** {@code true} for {@link Valid}. */
    default boolean isValid() {
        return this instanceof Valid<T>;
    }

    /** Applies {@code mapper} to a valid value; problems pass through unchanged. */
    default <R> Validated<R> map(Function<? super T, ? extends R> mapper) {
        return switch (this) {
            case Valid<T>(T value) -> new Valid<>(mapper.apply(value));
            case Invalid<T>(List<ConfigProblem> problems) -> new Invalid<>(problems);
        };
    }

    /** A config without problems. */
    record Valid<T>(T value) implements Validated<T> {
        public Valid {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public List<ConfigProblem> problems() {
            return List.of();
        }
    }

    /** A config with at least one problem; all of them, in the order they should be reported. */
    record Invalid<T>(List<ConfigProblem> problems) implements Validated<T> {
        public Invalid {
            problems = List.copyOf(problems);
            if (problems.isEmpty()) {
                throw new IllegalArgumentException("an invalid config has at least one problem");
            }
        }
    }
}
