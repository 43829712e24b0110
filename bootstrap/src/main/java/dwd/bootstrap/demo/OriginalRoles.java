package dwd.bootstrap.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Gardener's original dependency-watchdog for {@code dwd demo --beside-original}: its binary, built once by
 * {@code scripts/original-dwd} (Go, from the module proxy, cached), and its prober and weeder started with the
 * flags Gardener passes and the demo's configs, their logs in the work directory.
 */
final class OriginalRoles {

    private final List<Process> processes;
    private final List<String> names;

    private OriginalRoles(List<Process> processes, List<String> names) {
        this.processes = processes;
        this.names = names;
    }

    /** The original's binary: {@code scripts/original-dwd} of this checkout prints it, building it once. */
    static Path binary(Narrator narrator) throws DemoFailure {
        String home = System.getProperty("dwd.home");
        Path script = home == null ? null : Path.of(home, "scripts", "original-dwd");
        if (script == null || !Files.isExecutable(script)) {
            throw new DemoFailure("--beside-original needs scripts/original-dwd of a dwd checkout (run ./dwd demo from it)");
        }
        try {
            Path path = Path.of(run(script, "--path"));
            if (!Files.isExecutable(path)) {
                narrator.info("building the original dependency-watchdog v1.7.0 with Go first (once; a few minutes on 2 cores) ...");
                path = Path.of(run(script));
            }
            return path;
        } catch (IOException e) {
            throw new DemoFailure("cannot build the original with scripts/original-dwd: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DemoFailure("interrupted while building the original", e);
        }
    }

    private static String run(Path script, String... arguments) throws IOException, InterruptedException {
        var command = new ArrayList<>(List.of(script.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(process.getInputStream().readAllBytes()).strip();
        if (process.waitFor() != 0) {
            throw new IOException("scripts/original-dwd failed with exit status " + process.exitValue()
                    + " (it needs Go 1.26+ and the Go module proxy)");
        }
        return out;
    }

    /** Starts the original's prober and weeder against the seed, each with the flags Gardener passes. */
    static OriginalRoles start(Path binary, Path proberConfig, List<String> proberFlags, Path weederConfig,
            List<String> weederFlags, Path kubeconfig, Path dir) throws IOException {
        var processes = new ArrayList<Process>();
        var names = new ArrayList<String>();
        for (String role : List.of("prober", "weeder")) {
            var command = new ArrayList<>(List.of(binary.toString(), role,
                    "--config-file=" + (role.equals("prober") ? proberConfig : weederConfig), "--kubeconfig=" + kubeconfig,
                    "--metrics-bind-addr=0", "--health-bind-addr=0", "--pprof-bind-addr=0"));
            command.addAll(role.equals("prober") ? proberFlags : weederFlags);
            processes.add(new ProcessBuilder(ChildProcesses.owned(command)).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("original-" + role + ".log").toFile()).start());
            names.add("the original's " + role);
        }
        return new OriginalRoles(processes, names);
    }

    long pid(int index) {
        return processes.get(index).pid();
    }

    /** Stops both (SIGTERM, SIGKILL after 20 s) and says how each ended. */
    List<String> stop() {
        processes.forEach(Process::destroy);
        var stopped = new ArrayList<String>();
        for (int i = 0; i < processes.size(); i++) {
            Process process = processes.get(i);
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    stopped.add("stopped " + names.get(i) + ": no exit 20s after SIGTERM, killed");
                } else {
                    stopped.add("stopped " + names.get(i) + " (exit status " + process.exitValue() + ")");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return stopped;
    }
}
