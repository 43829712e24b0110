package dwd.bootstrap;

import dwd.bootstrap.cli.DwdCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/** Entry point of the {@code dwd} launcher. */
public final class Main {

    /** Exit code for a command line that cannot be run (unknown command, bad flag). */
    public static final int USAGE_ERROR = 2;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs a command line and returns its exit code; output goes to {@code out} and {@code err}. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        var commandLine = new CommandLine(new DwdCommand())
                .setOut(out)
                .setErr(err)
                .setParameterExceptionHandler(Main::usageError);
        return commandLine.execute(args);
    }

    private static int usageError(ParameterException problem, String[] args) {
        CommandLine commandLine = problem.getCommandLine();
        PrintWriter err = commandLine.getErr();
        String command = commandLine.getCommandSpec().qualifiedName();
        if (problem instanceof UnmatchedArgumentException unmatched
                && commandLine.getCommandSpec().subcommands().size() > 0
                && !unmatched.getUnmatched().isEmpty()
                && !unmatched.getUnmatched().getFirst().startsWith("-")) {
            err.printf("%s: unknown command '%s'. Commands: %s. Run '%s --help' for usage.%n",
                    command, unmatched.getUnmatched().getFirst(),
                    String.join(", ", commandLine.getCommandSpec().subcommands().keySet()), command);
        } else {
            err.printf("%s: %s. Run '%s --help' for usage.%n", command, problem.getMessage(), command);
        }
        return USAGE_ERROR;
    }
}
