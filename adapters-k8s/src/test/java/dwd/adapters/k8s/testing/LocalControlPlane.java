package dwd.adapters.k8s.testing;

import dwd.adapters.k8s.ApiClients;
import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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

    private LocalControlPlane(KubeAPIServer server) {
        this.server = server;
        this.kubeconfig = server.getKubeConfigYaml();
        this.apiClient = ApiClients.fromKubeconfig(kubeconfig, CALL_TIMEOUT);
    }

    /** Starts a server with the given extra kube-apiserver flags and installs the CRDs. */
    public static LocalControlPlane start(List<String> extraApiServerFlags) {
        Path dir = binariesDirectory();
        List<String> flags = new ArrayList<>(List.of("--bind-address=127.0.0.1"));
        flags.addAll(extraApiServerFlags);
        var config = KubeAPIServerConfigBuilder.anAPIServerConfig()
                .withTestDir(dir.toString())
                .withOfflineMode(true)
                .withApiServerFlags(flags)
                .withStartupTimeout(120_000)
                .build();
        var server = new KubeAPIServer(config);
        server.start();
        var controlPlane = new LocalControlPlane(server);
        try {
            controlPlane.installCrds();
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

    private void installCrds() {
        var api = new ApiextensionsV1Api(apiClient);
        for (String file : CRDS) {
            V1CustomResourceDefinition crd = loadCrd(file);
            try {
                api.createCustomResourceDefinition(crd).execute();
            } catch (ApiException e) {
                throw new IllegalStateException("cannot install CRD " + file + ": " + e.getResponseBody(), e);
            }
            String name = crd.getMetadata().getName();
            Awaitility.await("CRD " + name + " established")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions()
                    .until(() -> isEstablished(api.readCustomResourceDefinition(name).execute()));
        }
    }

    private static boolean isEstablished(V1CustomResourceDefinition crd) {
        return crd.getStatus() != null && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static V1CustomResourceDefinition loadCrd(String file) {
        try (InputStream in = LocalControlPlane.class.getResourceAsStream("/dwd/crds/" + file)) {
            if (in == null) {
                throw new IllegalStateException("CRD " + file + " is not on the test class path (deploy/crds)");
            }
            return Yaml.loadAs(new InputStreamReader(in, StandardCharsets.UTF_8), V1CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        server.stop();
    }
}
