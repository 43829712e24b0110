package dwd.bootstrap.prober;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import okhttp3.Call;
import okhttp3.Headers;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * A plain-HTTP proxy on 127.0.0.1 in front of the real API server, which injects faults per request:
 * an HTTP status with headers (e.g. 429 with {@code Retry-After}), a reset connection, or no answer at
 * all. Everything else is forwarded upstream through the given client (which holds the admin
 * credentials) and its answer streamed back chunk by chunk, so that watches work through it too.
 * Connections open at a moment can be made half-open ({@link #silenceOpenConnections()}): they carry
 * nothing more and are never closed, while new ones pass. Plain HTTP/1.1, so no HTTP/2 ping notices.
 */
public final class FaultProxy implements AutoCloseable {

    /** What the proxy does with one request. */
    public sealed interface Action permits Forward, Answer, Reset, NoAnswer { }

    /** Pass the request on to the API server. */
    public record Forward() implements Action { }

    /** Answer with this status, a Kubernetes {@code Status} body and these extra headers. */
    public record Answer(int status, Map<String, String> headers) implements Action { }

    /** Read the request, then reset the connection (TCP RST) without a byte of answer. */
    public record Reset() implements Action { }

    /** Read the request and never answer; the connection stays open until the client gives up. */
    public record NoAnswer() implements Action { }

    public static final Action FORWARD = new Forward();

    /** Decides per request, from its method and its path with query. */
    @FunctionalInterface
    public interface Rules {
        Action decide(String method, String pathAndQuery);
    }

    /** One request the proxy saw, and what it did with it, e.g. {@code forwarded 200} or {@code answered 429}. */
    public record Exchange(Instant at, String method, String path, String outcome) { }

    private final OkHttpClient upstream;
    private final String upstreamBase;
    private final int port;
    private volatile ServerSocket server;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final Set<Call> calls = ConcurrentHashMap.newKeySet();
    private final List<Exchange> exchanges = new ArrayList<>();
    private volatile Rules rules = (method, path) -> FORWARD;
    private volatile BiConsumer<String, String> beforeForwarding = (method, path) -> { };
    private volatile boolean closed;
    private final java.util.concurrent.CountDownLatch closedLatch = new java.util.concurrent.CountDownLatch(1);
    private final Set<Socket> silenced = ConcurrentHashMap.newKeySet();

    /**
     * @param upstream     a client for the API server with its credentials; its read timeout should be 0 (watches)
     * @param upstreamBase the API server's base URL, e.g. {@code https://127.0.0.1:6443}
     */
    public FaultProxy(OkHttpClient upstream, String upstreamBase) throws IOException {
        this.upstream = upstream;
        this.upstreamBase = upstreamBase.replaceAll("/+$", "");
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.port = server.getLocalPort();
        ServerSocket listening = server;
        Thread.ofVirtual().name("fault-proxy-accept").start(() -> acceptAll(listening));
    }

    /**
     * The API server "goes down": new connections are refused, open ones (watches included) are cut.
     * {@link #start()} brings it back on the same port.
     */
    public synchronized void stop() throws IOException {
        server.close();
        calls.forEach(Call::cancel);
        for (Socket socket : connections) {
            socket.close();
        }
    }

    /** Listens again, on the same port, after {@link #stop()}. */
    public synchronized void start() throws IOException {
        var listening = new ServerSocket();
        listening.setReuseAddress(true);
        listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        server = listening;
        Thread.ofVirtual().name("fault-proxy-accept").start(() -> acceptAll(listening));
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /** A kubeconfig that reaches the API server through this proxy (the proxy adds the credentials). */
    public String kubeconfig() {
        return kubeconfigFor(url());
    }

    static String kubeconfigFor(String server) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: proxied
                  cluster:
                    server: %s
                users:
                - name: probe
                  user:
                    token: the-proxy-adds-the-real-credentials
                contexts:
                - name: proxied
                  context:
                    cluster: proxied
                    user: probe
                current-context: proxied
                """.formatted(server);
    }

    /**
     * Every connection open now goes silent for good: no byte of an answer in progress (a watch's
     * events) or of any later one reaches the client, and the connection is neither closed nor reset,
     * as behind a NAT or load balancer that lost its state. New connections pass.
     */
    public void silenceOpenConnections() {
        silenced.addAll(connections);
    }

    /** Holds a silenced connection's thread until the proxy closes: the client hears nothing, not even a close. */
    private void holdSilently() {
        try {
            closedLatch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** From now on, requests are handled as {@code rules} decide. */
    public void rules(Rules rules) {
        this.rules = rules;
    }

    /** Called with method and path before each forwarded request goes upstream (on the connection's thread). */
    void beforeForwarding(BiConsumer<String, String> hook) {
        this.beforeForwarding = hook;
    }

    public synchronized List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    private synchronized void record(Request request, String outcome) {
        exchanges.add(new Exchange(Instant.now(), request.method(), request.url().encodedPath(), outcome));
    }

    private void acceptAll(ServerSocket listening) {
        while (!closed) {
            try {
                Socket socket = listening.accept();
                connections.add(socket);
                Thread.ofVirtual().name("fault-proxy-connection").start(() -> serve(socket));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            while (!closed) {
                Incoming incoming = readRequest(in);
                if (incoming == null) {
                    return;
                }
                if (silenced.contains(socket)) {
                    holdSilently();
                    return;
                }
                Request request = incoming.request();
                switch (rules.decide(request.method(), incoming.pathAndQuery())) {
                    case Reset ignored -> {
                        record(request, "reset");
                        socket.setSoLinger(true, 0); // closing now sends RST
                        return;
                    }
                    case NoAnswer ignored -> {
                        record(request, "no answer");
                        while (in.read() >= 0) {
                            // wait for the client to hang up
                        }
                        return;
                    }
                    case Answer answer -> {
                        record(request, "answered " + answer.status());
                        writeStatus(out, answer);
                    }
                    case Forward ignored -> forward(request, out, socket);
                }
                if (incoming.closeAfter()) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client or the proxy went away
        } finally {
            connections.remove(socket);
        }
    }

    private void forward(Request request, OutputStream out, Socket socket) throws IOException {
        beforeForwarding.accept(request.method(), request.url().encodedPath());
        Call call = upstream.newCall(request);
        calls.add(call);
        try (Response response = call.execute()) {
            record(request, "forwarded " + response.code());
            StringBuilder head = new StringBuilder("HTTP/1.1 ").append(response.code()).append(' ')
                    .append(response.message().isBlank() ? "Status" : response.message()).append("\r\n");
            Headers headers = response.headers();
            for (int i = 0; i < headers.size(); i++) {
                if (!HOP_BY_HOP.contains(headers.name(i).toLowerCase(Locale.ROOT))) {
                    head.append(headers.name(i)).append(": ").append(headers.value(i)).append("\r\n");
                }
            }
            boolean noBody = request.method().equals("HEAD") || response.code() == 204 || response.code() == 304;
            head.append(noBody ? "Content-Length: 0\r\n\r\n" : "Transfer-Encoding: chunked\r\n\r\n");
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            if (noBody) {
                return;
            }
            InputStream body = response.body().byteStream();
            byte[] buffer = new byte[16 * 1024];
            int read;
            while ((read = body.read(buffer)) != -1) { // returns what has arrived: watch events pass at once
                if (silenced.contains(socket)) {
                    holdSilently();
                    return;
                }
                out.write((Integer.toHexString(read) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(buffer, 0, read);
                out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        } finally {
            calls.remove(call);
        }
    }

    private static void writeStatus(OutputStream out, Answer answer) throws IOException {
        String reason = switch (answer.status()) {
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 409 -> "Conflict";
            case 429 -> "TooManyRequests";
            case 500 -> "InternalError";
            case 503 -> "ServiceUnavailable";
            default -> "Unknown";
        };
        byte[] body = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"injected by the test's fault proxy\",\"reason\":\"" + reason + "\",\"code\":"
                + answer.status() + "}").getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("HTTP/1.1 ").append(answer.status()).append(' ').append(reason)
                .append("\r\nContent-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
        answer.headers().forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    /** Headers that belong to one connection (or that the proxy sets itself), never passed on. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "content-length", "host", "upgrade", "te", "trailer", "accept-encoding",
            "content-encoding", "authorization");

    private record Incoming(Request request, String pathAndQuery, boolean closeAfter) { }

    /** The next request on the connection, ready to send upstream; null when the client closed it. */
    private Incoming readRequest(InputStream in) throws IOException {
        String requestLine = readLine(in);
        if (requestLine == null) {
            return null;
        }
        String[] parts = requestLine.split(" ");
        if (parts.length < 3) {
            throw new IOException("not an HTTP request: " + requestLine);
        }
        String method = parts[0];
        String pathAndQuery = parts[1];
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        Headers.Builder forwarded = new Headers.Builder();
        String line;
        while ((line = readLine(in)) != null && !line.isEmpty()) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            headers.put(name, value);
            if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                forwarded.add(name, value);
            }
        }
        byte[] body;
        if ("chunked".equalsIgnoreCase(headers.getOrDefault("Transfer-Encoding", ""))) {
            body = readChunked(in);
        } else {
            body = in.readNBytes(Integer.parseInt(headers.getOrDefault("Content-Length", "0")));
        }
        RequestBody requestBody = body.length > 0 || Set.of("POST", "PUT", "PATCH").contains(method)
                ? RequestBody.create(body, MediaType.parse(headers.getOrDefault("Content-Type", "application/json")))
                : null;
        Request request = new Request.Builder()
                .url(upstreamBase + pathAndQuery)
                .headers(forwarded.build())
                .method(method, requestBody)
                .build();
        return new Incoming(request, pathAndQuery, "close".equalsIgnoreCase(headers.getOrDefault("Connection", "")));
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = readLine(in);
            if (size == null) {
                throw new EOFException("chunked body ended early");
            }
            int length = Integer.parseInt(size.split(";")[0].trim(), 16);
            if (length == 0) {
                while (true) { // trailers
                    String trailer = readLine(in);
                    if (trailer == null || trailer.isEmpty()) {
                        return body.toByteArray();
                    }
                }
            }
            body.write(in.readNBytes(length));
            readLine(in);
        }
    }

    /** One CRLF-terminated line without its terminator; null at the end of the stream. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        closedLatch.countDown();
        server.close();
        calls.forEach(Call::cancel);
        for (Socket socket : connections) {
            socket.close();
        }
    }
}
