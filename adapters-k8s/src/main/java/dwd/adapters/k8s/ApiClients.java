package dwd.adapters.k8s;

import dwd.adapters.k8s.input.YamlParsers;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.UnaryOperator;
import okhttp3.Interceptor;

/** Builds client-java {@link ApiClient}s from kubeconfig documents, and adds interceptors to them. */
public final class ApiClients {

    private ApiClients() {
    }

    /** Adds {@code interceptor} (last) to each client it is applied to, keeping the client's other settings. */
    public static UnaryOperator<ApiClient> intercepting(Interceptor interceptor) {
        return client -> {
            client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(interceptor).build());
            return client;
        };
    }

    /**
     * A client for the cluster the kubeconfig's current context points at.
     *
     * @param kubeconfigYaml the kubeconfig document
     * @param timeout connect, read and write timeout of every call
     * @throws IllegalArgumentException when the document is not a usable kubeconfig
     */
    public static ApiClient fromKubeconfig(String kubeconfigYaml, Duration timeout) {
        KubeConfig config;
        try {
            YamlParsers.readThrough(kubeconfigYaml);
            config = KubeConfig.loadKubeConfig(new StringReader(kubeconfigYaml));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("kubeconfig does not parse: " + e.getMessage(), e);
        }
        if (config.getServer() == null || config.getServer().isBlank()) {
            throw new IllegalArgumentException("kubeconfig has no server for its current context");
        }
        try {
            ApiClient client = ClientBuilder.kubeconfig(config).build();
            client.setHttpClient(client.getHttpClient().newBuilder()
                    .connectTimeout(timeout)
                    .readTimeout(timeout)
                    .writeTimeout(timeout)
                    .build());
            return client;
        } catch (IOException e) {
            throw new UncheckedIOException("kubeconfig credentials cannot be read: " + e.getMessage(), e);
        }
    }
}
