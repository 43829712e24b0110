package dwd.adapters.k8s.testing;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dwd.adapters.k8s.ApiClients;
import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;

/**
 * A real etcd + kube-apiserver on loopback, started through kube-api-test in offline mode from the
 * binaries that {@code scripts/control-plane} built, with the Cluster and Machine CRDs installed.
 */
public final class LocalControlPlane implements AutoCloseable {

    /** The CRDs every server gets, as shipped in {@code deploy/crds}. */
    static final List<String> CRDS = List.of(
            "clusters.extensions.gardener.cloud.yaml",
            "machines.machine.sapcloud.io.yaml");
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    private final KubeAPIServer server;
    private final String kubeconfig;
    private final ApiClient apiClient;
    /** Static bearer tokens by user. */
    private final Map<String, String> tokens;

    private LocalControlPlane(KubeAPIServer server, Map<String, String> tokens) {
        this.server = server;
        this.kubeconfig = server.getKubeConfigYaml();
        this.apiClient = ApiClients.fromKubeconfig(kubeconfig, CALL_TIMEOUT);
        this.tokens = Map.copyOf(tokens);
    }

    /** Starts a server with the given extra kube-apiserver flags and installs the CRDs. */
    public static LocalControlPlane start(List<String> extraApiServerFlags) {
        return start(extraApiServerFlags, List.of());
    }

    /**
     * Starts a server with the given extra kube-apiserver flags that also authenticates {@code tokenUsers}
     * by static bearer tokens (no groups), and installs the CRDs.
     */
    public static LocalControlPlane start(List<String> extraApiServerFlags, List<String> tokenUsers) {
        Path dir = binariesDirectory();
        List<String> flags = new ArrayList<>(List.of("--bind-address=127.0.0.1"));
        flags.addAll(extraApiServerFlags);
        Map<String, String> tokens = new LinkedHashMap<>();
        if (!tokenUsers.isEmpty()) {
            var lines = new StringBuilder();
            var random = new SecureRandom();
            for (int i = 0; i < tokenUsers.size(); i++) {
                String user = tokenUsers.get(i);
                byte[] secret = new byte[12];
                random.nextBytes(secret);
                String token = user + "-" + HexFormat.of().formatHex(secret);
                tokens.put(user, token);
                lines.append(token).append(',').append(user).append(",uid-").append(i + 1).append('\n');
            }
            flags.add("--token-auth-file=" + writeTokenFile(lines.toString()));
        }
        var config = KubeAPIServerConfigBuilder.anAPIServerConfig()
                .withTestDir(dir.toString())
                .withOfflineMode(true)
                .withApiServerFlags(flags)
                .withStartupTimeout(120_000)
                .build();
        var server = new KubeAPIServer(config);
        server.start();
        var controlPlane = new LocalControlPlane(server, tokens);
        try {
            installCrds(controlPlane.apiClient);
        } catch (RuntimeException e) {
            controlPlane.close();
            throw e;
        }
        return controlPlane;
    }

    /** Where {@code scripts/control-plane} put the binaries; fails with what to run if they are missing. */
    static Path binariesDirectory() {
        String configured = System.getProperty("dwd.controlPlane.dir",
                System.getenv().getOrDefault("DWD_CONTROL_PLANE_DIR",
                        Path.of(System.getProperty("user.home"), ".cache", "dwd", "kube-api-test").toString()));
        Path dir = Path.of(configured);
        try (var versions = Files.list(dir.resolve("k8s"))) {
            if (versions.anyMatch(version -> Files.isExecutable(version.resolve("kube-apiserver")))) {
                return dir;
            }
        } catch (IOException missing) {
            // reported below
        }
        throw new IllegalStateException("no local control plane binaries under " + dir
                + "/k8s: run 'scripts/control-plane' (or 'make test', which runs it) to build them");
    }

    /** A client-java client with admin rights on this server. */
    public ApiClient apiClient() {
        return apiClient;
    }

    /** A kubeconfig document (client certificate) for this server. */
    public String kubeconfig() {
        return kubeconfig;
    }

    /**
     * The kubeconfig with its certificate and key files embedded as {@code *-data} fields, as a
     * kubeconfig stored in a Secret has them (dwd refuses kubeconfigs from secrets that name local files).
     */
    public String selfContainedKubeconfig() {
        return embedFiles(kubeconfig);
    }

    /**
     * A self-contained kubeconfig for a user of {@link WithLocalControlPlane#tokenUsers()}: this server,
     * its CA, and the user's bearer token.
     */
    @SuppressWarnings("unchecked")
    public String kubeconfigOf(String user) {
        String token = tokens.get(user);
        if (token == null) {
            throw new IllegalArgumentException("no token user " + user + "; declare it in @WithLocalControlPlane(tokenUsers)");
        }
        var yaml = new org.yaml.snakeyaml.Yaml();
        Map<String, Object> document = yaml.load(selfContainedKubeconfig());
        for (Object entry : (List<Object>) document.getOrDefault("users", List.of())) {
            ((Map<String, Object>) entry).put("user", new LinkedHashMap<>(Map.of("token", token)));
        }
        return yaml.dump(document);
    }

