package dwd.adapters.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class MetricsServerTest {

    @Test
    void servesTheRegistryInPrometheusTextFormat() throws Exception {
        var registry = MetricsServer.newRegistry();
        registry.counter("dwd_probe_results", "outcome", "healthy").increment(2);
        try (var server = MetricsServer.start(registry, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                var http = HttpClient.newHttpClient()) {
            var response = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).get().asString().startsWith("text/plain");
            assertThat(response.body()).contains("dwd_probe_results_total{outcome=\"healthy\"} 2.0");
        }
    }

    @Test
    void rejectsWrites() throws Exception {
        try (var server = MetricsServer.start(MetricsServer.newRegistry(),
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                var http = HttpClient.newHttpClient()) {
            var response = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + "/metrics"))
                            .POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(405);
        }
    }
}
