package dwd.bootstrap;

import dwd.bootstrap.cli.DwdCommand;
import dwd.bootstrap.cli.UsageErrors;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Entry point of the {@code dwd} launcher. Exit status: 0 success, 1 a bad config file or a failure
 * at run time, 2 a command line that cannot be run (docs/cli.md lists every case).
 */
public final class Main {

    /** Exit code for a command line that cannot be run (unknown command or flag, bad flag value, missing flag). */
    public static final int USAGE_ERROR = UsageErrors.USAGE_ERROR;

    private Main() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && (args[0].equals("prober") || args[0].equals("weeder"))) {
            Prewarm.start();
        }
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs a command line and returns its exit code; output goes to {@code out} and {@code err}. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        var commandLine = new CommandLine(new DwdCommand())
                .setOut(out)
                .setErr(err)
                .setParameterExceptionHandler(UsageErrors::report);
        return commandLine.execute(args);
    }
}
