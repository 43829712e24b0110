package dwd.adapters.k8s;

import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.function.Supplier;
import okhttp3.OkHttpClient;

/** Clients that an adapter of this module creates for itself, tunes, and releases when it closes. */
public final class OwnedClients {

    private OwnedClients() {
    }

    /**
     * A fresh client from {@code newClient}, tuned for watches: no read or call timeout, since a
     * watch may be idle for minutes, and a read timeout would end it. HTTP/2
     * and its pings stay on: they are what notices a dead connection when no timeout does.
     */
    public static ApiClient forWatches(Supplier<ApiClient> newClient) {
        ApiClient client = newClient.get();
        client.setHttpClient(client.getHttpClient().newBuilder()
                .readTimeout(Duration.ZERO)
                .callTimeout(Duration.ZERO)
                .build());
        return client;
    }

    /** Frees the threads and connections of a client nobody uses any more; never fails. */
    public static void release(ApiClient client) {
        OkHttpClient http = client.getHttpClient();
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }
}
