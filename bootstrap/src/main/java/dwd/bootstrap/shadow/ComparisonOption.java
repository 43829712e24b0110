package dwd.bootstrap.shadow;

import dwd.domain.config.GoDuration;
import dwd.domain.dryrun.DryRunMode;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --compare-with-original}: a shadow-mode prober or weeder beside the original dependency-watchdog
 * compares what it would do with what the original does in the seed, episode by episode. Refused without
 * {@code --dry-run}: beside the original, dwd must change nothing (and in shadow mode it elects on its own
 * Lease, {@code <lock>-dry-run}, never on the original's).
 */
public final class ComparisonOption {

    /** The field manager of the original's writes: its binary's name, as gardenlet's Deployment runs it. */
    public static final String ORIGINAL_FIELD_MANAGER = "dependency-watchdog";
    /** How long one side may take after the other acted. */
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(5);

    @Option(names = "--compare-with-original", description = "Beside the original dependency-watchdog (needs"
            + " --dry-run): compare each would-be action with what the original does in the seed, episode by episode;"
            + " the report is on /comparison beside the status page (dwd compare prints it), in dwd_comparison_*"
            + " metrics and one log line per episode.")
    boolean enabled;

    @Option(names = "--original-field-manager", paramLabel = "NAME", description = "The field manager the"
            + " original's writes are recorded under in managedFields: its binary's name (default: "
            + ORIGINAL_FIELD_MANAGER + ").")
    String fieldManager;

    @Option(names = "--comparison-window", paramLabel = "DURATION", description = "How long one side may take"
            + " after the other acted before an episode is decided without it (default: 5m).")
    String window;

    /** The comparison's settings, when asked for. */
    public record Settings(String originalFieldManager, Duration window) { }

    /**
     * Checks the flags against {@code --dry-run} before anything starts.
     *
     * @throws ParameterException (exit 2) for a comparison without shadow mode, a bad window, or a comparison
     *     flag without {@code --compare-with-original}
     */
    public Optional<Settings> resolve(DryRunOption dryRun, CommandLine commandLine) {
        if (!enabled) {
            if (fieldManager != null || window != null) {
                throw new ParameterException(commandLine, (fieldManager != null ? "--original-field-manager" : "--comparison-window")
                        + " has no effect without --compare-with-original");
            }
            return Optional.empty();
        }
        if (!shadow(dryRun)) {
            throw new ParameterException(commandLine, "--compare-with-original needs --dry-run=server (or client):"
                    + " beside the original dependency-watchdog, dwd must change nothing");
        }
        Duration parsed = DEFAULT_WINDOW;
        if (window != null) {
            try {
                parsed = GoDuration.parse(window);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(commandLine, "--comparison-window: " + e.getMessage());
            }
            if (!parsed.isPositive()) {
                throw new ParameterException(commandLine, "--comparison-window must be positive, e.g. 5m; was " + window);
            }
        }
        String manager = fieldManager == null ? ORIGINAL_FIELD_MANAGER : fieldManager.strip();
        if (manager.isEmpty()) {
            throw new ParameterException(commandLine, "--original-field-manager must not be empty; the original's is "
                    + ORIGINAL_FIELD_MANAGER);
        }
        return Optional.of(new Settings(manager, parsed));
    }

    /** Whether {@code --dry-run} asks for shadow mode; an invalid value is left to {@link DryRunOption#resolve}. */
    private static boolean shadow(DryRunOption dryRun) {
        if (dryRun.value == null) {
            return false;
        }
        try {
            return DryRunMode.parse(dryRun.value.equals(DryRunOption.NO_VALUE) ? Optional.empty() : Optional.of(dryRun.value))
                    .mode().isShadow();
        } catch (DryRunMode.InvalidDryRunValue invalid) {
            return true;
        }
    }
}
