package dwd.bootstrap.gardener;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The original dependency-watchdog (Go, v1.7.0, built by {@code scripts/original-dwd}) run as a process
 * with Gardener's flags, its JSON log in a file: when it probed a shoot, and {@code SIGSTOP}/{@code SIGCONT}
 * to stop it through an episode.
 */
final class OriginalProcess implements AutoCloseable {

    /** The original's line at each successful lease probe, healthy or not. */
    private static final List<String> PROBE_LINES = List.of("Lease probe succeeded", "Lease probe failed",
            "No owned node leases are present");

    final Process process;
    final Path log;

    private OriginalProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code binary role} with Gardener's flags of the role (its command without the binary and the
     * config path), {@code config} and the seed {@code kubeconfig}; its servers on ports nobody else uses.
     */
    static OriginalProcess start(Path binary, String role, List<String> gardenersCommand, Path config, Path kubeconfig,
            Path log) throws IOException {
        var command = new ArrayList<>(List.of(binary.toString(), role));
        gardenersCommand.stream().skip(2).filter(flag -> !flag.startsWith("--config-file=")).forEach(command::add);
        command.addAll(List.of("--config-file=" + config, "--kubeconfig=" + kubeconfig,
                "--metrics-bind-addr=0", "--health-bind-addr=0", "--pprof-bind-addr=0"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new OriginalProcess(process, log);
    }

    /** How many lease probes of {@code namespace} the original has logged. */
    long probes(String namespace) throws IOException {
        return Files.readAllLines(log).stream()
                .filter(line -> line.contains("\"shootNamespace\":\"" + namespace + "\""))
                .filter(line -> PROBE_LINES.stream().anyMatch(line::contains))
                .count();
    }

    String logText() throws IOException {
        return Files.readString(log);
    }

    /** {@code SIGSTOP}: the process stops where it is, its connections and timers with it. */
    void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** {@code SIGCONT}. */
    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        int exit = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start().waitFor();
        if (exit != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " exited with " + exit);
        }
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            resume();
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
