package dwd.bootstrap.cli;

import dwd.bootstrap.config.ConfigFileException;
import dwd.bootstrap.config.ConfigFiles;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code dwd validate prober|weeder --config-file F}: every problem of a config file, with its location. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Validate a prober or weeder config file and print every problem with its location.",
            "Exit status: 0 valid, 1 invalid."})
public final class ValidateCommand implements Callable<Integer> {

    /** The roles a config file can be for. */
    enum Role { prober, weeder }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ROLE", description = "prober or weeder")
    Role role;

    @Option(names = "--config-file", required = true, paramLabel = "FILE", description = "the config file")
    Path configFile;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        var files = new ConfigFiles(warning -> err.println("warning: " + warning));
        try {
            switch (role) {
                case prober -> files.prober(configFile);
                case weeder -> files.weeder(configFile);
            }
            out.println(configFile + ": valid " + role + " config");
            return 0;
        } catch (ConfigFileException e) {
            err.println(e.getMessage());
            return 1;
        }
    }
}
