package dwd.bootstrap.cli;

import dwd.adapters.k8s.leader.LeaderElectionTimings;
import dwd.bootstrap.config.ConfigFileException;
import dwd.bootstrap.config.ConfigFiles;
import dwd.bootstrap.logging.LogLevels;
import dwd.bootstrap.logging.LogSetup;
import dwd.bootstrap.seed.SeedConnection;
import dwd.bootstrap.shadow.DryRunOption;
import dwd.domain.dryrun.DryRunMode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.logging.log4j.Logger;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * What both roles do before they run: check the flags, set up logging, announce shadow mode,
 * read the config file and resolve the seed. A problem is printed as {@code <command>: <what>} and
 * ends the command with its exit status, before anything starts.
 */
final class RoleStart {

    /** A role ready to run. */
    record Started<C>(C config, SeedConnection seed, Optional<LeaderElectionTimings> election, DryRunMode mode) { }

    /** How a role reads its config file. */
    @FunctionalInterface
    interface ConfigReader<C> {
        C read(ConfigFiles files, Path file) throws ConfigFileException;
    }

    /** The command ends before it started; the message has been printed. */
    static final class Exit extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        Exit(int status) {
            super(null, null, false, false);
            this.status = status;
        }

        int status() {
            return status;
        }
    }

    private RoleStart() {
    }

    /**
     * @throws ParameterException for flags that do not fit together (exit status 2, as every bad command line)
     * @throws Exit               with the status of a problem already printed: 2 for a bad {@code --dry-run},
     *                            1 for a config file or kubeconfig that cannot be used
     */
    static <C> Started<C> begin(String command, CommandLine commandLine, RoleOptions options,
            DryRunOption dryRunOption, Logger log, ConfigReader<C> reader) throws Exit {
        PrintWriter err = commandLine.getErr();
        var dryRun = dryRunOption.resolve(command, err);
        if (dryRun.isEmpty()) {
            throw new Exit(DryRunOption.INVALID);
        }
        Optional<LeaderElectionTimings> election;
        try {
            election = options.leaderElection() ? Optional.of(options.leaderElectionTimings()) : Optional.empty();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine, e.getMessage());
        }
        LogSetup.apply(options.logFormat());
        LogLevels.apply(options.logLevel());
        DryRunMode mode = dryRun.get();
        if (mode.isShadow()) {
            log.warn(DryRunOption.shadowModeNotice(command, mode));
        }
        try {
            C config = reader.read(new ConfigFiles(log::warn), options.configFile());
            var seed = SeedConnection.resolve(options.kubeconfig(), System.getenv(), Path.of(System.getProperty("user.home")));
            if (options.pprofRequested()) {
                log.warn("--pprof-bind-addr is accepted for compatibility but not supported: dwd serves no pprof endpoint");
            }
            return new Started<>(config, seed, election, mode);
        } catch (ConfigFileException | IllegalArgumentException e) {
            err.println(command + ": " + e.getMessage());
            throw new Exit(1);
        }
    }

    /**
     * A shadow instance elects among shadow instances only: on the real lock it could take the lease
     * from the real dwd and leave the seed unprotected.
     */
    static String lockName(String lock, DryRunMode mode) {
        return mode.isShadow() ? lock + "-dry-run" : lock;
    }
}
