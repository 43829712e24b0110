package dwd.adapters.k8s.prober;

import dwd.adapters.k8s.input.TextInput;
import dwd.adapters.k8s.input.UnusableInput;
import dwd.adapters.k8s.input.YamlParsers;
import dwd.adapters.k8s.tls.ServerCertificateCheck;
import dwd.application.port.out.ApiFailure;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.StringReader;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import okhttp3.ConnectionPool;
import okhttp3.Protocol;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Turns the kubeconfig of a shoot-access secret into a client for the shoot's API server.
 *
 * <p>The secret comes from the seed, not from dwd's own configuration, so the document is checked
 * before anything acts on it: client-java would run an {@code exec} credential plugin while merely
 * building the client, and would read local files (for example dwd's own service-account token)
 * named by {@code tokenFile} or certificate paths. Only credentials and certificates embedded in the
 * document are accepted.
 *
 * <p>Error messages name the secret and the problem, never content of the document: a YAML error is
 * reported by its kind and position, without the excerpt a YAML parser would quote. The document is
 * read as every YAML dwd reads ({@link YamlParsers}: bounded, aliases resolved within a bound, merge
 * keys refused) before client-java parses it.
 */
final class ShootKubeconfig {

    /** User fields that make client-java run a command or call an identity provider. */
    private static final List<String> PLUGIN_FIELDS = List.of("exec", "auth-provider");
    /** Fields that make client-java read a local file. */
    private static final List<String> USER_FILE_FIELDS = List.of("client-certificate", "client-key", "tokenFile");
    private static final List<String> CLUSTER_FILE_FIELDS = List.of("certificate-authority");

    private ShootKubeconfig() {
    }

    /**
     * A client for the cluster of the document's current context. Each call waits at most
     * {@code timeout} in total. The client's own pool keeps no connection: probe runs send through
     * a transport with a pool of their own (see {@link KubernetesShootClients}).
     *
     * @param secret names the secret the document came from, for messages
     * @throws ApiFailure BAD_INPUT when the document is not a usable kubeconfig
     */
    static ApiClient client(byte[] document, String secret, Duration timeout) {
        KubeConfig config = parse(document, secret);
        String where = secret + ": the kubeconfig";
        String contextName = Optional.ofNullable(config.getCurrentContext())
                .orElseThrow(() -> badInput(where + " has no current-context"));
        Map<String, Object> context = named(config.getContexts(), contextName, "context")
                .orElseThrow(() -> badInput(where + " has no context '" + contextName + "' (its current-context)"));
        String userName = text(context.get("user"));
        String clusterName = text(context.get("cluster"));
        Map<String, Object> user = named(config.getUsers(), userName, "user").orElse(Map.of());
        Map<String, Object> cluster = named(config.getClusters(), clusterName, "cluster").orElse(Map.of());
        List<String> plugins = present(user, PLUGIN_FIELDS);
        if (!plugins.isEmpty()) {
            throw badInput(where + ": user '" + userName + "' uses " + String.join(" and ", plugins)
                    + " credentials, which dwd does not run; embed a token or a client certificate");
        }
        List<String> files = new ArrayList<>(present(user, USER_FILE_FIELDS));
        files.addAll(present(cluster, CLUSTER_FILE_FIELDS));
        if (!files.isEmpty()) {
            throw badInput(where + " refers to local files (" + String.join(", ", files)
                    + "); embed them (token, client-certificate-data, client-key-data, certificate-authority-data)");
        }
        String server = text(cluster.get("server"));
        if (server.isBlank()) {
            throw badInput(where + " has no server for cluster '" + clusterName + "' (context '" + contextName + "')");
        }
        ApiClient client;
        SSLContext tls;
        X509TrustManager trust;
        try {
            client = ClientBuilder.kubeconfig(config).build();
            trust = serverCheck(client);
            tls = tlsContext(client, trust);
        } catch (Exception unusable) {
            // The exception's message may quote credentials: say only what could not be read.
            throw badInput(where + ": its credentials or certificates cannot be used (" + (unusable instanceof
                    GeneralSecurityException ? "a certificate or key in it is not valid PEM, or does not match"
                    : "a certificate, key or token in it cannot be read") + ")");
        }
        long millis = Math.max(1, timeout.toMillis());
        client.setHttpClient(client.getHttpClient().newBuilder()
                .sslSocketFactory(tls.getSocketFactory(), trust)
                // A pool without idle connections, and HTTP/1.1 so that no two concurrent requests
                // share one HTTP/2 connection either.
                .connectionPool(new ConnectionPool(0, 1, TimeUnit.SECONDS))
                .protocols(List.of(Protocol.HTTP_1_1))
                // A redirect is an answer, never followed: the credentials go to the server the kubeconfig
                // names and nowhere else, and what is read comes from there (not from another port, nor over http).
                .followRedirects(false)
                .followSslRedirects(false)
                .connectTimeout(millis, TimeUnit.MILLISECONDS)
                .readTimeout(millis, TimeUnit.MILLISECONDS)
                .writeTimeout(millis, TimeUnit.MILLISECONDS)
                .callTimeout(millis, TimeUnit.MILLISECONDS)
                .build());
        return client;
    }

    /**
     * A TLS context with the client's credentials and trust whose session cache keeps one session:
     * enough for the next probe run's connection to resume the TLS session, where the default cache
     * would keep every run's session (up to 20,480 of them, for a day).
     */
    private static SSLContext tlsContext(ApiClient client, X509TrustManager trust) throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(client.getKeyManagers(), new TrustManager[] {trust}, null);
        context.getClientSessionContext().setSessionCacheSize(1);
        return context;
    }

    /**
     * The check of the shoot's certificate: the kubeconfig's trust and the client's host-name rule, run
     * during the handshake so that a refused certificate is named (unknown authority, dates, names).
     */
    private static ServerCertificateCheck serverCheck(ApiClient client) {
        return new ServerCertificateCheck(client.getHttpClient().x509TrustManager(), client.getHttpClient().hostnameVerifier());
    }

    private static KubeConfig parse(byte[] document, String secret) {
        String text;
        try {
            text = TextInput.read(document, TextInput.KUBECONFIG);
        } catch (UnusableInput unusable) {
            throw badInput(secret + ": the kubeconfig: " + unusable.getMessage());
        }
        try {
            YamlParsers.readThrough(text);
        } catch (UnusableInput notYaml) {
            throw badInput(secret + ": the kubeconfig is not valid YAML (" + notYaml.getMessage() + ")");
        }
        KubeConfig config;
        try {
            config = KubeConfig.loadKubeConfig(new StringReader(text));
        } catch (MarkedYAMLException yaml) {
            var mark = yaml.getProblemMark();
            throw badInput(secret + ": the kubeconfig is not valid YAML (" + yaml.getProblem()
                    + (mark == null ? "" : " at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1))
                    + ")");
        } catch (RuntimeException notAKubeconfig) {
            throw badInput(secret + ": the kubeconfig is not a kubeconfig document (its fields do not have the"
                    + " types a kubeconfig's have)");
        }
        if (config == null) {
            throw badInput(secret + ": the kubeconfig is empty");
        }
        return config;
    }

    /** The body ({@code context}, {@code user} or {@code cluster}) of the entry called {@code name}. */
    @SuppressWarnings("unchecked")
    private static Optional<Map<String, Object>> named(List<Object> entries, String name, String bodyField) {
        if (entries == null) {
            return Optional.empty();
        }
        for (Object entry : entries) {
            if (entry instanceof Map<?, ?> map && name.equals(map.get("name"))
                    && map.get(bodyField) instanceof Map<?, ?> body) {
                return Optional.of((Map<String, Object>) body);
            }
        }
        return Optional.empty();
    }

    private static List<String> present(Map<String, Object> section, List<String> fields) {
        return fields.stream().filter(field -> section.get(field) != null).toList();
    }

    private static String text(Object value) {
        return value instanceof String text ? text : "";
    }

    private static ApiFailure badInput(String message) {
        return new ApiFailure(ApiFailure.Kind.BAD_INPUT, message);
    }
}
