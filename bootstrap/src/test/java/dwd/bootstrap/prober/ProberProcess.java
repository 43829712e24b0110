package dwd.bootstrap.prober;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./dwd prober} as a process (the packaged app on the module path), with its metrics and
 * health servers on free loopback ports and its output captured in a file.
 */
final class ProberProcess implements AutoCloseable {

    /** A response: status and body. */
    record Response(int statusCode, String body) { }

    final Process process;
    final Path log;
    final int metricsPort;
    final int healthPort;

    private ProberProcess(Process process, Path log, int metricsPort, int healthPort) {
        this.process = process;
        this.log = log;
        this.metricsPort = metricsPort;
        this.healthPort = healthPort;
    }

    /** Starts a prober named {@code name} (its log is {@code dir/name.log}) with the given config and seed kubeconfig. */
    static ProberProcess start(Path dir, String name, Path config, Path kubeconfig, String... extraFlags) throws IOException {
        int metricsPort = freePort();
        int healthPort = freePort();
        Path log = dir.resolve(name + ".log");
        var command = new ArrayList<>(List.of(ProberMeltdownIT.REPOSITORY.resolve("dwd").toString(), "prober",
                "--config-file", config.toString(), "--kubeconfig", kubeconfig.toString(),
                "--metrics-bind-addr=127.0.0.1:" + metricsPort, "--health-bind-addr=127.0.0.1:" + healthPort,
                "--x-scale-readiness-timeout=500ms"));
        command.addAll(List.of(extraFlags));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ProberProcess(process, log, metricsPort, healthPort);
    }

    static int freePort() throws IOException {
        try (var socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    /** The status code of {@code /healthz}, or -1 when nothing listens. */
    int healthz() {
        return status(healthPort, "/healthz");
    }

    /** The status code of {@code /readyz}, or -1 when nothing listens. */
    int readyz() {
        return status(healthPort, "/readyz");
    }

    String healthBody(String path) throws IOException, InterruptedException {
        return get(healthPort, path).body();
    }

    String metrics() throws IOException, InterruptedException {
        return get(metricsPort, "/metrics").body();
    }

    String probes() throws IOException, InterruptedException {
        return get(metricsPort, "/probes").body();
    }

    private int status(int port, String path) {
        try {
            return get(port, path).statusCode();
        } catch (ConnectException e) {
            return -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static Response get(int port, String path) throws IOException, InterruptedException {
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
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, then waits for the exit status. */
    int terminate() throws InterruptedException {
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
