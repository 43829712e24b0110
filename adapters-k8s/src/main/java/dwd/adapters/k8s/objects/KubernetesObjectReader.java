package dwd.adapters.k8s.objects;

import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.input.TextInput;
import dwd.adapters.k8s.input.UnusableInput;
import dwd.adapters.k8s.input.YamlParsers;
import dwd.application.check.ObjectReadException;
import dwd.application.check.ObjectReadException.Reason;
import dwd.application.check.ObjectReader;
import dwd.application.check.ObjectReference;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Reads any live object by kind and name: discovery finds the resource serving the kind (custom
 * resources included), then a plain GET fetches the object as JSON.
 */
public final class KubernetesObjectReader implements ObjectReader {

    private final ApiClient client;
    private final String defaultNamespace;

    /**
     * @param defaultNamespace the namespace of references that name none (for namespaced kinds)
     */
    public KubernetesObjectReader(ApiClient client, String defaultNamespace) {
        this.client = Objects.requireNonNull(client, "client");
        this.defaultNamespace = Objects.requireNonNull(defaultNamespace, "defaultNamespace");
    }

    /**
     * A reader for the cluster of a kubeconfig file's current context, whose namespace (or
     * {@code default}) becomes the default namespace. Relative certificate and token paths in the
     * file resolve against the file's directory, as kubectl resolves them.
     *
     * @param timeout connect, read and write timeout of every call
     * @throws IllegalArgumentException when the file is missing or not a usable kubeconfig; the
     *     message names the file and the problem
     */
    public static KubernetesObjectReader fromKubeconfig(Path kubeconfig, Duration timeout) {
        KubeConfig config;
        try {
            String text = TextInput.read(kubeconfig, TextInput.KUBECONFIG);
            YamlParsers.readThrough(text);
            config = KubeConfig.loadKubeConfig(new StringReader(text));
        } catch (UnusableInput unusable) {
            throw new IllegalArgumentException(unusable.getMessage().equals("no such file")
                    ? "kubeconfig " + kubeconfig + " does not exist; pass --kubeconfig, set KUBECONFIG, or create ~/.kube/config"
                    : "kubeconfig " + kubeconfig + ": " + unusable.getMessage(), unusable);
        } catch (RuntimeException unreadable) {
            throw new IllegalArgumentException("kubeconfig " + kubeconfig + " cannot be read: " + unreadable.getMessage(), unreadable);
        }
        if (config == null) {
            throw new IllegalArgumentException("kubeconfig " + kubeconfig + " holds no kubeconfig");
        }
        config.setFile(kubeconfig.toAbsolutePath().toFile());
        if (config.getServer() == null || config.getServer().isBlank()) {
            throw new IllegalArgumentException("kubeconfig " + kubeconfig + " has no server for its current context "
                    + (config.getCurrentContext() == null ? "(no current-context is set)" : "'" + config.getCurrentContext() + "'"));
        }
        ApiClient client;
        try {
            client = ClientBuilder.kubeconfig(config).build();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("kubeconfig " + kubeconfig + ": credentials cannot be read: " + e.getMessage(), e);
        }
        client.setHttpClient(client.getHttpClient().newBuilder()
                .connectTimeout(timeout)
                .readTimeout(timeout)
                .writeTimeout(timeout)
                .build());
        String namespace = config.getNamespace();
        return new KubernetesObjectReader(client, namespace == null || namespace.isBlank() ? "default" : namespace);
    }

    /** The namespace of references that name none. */
    public String defaultNamespace() {
        return defaultNamespace;
    }

    @Override
    public Map<String, Object> read(ObjectReference reference) {
        ServedResource resource = new ResourceDiscovery(client).resolve(reference.kind(), reference.apiVersion());
        String namespace = reference.namespace().isEmpty() ? defaultNamespace : reference.namespace();
        String path = resource.objectPath(client.escapeString(namespace), client.escapeString(reference.name()));
        String object = resource.namespaced()
                ? resource.qualifiedName() + " \"" + reference.name() + "\" in namespace \"" + namespace + "\""
                : resource.qualifiedName() + " \"" + reference.name() + "\"";
        String action = "get " + object;
        try (Response response = get(path, action).execute()) {
            ResponseBody body = response.body();
            String text = body == null ? "" : body.string();
            if (!response.isSuccessful()) {
                ObjectReadException failure = ApiFailures.readFailure(action,
                        new ApiException(response.code(), response.headers().toMultimap(), text));
                if (failure.reason() == Reason.NOT_FOUND) {
                    throw new ObjectReadException(Reason.NOT_FOUND, object + " not found at " + client.getBasePath()
                            + "; check the name and namespace", failure);
                }
                throw failure;
            }
            return JsonDocuments.parseObject(text).orElseThrow(() -> new ObjectReadException(Reason.INVALID_RESPONSE,
                    "cannot " + action + ": the API server did not answer with a JSON object"));
        } catch (IOException e) {
            throw ApiFailures.readFailure(action, e);
        }
    }

    private Call get(String path, String action) {
        try {
            // Mutable collections: authentication adds its header (or query parameter) to them.
            Map<String, String> headers = new HashMap<>(Map.of("Accept", "application/json"));
            return client.buildCall(null, path, "GET", new ArrayList<>(), new ArrayList<>(), null,
                    headers, new HashMap<>(), new HashMap<>(), new String[] {"BearerToken"}, null);
        } catch (ApiException e) {
            throw ApiFailures.readFailure(action, e);
        }
    }
}
