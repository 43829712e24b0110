package dwd.bootstrap.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.config.ConfigFiles;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.CreateOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The manifests in deploy/manifests are accepted by a real API server (server-side dry-run: schema,
 * defaulting, RBAC escalation checks), and the configs they carry load through dwd's config reader.
 */
@WithLocalControlPlane
class DeployManifestsIT {

    static final Path MANIFESTS = Path.of(System.getProperty("dwd.repository.root", "..")).resolve("deploy/manifests");
    static final Map<String, String> PLURALS = Map.of(
            "ServiceAccount", "serviceaccounts", "ClusterRole", "clusterroles", "ClusterRoleBinding", "clusterrolebindings",
            "Role", "roles", "RoleBinding", "rolebindings", "ConfigMap", "configmaps", "Deployment", "deployments");

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> documents(String file) throws Exception {
        var documents = new ArrayList<Map<String, Object>>();
        for (Object document : new org.yaml.snakeyaml.Yaml().loadAll(Files.readString(MANIFESTS.resolve(file)))) {
            documents.add((Map<String, Object>) document);
        }
        return documents;
    }

    @ParameterizedTest
    @ValueSource(strings = {"prober.yaml", "weeder.yaml"})
    void everyDocumentIsAcceptedByTheApiServer(String file, ApiClient client) throws Exception {
        try {
            new CoreV1Api(client).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("garden"))).execute();
        } catch (ApiException alreadyThere) {
            assertThat(alreadyThere.getCode()).isEqualTo(409);
        }
        var dryRun = new CreateOptions();
        dryRun.setDryRun("All");
        List<Map<String, Object>> documents = documents(file);
        assertThat(documents).extracting(d -> d.get("kind")).contains("Deployment", "ClusterRole", "ConfigMap");
        for (Map<String, Object> document : documents) {
            String kind = (String) document.get("kind");
            String apiVersion = (String) document.get("apiVersion");
            String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
            String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
            var api = new DynamicKubernetesApi(group, version, PLURALS.get(kind), client);
            JsonObject json = new Gson().toJsonTree(document).getAsJsonObject();
            var created = api.create(new DynamicKubernetesObject(json), dryRun);
            assertThat(created.isSuccess()).as("%s %s in %s: %s", kind,
                    ((Map<?, ?>) document.get("metadata")).get("name"), file, created.getStatus()).isTrue();
        }
    }

    /** The image {@code make image} builds: dwd, tagged with the version of this build. */
    static String image() throws Exception {
        var build = new java.util.Properties();
        try (var in = DeployManifestsIT.class.getResourceAsStream("/dwd/bootstrap/build.properties")) {
            build.load(in);
        }
        return "dwd:" + build.getProperty("version");
    }

    @ParameterizedTest
    @ValueSource(strings = {"prober.yaml", "weeder.yaml"})
    @SuppressWarnings("unchecked")
    void theDeploymentRunsTheImageMakeImageBuildsAsNonRootWithAReadOnlyRoot(String file) throws Exception {
        Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) documents(file).stream()
                .filter(d -> "Deployment".equals(d.get("kind"))).findFirst().orElseThrow().get("spec")).get("template")).get("spec");
        var container = ((List<Map<String, Object>>) pod.get("containers")).getFirst();
        assertThat(container.get("image")).as("the image of make image").isEqualTo(image());
        assertThat(pod.get("securityContext")).isEqualTo(Map.of("runAsNonRoot", true, "runAsUser", 65532, "runAsGroup", 65532,
                "seccompProfile", Map.of("type", "RuntimeDefault")));
        assertThat(container.get("securityContext")).isEqualTo(Map.of("allowPrivilegeEscalation", false,
                "readOnlyRootFilesystem", true, "capabilities", Map.of("drop", List.of("ALL"))));
        assertThat((List<Map<String, Object>>) container.get("volumeMounts")).contains(Map.of("name", "tmp", "mountPath", "/tmp"));
        assertThat((List<Map<String, Object>>) pod.get("volumes"))
                .anySatisfy(volume -> assertThat(volume).containsEntry("name", "tmp").containsKey("emptyDir"));
        assertThat((Map<String, Object>) container.get("resources")).containsKey("requests");
        assertThat(container).containsKeys("livenessProbe", "readinessProbe");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theConfigsInTheConfigMapsAreValid() throws Exception {
        var files = new ConfigFiles(warning -> { throw new AssertionError("unexpected warning: " + warning); });
        for (String role : List.of("prober", "weeder")) {
            String config = documents(role + ".yaml").stream().filter(d -> "ConfigMap".equals(d.get("kind")))
                    .map(d -> ((Map<String, String>) d.get("data")).get("dep-config.yaml")).findFirst().orElseThrow();
            Path file = Files.writeString(Files.createTempFile("dwd-" + role, ".yaml"), config);
            if (role.equals("prober")) {
                assertThat(files.prober(file).dependentResourceInfos()).hasSize(3);
            } else {
                assertThat(files.weeder(file).servicesAndDependantSelectors()).hasSize(2);
            }
        }
    }
}
