package dwd.domain.dryrun;

import dwd.domain.gosyntax.GoBool;
import java.util.Locale;
import java.util.Optional;

/**
 * Shadow mode of a role, as kubectl's {@code --dry-run} flag defines it.
 *
 * <ul>
 *   <li>{@link #NONE}: act for real (the default).
 *   <li>{@link #CLIENT}: send nothing that changes state; report what would be sent.
 *   <li>{@link #SERVER}: send every change with {@code dryRun=All}; report what the server answered.
 * </ul>
 */
public enum DryRunMode {
    NONE,
    CLIENT,
    SERVER;

    /** The flag's value as written on the command line. */
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code true} when changes are not persisted. */
    public boolean isShadow() {
        return this != NONE;
    }

    /**
     * Parses a {@code --dry-run} value.
     *
     * @param value the value after {@code =}, or empty when the flag was given without one
     * @return the mode and, for a deprecated form, the warning to print
     * @throws InvalidDryRunValue for anything else, with kubectl's exact message
     */
    public static Parsed parse(Optional<String> value) {
        if (value.isEmpty()) {
            return new Parsed(CLIENT, Optional.of(
                    "--dry-run is deprecated and can be replaced with --dry-run=client."));
        }
        String text = value.get();
        switch (text) {
            case "none" -> { return new Parsed(NONE, Optional.empty()); }
            case "client" -> { return new Parsed(CLIENT, Optional.empty()); }
            case "server" -> { return new Parsed(SERVER, Optional.empty()); }
            default -> { }
        }
        return GoBool.parse(text)
                .map(bool -> bool
                        ? new Parsed(CLIENT, Optional.of(
                                "--dry-run=" + text + " is deprecated (boolean value) and can be replaced with --dry-run=client."))
                        : new Parsed(NONE, Optional.of(
                                "--dry-run=" + text + " is deprecated (boolean value) and can be replaced with --dry-run=none.")))
                .orElseThrow(() -> new InvalidDryRunValue(text));
    }

    /** A parsed value: the mode, and the deprecation warning if the form was a deprecated one. */
    public record Parsed(DryRunMode mode, Optional<String> deprecationWarning) { }

    /** A value that is neither a mode nor a Go boolean. */
    public static final class InvalidDryRunValue extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public InvalidDryRunValue(String value) {
            super("Invalid dry-run value (" + value + "). Must be \"none\", \"server\", or \"client\".");
        }
    }
}
