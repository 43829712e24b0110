package dwd.adapters.k8s;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The API server of the cluster a pod runs in, as client-go's in-cluster configuration finds it:
 * {@code KUBERNETES_SERVICE_HOST} and {@code KUBERNETES_SERVICE_PORT}, the CA and the service
 * account's token in {@code /var/run/secrets/kubernetes.io/serviceaccount}. Unlike client-java's
 * {@code ClientBuilder.cluster()} (every client reads the token once and then once a minute, never
 * after a 401), the token is one {@link ServiceAccountToken} for all clients, so a rotated token is
 * picked up within a minute, and at once when the server refuses the old one.
 */
public final class InClusterConfig {

    /** Where the kubelet mounts a pod's service-account token, CA and namespace. */
    public static final Path SERVICE_ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    private final String server;
    private final byte[] certificateAuthority;
    private final ServiceAccountToken token;

    private InClusterConfig(String server, byte[] certificateAuthority, ServiceAccountToken token) {
        this.server = server;
        this.certificateAuthority = certificateAuthority;
        this.token = token;
    }

    /**
     * The in-cluster configuration, if the environment names the API server and {@code directory}
     * holds a token; empty outside a pod.
     *
     * @param nanoTime the monotonic clock that times the token's re-reads ({@link System#nanoTime()})
     * @throws IllegalArgumentException when the token or the CA is there but cannot be used
     */
    public static Optional<InClusterConfig> find(Map<String, String> environment, Path directory, LongSupplier nanoTime) {
        String host = environment.getOrDefault("KUBERNETES_SERVICE_HOST", "");
        String port = environment.getOrDefault("KUBERNETES_SERVICE_PORT", "");
        Path tokenFile = directory.resolve("token");
        if (host.isBlank() || port.isBlank() || !Files.exists(tokenFile)) {
            return Optional.empty();
        }
        Path caFile = directory.resolve("ca.crt");
        byte[] ca;
        try {
            ca = Files.readAllBytes(caFile);
        } catch (IOException e) {
            throw new IllegalArgumentException("in-cluster CA " + caFile + " cannot be read: " + e.getMessage(), e);
        }
        String hostPart = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host; // an IPv6 address
        return Optional.of(new InClusterConfig("https://" + hostPart + ":" + port, ca,
                ServiceAccountToken.read(tokenFile, nanoTime)));
    }

    /** The API server's URL. */
    public String server() {
        return server;
    }

    /** A new client of the API server, authenticating with the service account's current token. */
    public ApiClient newClient() {
        try {
            return new ClientBuilder()
                    .setBasePath(server)
                    .setCertificateAuthority(certificateAuthority)
                    .setAuthentication(client -> client.setHttpClient(
                            client.getHttpClient().newBuilder().addInterceptor(token).build()))
                    .build();
        } catch (RuntimeException e) {
            throw new IllegalStateException("in-cluster client for " + server + " cannot be built: " + e.getMessage(), e);
        }
    }
}
