package dwd.domain.gosyntax;

import java.util.Optional;

/**
 * Go's {@code strconv.ParseBool}, which the original uses for its boolean flags and annotations: the
 * only spellings it accepts, nothing else (no {@code yes}, no spaces, no other mixed case).
 */
public final class GoBool {

    private GoBool() {
    }

    /** {@code true} or {@code false} for Go's spellings of them, empty for anything else (null included). */
    public static Optional<Boolean> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        return switch (text) {
            case "1", "t", "T", "TRUE", "true", "True" -> Optional.of(true);
            case "0", "f", "F", "FALSE", "false", "False" -> Optional.of(false);
            default -> Optional.empty();
        };
    }
}
