package dwd.bootstrap.weeder;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./dwd weeder} as a process (the packaged app on the module path), with its metrics and
 * health servers on free loopback ports and its output captured in {@code dir/<name>.log}.
 */
final class WeederProcess implements AutoCloseable {

    /** A response: status and body. */
    record Response(int statusCode, String body) { }

    final Process process;
    final Path log;
    final int metricsPort;
    final int healthPort;

    private WeederProcess(Process process, Path log, int metricsPort, int healthPort) {
        this.process = process;
        this.log = log;
        this.metricsPort = metricsPort;
        this.healthPort = healthPort;
    }

    static WeederProcess start(Path dir, String name, Path config, Path kubeconfig, String... extraFlags)
            throws IOException {
        int metricsPort = freePort();
        int healthPort = freePort();
        Path log = dir.resolve(name + ".log");
        var command = new ArrayList<>(List.of(WeederLaunchIT.REPOSITORY.resolve("dwd").toString(), "weeder",
                "--config-file", config.toString(), "--kubeconfig", kubeconfig.toString(),
                "--metrics-bind-addr=127.0.0.1:" + metricsPort, "--health-bind-addr=127.0.0.1:" + healthPort));
        command.addAll(List.of(extraFlags));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new WeederProcess(process, log, metricsPort, healthPort);
    }

    private static int freePort() throws IOException {
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

    String healthBody(String path) throws IOException {
        return get(healthPort, path).body();
    }

    String metrics() throws IOException {
        return get(metricsPort, "/metrics").body();
    }

    String weeders() throws IOException {
        return get(metricsPort, "/weeders").body();
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

    /** SIGTERM, then waits for the exit status (-1 if it does not exit within a minute). */
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
