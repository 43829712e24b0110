package dwd.bootstrap;

import dwd.bootstrap.demo.LocalKubernetes;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A dwd role ({@code ./dwd prober|weeder}) as a process: the packaged app on the module path, its
 * metrics and health servers on free loopback ports, its output captured in {@code dir/<name>.log}.
 */
public class DwdProcess implements AutoCloseable {

    public static final Path REPOSITORY =
            Path.of(System.getProperty("dwd.repository.root", "..")).toAbsolutePath().normalize();

    /** A response: status and body. */
    public record Response(int statusCode, String body) { }

    public final Process process;
    public final Path log;
    public final int metricsPort;
    public final int healthPort;

    protected DwdProcess(DwdProcess launched) {
        this(launched.process, launched.log, launched.metricsPort, launched.healthPort);
    }

    private DwdProcess(Process process, Path log, int metricsPort, int healthPort) {
        this.process = process;
        this.log = log;
        this.metricsPort = metricsPort;
        this.healthPort = healthPort;
    }

    /** Starts {@code ./dwd <role>} named {@code name} with the given config and seed kubeconfig. */
    public static DwdProcess launch(String role, Path dir, String name, Path config, Path kubeconfig, List<String> extraFlags)
            throws IOException {
        return launch(role, dir, name, config, kubeconfig, extraFlags, Map.of());
    }

    /** As {@link #launch(String, Path, String, Path, Path, List)}, with these variables added to the environment. */
    public static DwdProcess launch(String role, Path dir, String name, Path config, Path kubeconfig, List<String> extraFlags,
            Map<String, String> environment) throws IOException {
        int metricsPort = freePort();
        int healthPort = freePort();
        Path log = dir.resolve(name + ".log");
        var command = new ArrayList<>(List.of(REPOSITORY.resolve("dwd").toString(), role,
                "--config-file", config.toString(), "--kubeconfig", kubeconfig.toString(),
                "--metrics-bind-addr=127.0.0.1:" + metricsPort, "--health-bind-addr=127.0.0.1:" + healthPort));
        command.addAll(extraFlags);
        var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        return new DwdProcess(process, log, metricsPort, healthPort);
    }

    /**
     * Starts {@code command}, a dwd role launched some other way (a container, say) that serves metrics and
     * health on these loopback ports, with its output in {@code log}.
     */
    public static DwdProcess start(List<String> command, Path log, int metricsPort, int healthPort) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new DwdProcess(process, log, metricsPort, healthPort);
    }

    /** A free loopback port for a role's server, chosen as the demo chooses its roles' ports. */
    public static int freePort() throws IOException {
        return LocalKubernetes.freePort();
    }

    public String log() throws IOException {
        return Files.readString(log);
    }

    /** The status code of {@code /healthz}, or -1 when nothing listens. */
    public int healthz() {
        return status(healthPort, "/healthz");
    }

    /** The status code of {@code /readyz}, or -1 when nothing listens. */
    public int readyz() {
        return status(healthPort, "/readyz");
    }

    public String healthBody(String path) throws IOException {
        return get(healthPort, path).body();
    }

    public String metrics() throws IOException {
        return get(metricsPort, "/metrics").body();
    }

    /** A page of the metrics server, e.g. {@code /probes} or {@code /weeders}. */
    public String metricsPage(String path) throws IOException {
        return get(metricsPort, path).body();
    }

    private static int status(int port, String path) {
        try {
            return get(port, path).statusCode();
        } catch (IOException e) {
            return -1;
        }
    }

    private static Response get(int port, String path) throws IOException {
        var connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + path).toURL().openConnection();
        connection.setConnectTimeout(2_000);
        connection.setReadTimeout(5_000);
        try {
            int status = connection.getResponseCode();
            var stream = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            String body = stream == null ? "" : new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            return new Response(status, body);
        } finally {
            connection.disconnect();
        }
    }

    /** SIGKILL: no shutdown hook, no release of the Lease. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, then waits for the exit status (-1 if it does not exit within a minute). */
    public int terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
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
