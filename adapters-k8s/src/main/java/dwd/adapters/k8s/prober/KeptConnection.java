package dwd.adapters.k8s.prober;

import java.io.IOException;
import java.net.Socket;
import okhttp3.Connection;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * The connection a shoot's transport used last, as its network interceptor saw it: the one the
 * shared pool keeps for the shoot's next probe run. Closing it takes it out of use at once, for this
 * shoot only; the pool drops a closed connection instead of handing it out.
 */
final class KeptConnection implements Interceptor {

    private volatile Connection connection;

    @Override
    public Response intercept(Chain chain) throws IOException {
        connection = chain.connection();
        return chain.proceed(chain.request());
    }

    /** Whether a connection from an earlier request is there and not closed. */
    boolean open() {
        Connection last = connection;
        return last != null && !last.socket().isClosed();
    }

    /** Closes the connection, if any: the next request opens a new one. */
    void close() {
        Connection last = connection;
        connection = null;
        if (last != null) {
            Socket socket = last.socket();
            try {
                socket.close();
            } catch (IOException ignored) {
                // closed either way
            }
        }
    }
}
