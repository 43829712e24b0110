package dwd.domain.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Collects config problems in report order and turns the outcome into a {@link Validated}. */
final class Problems {

    private final List<ConfigProblem> found = new ArrayList<>();

    void add(String path, String message) {
        found.add(new ConfigProblem(path, message));
    }

    /** Reports an unparsable duration, or one that is zero or negative. */
    void requirePositive(DurationField field, String purpose) {
        if (field.parseProblem() != null) {
            add(field.path(), field.parseProblem());
        } else if (!field.value().isPositive()) {
            add(field.path(), "must be positive (was " + GoDuration.format(field.value()) + "); " + purpose);
        }
    }

    /** Reports an unparsable duration, or a negative one. */
    void requireNotNegative(DurationField field, String purpose) {
        if (field.parseProblem() != null) {
            add(field.path(), field.parseProblem());
        } else if (field.value().isNegative()) {
            add(field.path(), "must not be negative (was " + GoDuration.format(field.value()) + "); " + purpose);
        }
    }

    /** The value built by {@code build} when nothing was found, else every problem. */
    <T> Validated<T> outcome(Supplier<T> build) {
        return found.isEmpty() ? new Validated.Valid<>(build.get()) : new Validated.Invalid<>(found);
    }

    static String child(String path, String name) {
        return path + "." + name;
    }

    static String index(String path, int index) {
        return path + "[" + index + "]";
    }

    static String key(String path, String key) {
        return path + "[" + key + "]";
    }

    /** A duration field: its parsed (or default) value, or why its text does not parse. */
    record DurationField(String path, Duration value, String parseProblem) {

        static DurationField of(String path, String text, Duration fallback) {
            if (text == null) {
                return new DurationField(path, fallback, null);
            }
            try {
                return new DurationField(path, GoDuration.parse(text), null);
            } catch (InvalidGoDuration e) {
                return new DurationField(path, null, e.getMessage());
            }
        }

        boolean parsed() {
            return value != null;
        }
    }
}
