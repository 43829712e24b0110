package dwd.adapters.k8s.prober;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain-HTTP server on 127.0.0.1 for what a real API server will not do: never answer, count the
 * connections its clients open, or let a connection break after some requests.
 */
final class LoopbackServer implements AutoCloseable {

    /** What a connection does once it has answered its share of requests. */
    enum AfterShare { KEEP_ANSWERING, GO_SILENT, CLOSE }

    private final ServerSocket socket;
    private final boolean answers;
    private final int status;
    private final int requestsPerConnection;
    private final AfterShare afterShare;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger closedByClients = new AtomicInteger();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    private LoopbackServer(boolean answers, int status, int requestsPerConnection, AfterShare afterShare)
            throws IOException {
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.answers = answers;
        this.status = status;
        this.requestsPerConnection = requestsPerConnection;
        this.afterShare = afterShare;
        Thread.ofVirtual().start(this::acceptAll);
    }

    /** Accepts connections and never sends a byte. */
    static LoopbackServer silent() throws IOException {
        return new LoopbackServer(false, 200, 0, AfterShare.GO_SILENT);
    }

    /** Answers every request with a {@code /version} document, keeping connections open for reuse. */
    static LoopbackServer versionServer() throws IOException {
        return new LoopbackServer(true, 200, Integer.MAX_VALUE, AfterShare.KEEP_ANSWERING);
    }

    /** Answers every request with {@code status} and a {@code /version} body, keeping connections open. */
    static LoopbackServer answering(int status) throws IOException {
        return new LoopbackServer(true, status, Integer.MAX_VALUE, AfterShare.KEEP_ANSWERING);
    }

    /**
     * Answers the first {@code requests} requests of each connection with a {@code /version}
     * document; then the connection goes silent (a connection that broke without a word: the client
     * can still write, nothing comes back) or is closed.
     */
    static LoopbackServer breakingEachConnectionAfter(int requests, AfterShare then) throws IOException {
        return new LoopbackServer(true, 200, requests, then);
    }

    /** Requests answered, on all connections. */
    int requests() {
        return requests.get();
    }

    String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    /** A kubeconfig for this server with a bearer token. */
    String kubeconfig() {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: loopback
                  cluster:
                    server: %s
                users:
                - name: probe
                  user:
                    token: not-a-real-token
                contexts:
                - name: loopback
                  context:
                    cluster: loopback
                    user: probe
                current-context: loopback
                """.formatted(url());
    }

    int connections() {
        return connections.get();
    }

    /** Connections the client closed (the server read the end of the stream). */
    int closedByClients() {
        return closedByClients.get();
    }

    private void acceptAll() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                connections.incrementAndGet();
                open.add(connection);
                if (answers) {
                    Thread.ofVirtual().start(() -> answerAll(connection));
                }
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void answerAll(Socket connection) {
        byte[] body = "{\"major\":\"1\",\"minor\":\"36\",\"gitVersion\":\"v1.36.0-loopback\"}"
                .getBytes(StandardCharsets.UTF_8);
        try (connection;
             var in = new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.ISO_8859_1))) {
            OutputStream out = connection.getOutputStream();
            for (int answered = 0; ; answered++) {
                String requestLine = in.readLine();
                if (requestLine == null) {
                    closedByClients.incrementAndGet();
                    return;
                }
                String header;
                do {
                    header = in.readLine();
                } while (header != null && !header.isEmpty());
                if (answered >= requestsPerConnection) {
                    continue; // silent: read on, answer nothing
                }
                requests.incrementAndGet();
                out.write(("HTTP/1.1 " + status + " Status\r\nContent-Type: application/json\r\nConnection: keep-alive\r\n"
                        + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
                if (answered + 1 >= requestsPerConnection && afterShare == AfterShare.CLOSE) {
                    return;
                }
            }
        } catch (IOException closed) {
            // the client went away
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket connection : open) {
            connection.close();
        }
    }
}
