package dwd.bootstrap.cli;

import dwd.bootstrap.check.CheckCommand;
import dwd.bootstrap.demo.DemoCommand;
import dwd.bootstrap.wiring.ObjectGraphs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The root command: {@code dwd <command> [options]}. */
@Command(
        name = "dwd",
        mixinStandardHelpOptions = true,
        versionProvider = DwdCommand.Version.class,
        description = "Dependency watchdog for Gardener seed clusters: protects shoots whose kubelets lost "
                + "their control plane (prober) and restarts crash-looping dependents when their service recovers (weeder).",
        subcommands = {ProberCommand.class, WeederCommand.class, DemoCommand.class, CheckCommand.class, PlanCommand.class, ValidateCommand.class,
            CompareCommand.class,
            VersionCommand.class, AotTrainingCommand.class},
        commandListHeading = "%nCommands:%n",
        footer = {"", "Shadow mode: 'dwd prober' and 'dwd weeder' take --dry-run=none|client|server (default none:"
                + " act). client changes nothing and logs what it would change; server also has the API server check"
                + " each change (dryRun=All: RBAC, admission, validation) without persisting it.",
            "", "Exit status: 0 success; 1 a config file that cannot be used, or a failure at run time; 2 a command"
                + " line that cannot be run (unknown command or option, bad or missing option value).",
            "", "Run 'dwd <command> --help' for a command's options."})
public final class DwdCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        // `dwd` alone: show what there is to run.
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The version shown by {@code dwd --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {ObjectGraphs.launcher().buildInfo().describe()};
        }
    }
}
