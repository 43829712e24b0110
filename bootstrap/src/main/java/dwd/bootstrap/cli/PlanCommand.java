package dwd.bootstrap.cli;

import dwd.bootstrap.config.ConfigFileException;
import dwd.bootstrap.config.ConfigFiles;
import dwd.domain.config.ProberConfig;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.scaling.ScalePlan;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dwd plan --config-file F}: what the prober would do, level by level, in each direction. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Print the scale-down and scale-up plans of a prober config: levels, what runs in parallel, delays, timeouts.")
public final class PlanCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--config-file", required = true, paramLabel = "FILE", description = "the prober config file")
    Path configFile;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ProberConfig config;
        try {
            config = new ConfigFiles(warning -> err.println("warning: " + warning)).prober(configFile);
        } catch (ConfigFileException e) {
            err.println(e.getMessage());
            return 1;
        }
        out.println("When at least " + config.nodeLeaseFailureFraction() + " of the candidate node leases have expired:");
        ScalePlan.of(config.dependentResourceInfos(), ScaleDirection.DOWN).describe().forEach(out::println);
        out.println();
        out.println("When the leases are fresh again:");
        ScalePlan.of(config.dependentResourceInfos(), ScaleDirection.UP).describe().forEach(out::println);
        return 0;
    }
}
