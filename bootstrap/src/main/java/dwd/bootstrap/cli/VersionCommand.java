package dwd.bootstrap.cli;

import dwd.bootstrap.wiring.ObjectGraphs;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code dwd version}: prints the product version. */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the version of dwd (and its git revision) and exit.")
public final class VersionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println(ObjectGraphs.launcher().buildInfo().describe());
        return 0;
    }
}
