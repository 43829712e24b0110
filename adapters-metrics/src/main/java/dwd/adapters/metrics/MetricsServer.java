package dwd.adapters.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Serves {@code /metrics} in the Prometheus text format, and the role's JSON status pages
 * ({@code /probes}, {@code /weeders}), from the JDK HTTP server. Each request runs on its own
 * virtual thread and reads snapshots: it never waits for a probe, and no probe waits for it.
 */
public final class MetricsServer implements AutoCloseable {

    private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String JSON = "application/json; charset=utf-8";

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
        return start(registry, address, Map.of());
    }

    /**
     * Starts serving {@code registry} at {@code /metrics} and each of {@code statusPages} (path →
     * JSON document) on {@code address}.
     */
    public static MetricsServer start(PrometheusMeterRegistry registry, InetSocketAddress address,
            Map<String, Supplier<String>> statusPages) {
        HttpServer server = Responses.server(address, "metrics");
        var metricsServer = new MetricsServer(registry, server);
        server.createContext("/metrics", metricsServer::scrape);
        statusPages.forEach((path, page) -> server.createContext(path, exchange -> json(exchange, page)));
        server.start();
        return metricsServer;
    }

    /** The address actually bound. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void scrape(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (Responses.isRead(exchange)) {
                Responses.stream(exchange, 200, TEXT_FORMAT, registry::scrape);
            }
        }
    }

    private static void json(HttpExchange exchange, Supplier<String> page) throws IOException {
        try (exchange) {
            if (Responses.isRead(exchange)) {
                Responses.send(exchange, 200, JSON, page.get() + "\n");
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
