package dwd.adapters.k8s.testing.objects;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;

/**
 * Test fixtures of the object reader and {@code dwd check}: the {@code Widget} custom resource ({@code check.dwd.dev/v1}, status subresource) that the
 * {@code dwd check} tests create and drive through states; shared with bootstrap's tests.
 */
public final class CheckFixtures {

    public static final String GROUP = "check.dwd.dev";
    public static final String VERSION = "v1";
    public static final String PLURAL = "widgets";

    private static final String CRD_GROUP = "apiextensions.k8s.io";
    private static final String CRD_VERSION = "v1";
    private static final String CRD_PLURAL = "customresourcedefinitions";

    private CheckFixtures() {
    }

    /**
     * Installs a CRD from {@code /dwd/check/<file>} on the test class path (if not yet there) and waits
     * until it is served. The CRD is sent as the raw document: the typed model would add empty schema
     * fields that the API server rejects.
     */
    public static void installCrd(ApiClient client, String file) {
        Map<String, Object> crd;
        try (InputStream in = CheckFixtures.class.getResourceAsStream("/dwd/check/" + file)) {
            if (in == null) {
                throw new IllegalStateException("/dwd/check/" + file + " is not on the test class path");
            }
            crd = new org.yaml.snakeyaml.Yaml().load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        var api = new CustomObjectsApi(client);
        try {
            api.createClusterCustomObject(CRD_GROUP, CRD_VERSION, CRD_PLURAL, crd).execute();
        } catch (ApiException e) {
            if (e.getCode() != 409) {
                throw new IllegalStateException("cannot install CRD " + file + ": " + e.getResponseBody(), e);
            }
        }
        String name = (String) ((Map<?, ?>) crd.get("metadata")).get("name");
        Awaitility.await("CRD " + name + " established")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> isEstablished(api.getClusterCustomObject(CRD_GROUP, CRD_VERSION, CRD_PLURAL, name).execute()));
    }

    private static boolean isEstablished(Object crd) {
        if (!(crd instanceof Map<?, ?> object) || !(object.get("status") instanceof Map<?, ?> status)
                || !(status.get("conditions") instanceof List<?> conditions)) {
            return false;
        }
        return conditions.stream().anyMatch(condition -> condition instanceof Map<?, ?> c
                && "Established".equals(c.get("type")) && "True".equals(c.get("status")));
    }

    /** Installs the Widget CRD. */
    public static void installWidgetCrd(ApiClient client) {
        installCrd(client, "widgets.check.dwd.dev.yaml");
    }

    /** Creates a Widget with the given spec; its generation is 1. */
    public static void createWidget(ApiClient client, String namespace, String name, Map<String, Object> spec) {
        Map<String, Object> widget = Map.of(
                "apiVersion", GROUP + "/" + VERSION,
                "kind", "Widget",
                "metadata", Map.of("name", name, "namespace", namespace),
                "spec", spec);
        try {
            new CustomObjectsApi(client).createNamespacedCustomObject(GROUP, VERSION, namespace, PLURAL, widget).execute();
        } catch (ApiException e) {
            throw new IllegalStateException("cannot create widget " + namespace + "/" + name + ": " + e.getResponseBody(), e);
        }
    }

    /**
     * Installs the Rollout CRD (status.observedGeneration is a string, as in Argo Rollouts) and creates a Rollout
     * with that status; its generation is 1.
     */
    public static void createRollout(ApiClient client, String namespace, String name, Map<String, Object> status) {
        installCrd(client, "rollouts.check.dwd.dev.yaml");
        Map<String, Object> rollout = Map.of(
                "apiVersion", GROUP + "/" + VERSION,
                "kind", "Rollout",
                "metadata", Map.of("name", name, "namespace", namespace),
                "spec", Map.of("replicas", 2),
                "status", status);
        try {
            new CustomObjectsApi(client).createNamespacedCustomObject(GROUP, VERSION, namespace, "rollouts", rollout).execute();
        } catch (ApiException e) {
            throw new IllegalStateException("cannot create rollout " + namespace + "/" + name + ": " + e.getResponseBody(), e);
        }
    }

    /** Merge-patches the spec, which makes the API server bump the generation. */
    public static void patchWidgetSpec(ApiClient client, String namespace, String name, String specJson) {
        var api = new CustomObjectsApi(client);
        mergePatch(client, () -> api.patchNamespacedCustomObject(GROUP, VERSION, namespace, PLURAL, name,
                new V1Patch("{\"spec\":" + specJson + "}")).buildCall(null), "spec of " + namespace + "/" + name);
    }

    /** Merge-patches the status subresource (lists such as conditions are replaced whole). */
    public static void patchWidgetStatus(ApiClient client, String namespace, String name, String statusJson) {
        var api = new CustomObjectsApi(client);
        mergePatch(client, () -> api.patchNamespacedCustomObjectStatus(GROUP, VERSION, namespace, PLURAL, name,
                new V1Patch("{\"status\":" + statusJson + "}")).buildCall(null), "status of " + namespace + "/" + name);
    }

    private static void mergePatch(ApiClient client, PatchUtils.PatchCallFunc call, String what) {
        try {
            PatchUtils.patch(Object.class, call, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
        } catch (ApiException e) {
            throw new IllegalStateException("cannot patch " + what + ": " + e.getResponseBody(), e);
        }
    }
}
