package dwd.adapters.k8s.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 in front of a server (TLS and HTTP/2 pass through untouched) that can turn
 * every connection open at a moment half-open: from then on such a connection carries no byte either
 * way and is never closed, no FIN and no RST, as behind a NAT or load balancer that lost its state.
 * New connections pass as before.
 */
public final class SilencingTcpProxy implements AutoCloseable {

    private final String upstreamHost;
    private final int upstreamPort;
    private final ServerSocket server;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicInteger opened = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile boolean silenceNew;

    /** Forwards to {@code upstreamHost:upstreamPort}. */
    public SilencingTcpProxy(String upstreamHost, int upstreamPort) throws IOException {
        this.upstreamHost = upstreamHost;
        this.upstreamPort = upstreamPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("silencing-proxy-accept").start(this::acceptAll);
    }

    /** In front of the server a kubeconfig's {@code server: https://host:port} names. */
    public static SilencingTcpProxy inFrontOf(String kubeconfig) throws IOException {
        var server = java.util.regex.Pattern.compile("server: *https?://([^:/\\s]+):(\\d+)").matcher(kubeconfig);
        if (!server.find()) {
            throw new IllegalArgumentException("no server with a port in the kubeconfig");
        }
        return new SilencingTcpProxy(server.group(1), Integer.parseInt(server.group(2)));
    }

    /** {@code kubeconfig} with its server's port replaced by this proxy's. */
    public String route(String kubeconfig) {
        return kubeconfig.replaceFirst("(server: *https?://[^:/\\s]+):" + upstreamPort, "$1:" + port());
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    public int connectionsOpened() {
        return opened.get();
    }

    /** Every connection open now goes silent for good, both ways, without closing; later ones pass. */
    public void silenceOpenConnections() {
        links.forEach(link -> link.silent = true);
    }

    /** While {@code silent}, new connections are accepted and go silent at once too. */
    public void silenceNewConnections(boolean silent) {
        this.silenceNew = silent;
    }

    private void acceptAll() {
        while (closed.getCount() > 0) {
            try {
                Socket client = server.accept();
                opened.incrementAndGet();
                Socket upstream = new Socket(upstreamHost, upstreamPort);
                var link = new Link(client, upstream);
                link.silent = silenceNew;
                links.add(link);
                Thread.ofVirtual().start(() -> link.pump(client, upstream));
                Thread.ofVirtual().start(() -> link.pump(upstream, client));
            } catch (IOException e) {
                if (closed.getCount() == 0) {
                    return;
                }
            }
        }
    }

    /** One proxied connection: client and upstream sockets. */
    private final class Link {
        private final Socket client;
        private final Socket upstream;
        volatile boolean silent;

        Link(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void pump(Socket from, Socket to) {
            byte[] buffer = new byte[16 * 1024];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int read;
                while (!silent && (read = in.read(buffer)) >= 0) {
                    if (silent) {
                        break;
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
                if (silent) {
                    closed.await(); // hold both sockets open, carrying nothing, until the proxy closes
                }
            } catch (IOException | InterruptedException e) {
                // one side went away, or the proxy closed
            } finally {
                if (!silent) {
                    close();
                }
            }
        }

        void close() {
            links.remove(this);
            try {
                client.close();
                upstream.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed.countDown();
        server.close();
        links.forEach(Link::close);
    }
}
