package dwd.adapters.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/** Serves {@code /metrics} in the Prometheus text format from the JDK HTTP server. */
public final class MetricsServer implements AutoCloseable {

    private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final HttpServer server;

    private MetricsServer(PrometheusMeterRegistry registry, HttpServer server) {
        this.registry = registry;
        this.server = server;
    }

    /** A registry of the kind this server scrapes. */
    public static PrometheusMeterRegistry newRegistry() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    /** Starts serving {@code registry} on {@code address} (port 0 picks a free port). */
    public static MetricsServer start(PrometheusMeterRegistry registry, InetSocketAddress address) {
        try {
            HttpServer server = HttpServer.create(address, 0);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            var metricsServer = new MetricsServer(registry, server);
            server.createContext("/metrics", metricsServer::scrape);
            server.start();
            return metricsServer;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address + " for metrics: " + e.getMessage(), e);
        }
    }

    /** The address actually bound. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void scrape(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", TEXT_FORMAT);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
