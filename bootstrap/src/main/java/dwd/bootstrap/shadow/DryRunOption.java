package dwd.bootstrap.shadow;

import dwd.domain.dryrun.DryRunMode;
import java.io.PrintWriter;
import java.util.Optional;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Option;

/**
 * {@code --dry-run}, the shadow mode of the prober, the weeder and the demo, with kubectl's values
 * and messages ({@link DryRunMode#parse}).
 */
public final class DryRunOption {

    /** picocli's value for the flag given without one: no command-line argument can contain a NUL. */
    static final String NO_VALUE = "\0";

    /** The exit status for an invalid value: a usage error, as for any bad flag. */
    public static final int INVALID = ExitCode.USAGE;

    @Option(names = "--dry-run", arity = "0..1", fallbackValue = NO_VALUE, paramLabel = "MODE", description =
        "Shadow mode: none (the default) acts; client sends no change and logs what it would change;"
            + " server sends every change with dryRun=All, so the API server checks it (RBAC, admission, validation)"
            + " and persists nothing, and logs the server's answer. Reads are the same in every mode.")
    String value;

    /**
     * The mode; prints the deprecation warning of a deprecated form.
     *
     * @param command for the warning, e.g. {@code dwd prober}
     * @return the mode, or empty after printing kubectl's error for an invalid value (exit {@link #INVALID})
     */
    public Optional<DryRunMode> resolve(String command, PrintWriter err) {
        if (value == null) {
            return Optional.of(DryRunMode.NONE);
        }
        try {
            DryRunMode.Parsed parsed = DryRunMode.parse(value.equals(NO_VALUE) ? Optional.empty() : Optional.of(value));
            parsed.deprecationWarning().ifPresent(warning -> err.println(command + ": warning: " + warning));
            return Optional.of(parsed.mode());
        } catch (DryRunMode.InvalidDryRunValue invalid) {
            err.println(invalid.getMessage());
            return Optional.empty();
        }
    }

    /** Whether {@code --dry-run} was given at all, in any form. */
    public boolean given() {
        return value != null;
    }

    /** The line shown at startup in shadow mode: what runs differently. */
    public static String shadowModeNotice(String role, DryRunMode mode) {
        return switch (mode) {
            case CLIENT -> role + " runs in shadow mode (--dry-run=client): no change is sent to the seed;"
                    + " each would-be change is logged once as \"[dry-run=client] would …\"";
            case SERVER -> role + " runs in shadow mode (--dry-run=server): every change is sent with dryRun=All,"
                    + " checked by the API server and persisted nowhere; each is logged once with the server's answer"
                    + " as \"[dry-run=server] would …\"";
            case NONE -> role + " acts for real (--dry-run=none)";
        };
    }
}