    /** A client acting as a user of {@link WithLocalControlPlane#tokenUsers()}. */
    public ApiClient apiClientOf(String user, Duration timeout) {
        return ApiClients.fromKubeconfig(kubeconfigOf(user), timeout);
    }

    /** The token file is read once by the API server at start; it lives until the JVM ends. */
    private static Path writeTokenFile(String lines) {
        try {
            Path file = Files.createTempFile("dwd-tokens", ".csv");
            file.toFile().deleteOnExit();
            return Files.writeString(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the API server's token file", e);
        }
    }

    /** The API server's URL, {@code https://127.0.0.1:<port>}. */
    public String server() {
        return apiClient.getBasePath();
    }

    /** The CA that signed the API server's serving certificate (PEM), as a pod's {@code ca.crt} holds it. */
    @SuppressWarnings("unchecked")
    public byte[] certificateAuthority() {
        Map<String, Object> document = new org.yaml.snakeyaml.Yaml().load(selfContainedKubeconfig());
        var cluster = (Map<String, Object>) ((Map<String, Object>) ((List<Object>) document.get("clusters")).getFirst())
                .get("cluster");
        return java.util.Base64.getDecoder().decode((String) cluster.get("certificate-authority-data"));
    }

    /** A fresh client with its own timeouts, for tests that need to tune them. */
    public ApiClient newApiClient(Duration timeout) {
        return ApiClients.fromKubeconfig(kubeconfig, timeout);
    }

    /** Creates a namespace with a unique name starting with {@code prefix} and returns its name. */
    public String createNamespace(String prefix) {
        String name = (prefix + "-" + NAMESPACES.incrementAndGet() + "-" + Long.toString(System.nanoTime() % 1_000_000, 36))
                .toLowerCase(Locale.ROOT);
        try {
            new CoreV1Api(apiClient)
                    .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name)))
                    .execute();
        } catch (ApiException e) {
            throw new IllegalStateException("cannot create namespace " + name + ": " + e.getResponseBody(), e);
        }
        return name;
    }

    // CRDs go through the dynamic API as raw documents: the typed V1JSONSchemaProps model
    // serialises empty fields (e.g. "dependencies") that the API server rejects.
    /** Installs the Cluster and Machine CRDs on the server {@code client} talks to and waits until they are served. */
    public static void installCrds(ApiClient client) {
        var api = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client);
        for (String file : CRDS) {
            var crd = new DynamicKubernetesObject(loadDocument(file));
            var created = api.create(crd);
            if (!created.isSuccess()) {
                throw new IllegalStateException("cannot install CRD " + file + ": " + created.getStatus());
            }
            String name = crd.getMetadata().getName();
            Awaitility.await("CRD " + name + " established")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> isEstablished(api.get(name)));
        }
    }

    private static boolean isEstablished(KubernetesApiResponse<DynamicKubernetesObject> crd) {
        if (!crd.isSuccess()) {
            return false;
        }
        JsonObject raw = crd.getObject().getRaw();
        if (!raw.has("status") || !raw.getAsJsonObject("status").has("conditions")) {
            return false;
        }
        for (JsonElement condition : raw.getAsJsonObject("status").getAsJsonArray("conditions")) {
            JsonObject c = condition.getAsJsonObject();
            if ("Established".equals(c.get("type").getAsString()) && "True".equals(c.get("status").getAsString())) {
                return true;
            }
        }
        return false;
    }

    /** A YAML document from {@code deploy/crds} (on the test class path) as a JSON object. */
    static JsonObject loadDocument(String file) {
        try (InputStream in = LocalControlPlane.class.getResourceAsStream("/dwd/crds/" + file)) {
            if (in == null) {
                throw new IllegalStateException("CRD " + file + " is not on the test class path (deploy/crds)");
            }
            Object document = new org.yaml.snakeyaml.Yaml().load(new InputStreamReader(in, StandardCharsets.UTF_8));
            return new Gson().toJsonTree(document).getAsJsonObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static String embedFiles(String kubeconfig) {
        var yaml = new org.yaml.snakeyaml.Yaml();
        Map<String, Object> document = yaml.load(kubeconfig);
        for (String section : List.of("clusters", "users")) {
            for (Object entry : (List<Object>) document.getOrDefault(section, List.of())) {
                Object body = ((Map<String, Object>) entry).get(section.equals("clusters") ? "cluster" : "user");
                if (body instanceof Map<?, ?> fields) {
                    for (String field : List.of("certificate-authority", "client-certificate", "client-key")) {
                        Object file = fields.get(field);
                        if (file instanceof String path) {
                            ((Map<String, Object>) fields).remove(field);
                            ((Map<String, Object>) fields).put(field + "-data", base64Of(Path.of(path)));
                        }
                    }
                }
            }
        }
        return yaml.dump(document);
    }

    private static String base64Of(Path file) {
        try {
            return java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot embed " + file + " in a kubeconfig", e);
        }
    }

    @Override
    public void close() {
        server.stop();
    }
}
