package dwd.bootstrap.monitoring;

import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.bootstrap.DwdProcess;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real Prometheus (Debian's {@code prometheus}) on a free loopback port, scraping the given
 * targets every second and evaluating the given rules every second, its TSDB and log in
 * {@code dir}; and the parts of its HTTP API the tests use.
 */
final class PrometheusServer implements AutoCloseable {

    private final Process process;
    private final String base;

    private PrometheusServer(Process process, int port) {
        this.process = process;
        this.base = "http://127.0.0.1:" + port;
    }

    /**
     * Starts Prometheus with {@code rules} (the text of a rule file) and one job per entry of
     * {@code targets} (job name → port on 127.0.0.1), and waits until it is ready.
     */
    static PrometheusServer start(Path binary, Path dir, String rules, Map<String, Integer> targets) throws IOException {
        Files.writeString(dir.resolve("rules.yaml"), rules);
        String jobs = targets.entrySet().stream()
                .map(job -> "  - job_name: " + job.getKey() + "\n    static_configs:\n      - targets: ['127.0.0.1:"
                        + job.getValue() + "']\n")
                .collect(Collectors.joining());
        Path config = Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 1s
                rule_files: [rules.yaml]
                scrape_configs:
                """ + jobs);
        int port = DwdProcess.freePort();
        Process process = new ProcessBuilder(binary.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        var server = new PrometheusServer(process, port);
        try {
            await("Prometheus ready").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(server::ready);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private boolean ready() {
        if (!process.isAlive()) {
            throw new IllegalStateException("Prometheus exited with status " + process.exitValue() + "; see prometheus.log");
        }
        try {
            return get("/-/ready").status() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** An instant query now: the result vector. */
    JsonArray query(String expr) {
        return data("/api/v1/query", Map.of("query", expr)).getAsJsonObject().getAsJsonArray("result");
    }

    /** A range query: the result matrix (one element per series, with {@code metric} and {@code values}). */
    JsonArray queryRange(String expr, Instant start, Instant end, Duration step) {
        return data("/api/v1/query_range", Map.of("query", expr, "start", seconds(start), "end", seconds(end),
                "step", Long.toString(step.toSeconds()))).getAsJsonObject().getAsJsonArray("result");
    }

    /** The values of {@code label} on the series {@code match} selects. */
    List<String> labelValues(String label, String match) {
        var values = new ArrayList<String>();
        for (JsonElement value : data("/api/v1/label/" + label + "/values", Map.of("match[]", match)).getAsJsonArray()) {
            values.add(value.getAsString());
        }
        return values;
    }

    /** Pending and firing alerts now. */
    JsonArray alerts() {
        return data("/api/v1/alerts", Map.of()).getAsJsonObject().getAsJsonArray("alerts");
    }

    private static String seconds(Instant instant) {
        return String.format(java.util.Locale.ROOT, "%.3f", instant.toEpochMilli() / 1000.0);
    }

    /** GETs an API path; a query Prometheus rejects fails with its error message. */
    private JsonElement data(String path, Map<String, String> parameters) {
        String query = parameters.entrySet().stream()
                .map(p -> p.getKey() + "=" + URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        Response response;
        try {
            response = get(path + (query.isEmpty() ? "" : "?" + query));
        } catch (IOException e) {
            throw new IllegalStateException("Prometheus " + path + ": " + e, e);
        }
        JsonObject body = JsonParser.parseString(response.body()).getAsJsonObject();
        if (!"success".equals(body.get("status").getAsString())) {
            throw new AssertionError("Prometheus rejected " + parameters + ": " + body.get("error"));
        }
        return body.get("data");
    }

    private record Response(int status, String body) { }

    private Response get(String pathAndQuery) throws IOException {
        var connection = (HttpURLConnection) URI.create(base + pathAndQuery).toURL().openConnection();
        connection.setConnectTimeout(2_000);
        connection.setReadTimeout(30_000);
        try {
            int status = connection.getResponseCode();
            var stream = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            return new Response(status, stream == null ? "" : new String(stream.readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            connection.disconnect();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
