package dwd.adapters.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dwd.application.health.Health;
import dwd.application.health.HealthCheck;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.function.Supplier;

/**
 * {@code /healthz} (liveness) and {@code /readyz} (readiness) on the health address: 200 when
 * every check passes, 503 otherwise; the body lists each check as {@code [+]name: detail} or
 * {@code [-]name: detail}, as kube-apiserver's own health endpoints do.
 */
public final class HealthServer implements AutoCloseable {

    private static final String TEXT = "text/plain; charset=utf-8";

    private final HttpServer server;

    private HealthServer(HttpServer server) {
        this.server = server;
    }

    public static HealthServer start(Health health, InetSocketAddress address) {
        HttpServer server = Responses.server(address, "health checks");
        server.createContext("/healthz", exchange -> answer(exchange, health::liveness));
        server.createContext("/readyz", exchange -> answer(exchange, health::readiness));
        server.start();
        return new HealthServer(server);
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    private static void answer(HttpExchange exchange, Supplier<Health.Report> check) throws IOException {
        try (exchange) {
            if (!Responses.isRead(exchange)) {
                return;
            }
            Health.Report report = check.get();
            var body = new StringBuilder();
            for (HealthCheck.Result result : report.results()) {
                body.append(result.healthy() ? "[+]" : "[-]").append(result.name()).append(": ")
                        .append(result.detail()).append('\n');
            }
            body.append(report.healthy() ? "ok" : "failed").append('\n');
            Responses.send(exchange, report.healthy() ? 200 : 503, TEXT, body.toString());
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
