package dwd.adapters.k8s.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A shoot's API server as a hostile or unlucky shoot owner could run it, on 127.0.0.1 over plain
 * HTTP: every request is answered by the test's {@link Answers} (by path), so it can throttle with
 * any Retry-After, stream a lease list of any size, hand out a continue token with every page,
 * redirect elsewhere, or answer like a healthy shoot whose kubelets stopped. Counts what it sends.
 */
public final class ShootApiStub implements AutoCloseable {

    /** Answers one request. */
    @FunctionalInterface
    public interface Answer {
        void answer(HttpExchange exchange) throws IOException;
    }

    /** Picks the answer for a request from its path (without query and trailing slash). */
    @FunctionalInterface
    public interface Answers extends Function<String, Answer> { }

    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

    private final HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<Instant> requestTimes = new CopyOnWriteArrayList<>();
    private final AtomicLong bytesSent = new AtomicLong();
    private volatile Answers answers = path -> status(404, Map.of());

    public ShootApiStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath().replaceAll("(?<=.)/+$", ""); // client-java asks /version/
            requestTimes.add(Instant.now());
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            try (exchange) {
                answers.apply(path).answer(exchange);
            } catch (IOException clientGone) {
                // The client stopped reading (it refused the answer, or timed out): nothing to do.
            }
        });
        server.start();
    }

    /** From now on, requests are answered by {@code answers}. */
    public ShootApiStub answering(Answers newAnswers) {
        this.answers = newAnswers;
        return this;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** A kubeconfig that reaches this server with a bearer token. */
    public String kubeconfig() {
        return """
                apiVersion: v1
                kind: Config
                current-context: stub
                contexts:
                - name: stub
                  context: {cluster: stub, user: stub}
                clusters:
                - name: stub
                  cluster: {server: "%s"}
                users:
                - name: stub
                  user: {token: stub-token}
                """.formatted(url());
    }

    /** Every request so far, as {@code METHOD /path?query}. */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    /** When the requests of {@link #requests()} arrived, in the same order. */
    public List<Instant> requestTimes() {
        return List.copyOf(requestTimes);
    }

    /** Body bytes sent so far, on all answers that stream through {@link #stream}. */
    public long bytesSent() {
        return bytesSent.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** {@code status} with a small Kubernetes Status body and these headers. */
    public static Answer status(int status, Map<String, String> headers) {
        return exchange -> {
            headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            json(exchange, status, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":"
                    + status + "}");
        };
    }

    /** A {@code /version} document. */
    public static Answer version() {
        return exchange -> json(exchange, 200, "{\"major\":\"1\",\"minor\":\"36\",\"gitVersion\":\"v1.36.3\"}");
    }

    /** A node list: these nodes, in pool {@code pool-a}, Ready. */
    public static Answer nodes(List<String> names) {
        return exchange -> {
            var items = new ArrayList<String>();
            for (String name : names) {
                items.add("{\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"worker.gardener.cloud/pool\":\"pool-a\"}},"
                        + "\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"KubeletReady\"}]}}");
            }
            json(exchange, 200, "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":["
                    + String.join(",", items) + "]}");
        };
    }

    /** A lease list: a lease per entry, renewed at its instant. */
    public static Answer leases(Map<String, Instant> renewTimes) {
        return exchange -> {
            var items = new ArrayList<String>();
            renewTimes.forEach((name, renewed) -> items.add(lease(name, renewed)));
            json(exchange, 200, "{\"kind\":\"LeaseList\",\"apiVersion\":\"coordination.k8s.io/v1\",\"metadata\":{},"
                    + "\"items\":[" + String.join(",", items) + "]}");
        };
    }

    /**
     * One page of {@code count} leases of about {@code bytesEach} bytes each (orphans, renewed now),
     * streamed as it is written: a shoot owner's flood of kube-node-lease.
     */
    public Answer leaseFlood(int count, int bytesEach) {
        return exchange -> stream(exchange, out -> {
            out.write("{\"kind\":\"LeaseList\",\"apiVersion\":\"coordination.k8s.io/v1\",\"metadata\":{},\"items\":[");
            String padding = "x".repeat(Math.max(0, bytesEach - 200));
            for (int i = 0; i < count; i++) {
                out.write((i == 0 ? "" : ",") + "{\"metadata\":{\"name\":\"orphan-" + i + "\",\"annotations\":{\"pad\":\""
                        + padding + "\"}},\"spec\":{\"renewTime\":\"" + MICRO_TIME.format(Instant.now()) + "\"}}");
            }
            out.write("]}");
        });
    }

    /** A page of one lease, always with a new continue token: a list that never ends. */
    public static Answer endlessPages() {
        AtomicLong page = new AtomicLong();
        return exchange -> json(exchange, 200, "{\"kind\":\"LeaseList\",\"metadata\":{\"continue\":\"page-"
                + page.incrementAndGet() + "\"},\"items\":[" + lease("lease-" + page.get(), Instant.now()) + "]}");
    }

    /** A {@code 302} to {@code location}. */
    public static Answer redirect(String location) {
        return exchange -> {
            exchange.getResponseHeaders().add("Location", location);
            exchange.sendResponseHeaders(302, -1);
        };
    }

    /** {@code status} with a body of {@code bytes} bytes, streamed. */
    public Answer largeBody(int status, long bytes) {
        return exchange -> stream(exchange, status, out -> {
            String chunk = "y".repeat(64 * 1024);
            for (long sent = 0; sent < bytes; sent += chunk.length()) {
                out.write(chunk);
            }
        });
    }

    private static String lease(String name, Instant renewed) {
        return "{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"kube-node-lease\"},\"spec\":{\"holderIdentity\":\""
                + name + "\",\"leaseDurationSeconds\":40,\"renewTime\":\"" + MICRO_TIME.format(renewed) + "\"}}";
    }

    private static void json(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** Writes text pieces to a streamed answer. */
    @FunctionalInterface
    public interface Writer {
        void write(Pieces out) throws IOException;
    }

    /** Where a streamed answer's pieces go. */
    public final class Pieces {
        private final OutputStream out;

        private Pieces(OutputStream out) {
            this.out = out;
        }

        public void write(String piece) throws IOException {
            byte[] bytes = piece.getBytes(StandardCharsets.UTF_8);
            out.write(bytes);
            bytesSent.addAndGet(bytes.length);
        }
    }

    private void stream(HttpExchange exchange, Writer writer) throws IOException {
        stream(exchange, 200, writer);
    }

    private void stream(HttpExchange exchange, int status, Writer writer) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, 0);
        writer.write(new Pieces(exchange.getResponseBody()));
    }
}
