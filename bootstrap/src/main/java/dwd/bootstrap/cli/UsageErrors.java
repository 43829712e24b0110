package dwd.bootstrap.cli;

import java.io.PrintWriter;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * How a command line that cannot be run is reported: one line {@code <command>: <what>. Run '<command>
 * --help' for usage.} on stderr, exit status {@value #USAGE_ERROR}. An unknown option is reported
 * before anything else (a mistyped {@code --config-fil} is the cause of the "missing" {@code
 * --config-file}), with the closest option it may have meant.
 */
public final class UsageErrors {

    /** Exit status of every command line that cannot be run. */
    public static final int USAGE_ERROR = CommandLine.ExitCode.USAGE;

    private UsageErrors() {
    }

    /** picocli's parameter exception handler: prints the problem and returns {@link #USAGE_ERROR}. */
    public static int report(ParameterException problem, String[] args) {
        CommandLine commandLine = problem.getCommandLine();
        PrintWriter err = commandLine.getErr();
        CommandSpec spec = commandLine.getCommandSpec();
        String command = spec.qualifiedName();
        List<String> unmatched = problem instanceof UnmatchedArgumentException u ? u.getUnmatched()
                : problem instanceof MissingParameterException ? commandLine.getUnmatchedArguments() : List.of();
        Optional<String> unknownOption = unmatched.stream().filter(arg -> arg.startsWith("-")).findFirst();
        String what;
        if (unknownOption.isPresent()) {
            String name = optionName(unknownOption.get());
            what = "unknown option '" + name + "'" + closest(name, visibleOptionNames(spec))
                    .map(option -> "; did you mean " + option + "?").orElse("");
        } else if (!unmatched.isEmpty() && !spec.subcommands().isEmpty()) {
            String typed = unmatched.getFirst();
            what = "unknown command '" + typed + "'" + closest(typed, spec.subcommands().keySet())
                    .map(name -> "; did you mean " + name + "?").orElse(". Commands: "
                            + String.join(", ", spec.subcommands().keySet()));
        } else if (!unmatched.isEmpty()) {
            what = "unexpected argument '" + unmatched.getFirst() + "'";
        } else {
            what = sentence(problem.getMessage());
        }
        err.printf("%s: %s%s Run '%s --help' for usage.%n", command, what, what.endsWith("?") ? "" : ".", command);
        err.flush();
        return USAGE_ERROR;
    }

    /** {@code --config-fil} from {@code --config-fil=x}. */
    private static String optionName(String argument) {
        int equals = argument.indexOf('=');
        return equals < 0 ? argument : argument.substring(0, equals);
    }

    private static List<String> visibleOptionNames(CommandSpec spec) {
        return spec.options().stream()
                .filter(option -> !option.hidden())
                .flatMap(option -> List.of(option.names()).stream())
                .filter(name -> name.startsWith("--"))
                .toList();
    }

    /** The name nearest to {@code typed} in edit distance, if it is near enough to be a typo of it. */
    static Optional<String> closest(String typed, Collection<String> names) {
        String wanted = typed.toLowerCase(Locale.ROOT);
        return names.stream()
                .map(name -> new Candidate(name, distance(wanted, name)))
                .filter(candidate -> candidate.distance() <= Math.max(2, candidate.name().length() / 3))
                .min(Comparator.comparingInt(Candidate::distance).thenComparing(Candidate::name))
                .map(Candidate::name);
    }

    private record Candidate(String name, int distance) { }

    /** Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** picocli's message as part of ours: lower-case start, no final period. */
    private static String sentence(String message) {
        String text = message.endsWith(".") ? message.substring(0, message.length() - 1) : message;
        return text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }
}
