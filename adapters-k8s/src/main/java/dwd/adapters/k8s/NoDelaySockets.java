package dwd.adapters.k8s;

import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * Plain sockets with Nagle's algorithm off ({@code TCP_NODELAY}), for OkHttp to lay TLS over.
 *
 * <p>Why: OkHttp leaves Nagle on. On an HTTP/2 connection that lives long (the one the EndpointSlice
 * watch keeps open), a request with a body is written as a HEADERS frame, then a DATA frame; Nagle
 * holds the DATA back until the HEADERS segment is acknowledged, and the API server's kernel delays
 * that acknowledgement by its delayed-ACK timer (40 ms on Linux). Every DELETE with options then
 * waited about 40 ms before it reached the server.
 */
public final class NoDelaySockets extends SocketFactory {

    /**
     * The one instance: OkHttp shares a connection only between clients with equal socket factories, so every client
     * on these sockets can share one.
     */
    public static final NoDelaySockets SHARED = new NoDelaySockets();

    private final SocketFactory sockets = SocketFactory.getDefault();

    private NoDelaySockets() {
    }

    /** {@code client}, its OkHttp client rebuilt on these sockets (timeouts, interceptors and TLS kept). */
    public static ApiClient applyTo(ApiClient client) {
        client.setHttpClient(client.getHttpClient().newBuilder().socketFactory(SHARED).build());
        return client;
    }

    @Override
    public Socket createSocket() throws IOException {
        return noDelay(sockets.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return noDelay(sockets.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return noDelay(sockets.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return noDelay(sockets.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return noDelay(sockets.createSocket(address, port, localAddress, localPort));
    }

    private static Socket noDelay(Socket socket) throws IOException {
        socket.setTcpNoDelay(true);
        return socket;
    }
}
