package dwd.adapters.k8s.testing;

import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A real API server behind a TLS front of the test's choosing, on 127.0.0.1: the front presents
 * whatever serving certificate the test gives it (one from an unknown authority, an expired one,
 * one for another host), and once a client has accepted it, passes the client's bytes on to the
 * API server, authenticated as the admin (the front's own connection to the server presents the
 * admin's client certificate). Which certificate it presents can change while it runs; the
 * connections accepted count the handshakes attempted.
 */
public final class TlsFront implements AutoCloseable {

    private final ServerSocket listener;
    private final ApiClient upstream;
    private final URI server;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile TestCertificates.Serving presented;
    private volatile boolean closed;

    private TlsFront(ApiClient upstream, TestCertificates.Serving presented) throws IOException {
        this.upstream = upstream;
        this.server = URI.create(upstream.getBasePath());
        this.presented = presented;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("tls-front-" + listener.getLocalPort()).start(this::accept);
    }

    /** A front presenting {@code presented} before {@code controlPlane}'s API server. */
    public static TlsFront inFrontOf(LocalControlPlane controlPlane, TestCertificates.Serving presented) throws IOException {
        return new TlsFront(controlPlane.apiClient(), presented);
    }

    /** From now on, new connections are presented {@code certificate}. */
    public void present(TestCertificates.Serving certificate) {
        this.presented = certificate;
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Connections accepted so far (each a handshake attempted). */
    public int connectionsAccepted() {
        return accepted.get();
    }

    /**
     * A self-contained kubeconfig for a shoot behind this front: {@code https://<host>:<port>}, trusting
     * {@code authority} ({@code certificate-authority-data}), with a bearer token the server never needs.
     */
    public String kubeconfig(String host, TestCertificates.Authority authority) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: shoot
                  cluster:
                    server: https://%s:%d
                    certificate-authority-data: %s
                users:
                - name: dwd
                  user:
                    token: not-needed
                contexts:
                - name: shoot
                  context: {cluster: shoot, user: dwd}
                current-context: shoot
                """.formatted(host, port(), authority.kubeconfigData());
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                accepted.incrementAndGet();
                open.add(client);
                Thread.ofVirtual().start(() -> serve(client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket plain) {
        try (plain) {
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(presented.keyManagers(), null, null);
            var front = (SSLSocket) tls.getSocketFactory().createSocket(plain, null, plain.getPort(), true);
            front.setUseClientMode(false);
            front.setEnabledProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
            front.startHandshake();
            SSLContext toServer = SSLContext.getInstance("TLS");
            toServer.init(upstream.getKeyManagers(), new javax.net.ssl.TrustManager[] {
                    upstream.getHttpClient().x509TrustManager()}, null);
            try (front; Socket back = toServer.getSocketFactory().createSocket(server.getHost(), server.getPort())) {
                open.add(back);
                Thread up = Thread.ofVirtual().start(() -> pipe(front, back));
                pipe(back, front);
                up.join();
            }
        } catch (IOException | GeneralSecurityException | InterruptedException e) {
            // the client refused the certificate, or a side hung up
        }
    }

    private static void pipe(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            in.transferTo(out);
        } catch (IOException e) {
            // a side hung up
        } finally {
            try {
                to.close();
                from.close();
            } catch (IOException ignored) {
                // closed either way
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        for (Socket socket : open) {
            socket.close();
        }
    }
}
