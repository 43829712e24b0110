package dwd.bootstrap.prober;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./dwd prober --dry-run=MODE} as a process with its own seed identity, and what its log says
 * about one shoot: its would-be scalings in the order they were logged.
 */
final class ShadowProber implements AutoCloseable {

    private static final Pattern WOULD_SCALE = Pattern.compile(
            "(\\S+): \\[dry-run=(client|server)] would scale (down|up) apps/v1 Deployment (\\S+) from (\\d+) to (\\d+) replicas"
                    + " \\(.*\\): (.*)$");

    /** One would-scale line. */
    record WouldScale(String namespace, String mode, String direction, String name, int from, int to, String writes,
                      String line) { }

    private final Process process;
    private final Path log;

    private ShadowProber(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts a prober with Gardener's config (shortened as in {@link ProberMeltdownIT}) against the seed
     * that {@code seedKubeconfig} reaches, as whoever it authenticates.
     */
    static ShadowProber start(String seedKubeconfig, String dryRunFlag, String name) throws IOException {
        Path dir = Files.createTempDirectory("dwd-shadow-" + name);
        Path config = Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened());
        Path kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), seedKubeconfig);
        Path log = dir.resolve("prober.log");
        var command = new ArrayList<>(List.of(ProberMeltdownIT.REPOSITORY.resolve("dwd").toString(), "prober",
                "--config-file", config.toString(), "--kubeconfig", kubeconfig.toString(), dryRunFlag,
                "--metrics-bind-addr=0", "--health-bind-addr=0", "--x-scale-readiness-timeout=500ms",
                "--zap-log-level=debug", "--log-format=text"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ShadowProber(process, log);
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    /** The would-scale lines of {@code namespace}, in log order. */
    List<WouldScale> wouldScale(String namespace) throws IOException {
        var found = new ArrayList<WouldScale>();
        for (String line : Files.readAllLines(log)) {
            Matcher matcher = WOULD_SCALE.matcher(line);
            if (matcher.find() && matcher.group(1).equals(namespace)) {
                found.add(new WouldScale(namespace, matcher.group(2), matcher.group(3), matcher.group(4),
                        Integer.parseInt(matcher.group(5)), Integer.parseInt(matcher.group(6)), matcher.group(7), line));
            }
        }
        return found;
    }

    List<WouldScale> wouldScale(String namespace, String direction) throws IOException {
        return wouldScale(namespace).stream().filter(line -> line.direction().equals(direction)).toList();
    }

    /** Lease probes of {@code namespace} logged so far (every probe is logged at debug level). */
    long leaseProbes(String namespace) throws IOException {
        return Files.readAllLines(log).stream().filter(line -> line.contains(namespace + ": lease probe: ")).count();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Stops it with SIGTERM; returns whether it stopped in time. */
    boolean stop() throws InterruptedException {
        process.destroy();
        return process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
