package dwd.bootstrap.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.CreateOptions;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.yaml.snakeyaml.Yaml;

/**
 * deploy/monitoring/dwd-prometheusrule.yaml is accepted by a real API server (server-side dry-run)
 * once the PrometheusRule CRD is installed, and that CRD's schema rejects a malformed rule.
 */
@WithLocalControlPlane
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrometheusRuleIT {

    static final String CRD = "prometheusrules.monitoring.coreos.com";

    private DynamicKubernetesApi crds;
    private DynamicKubernetesApi rules;
    private String namespace;

    @BeforeAll
    void installCrd(LocalControlPlane controlPlane, ApiClient client) throws Exception {
        crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client);
        JsonObject crd;
        try (var in = getClass().getResourceAsStream("/crds/" + CRD + ".yaml")) {
            crd = new Gson().toJsonTree(new Yaml().load(new InputStreamReader(in, StandardCharsets.UTF_8))).getAsJsonObject();
        }
        var created = crds.create(new DynamicKubernetesObject(crd));
        assertThat(created.isSuccess()).as("CRD installed: %s", created.getStatus()).isTrue();
        await("CRD " + CRD + " established").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> established(crds.get(CRD)));
        rules = new DynamicKubernetesApi("monitoring.coreos.com", "v1", "prometheusrules", client);
        namespace = controlPlane.createNamespace("garden-monitoring");
    }

    @AfterAll
    void removeCrd() {
        if (crds != null) {
            crds.delete(CRD);
        }
    }

    @Test
    void thePrometheusRuleIsAcceptedByTheApiServer() throws Exception {
        Map<String, Object> manifest = new Yaml().load(Files.readString(MonitoringFiles.PROMETHEUS_RULE));
        var response = dryRun(manifest);
        assertThat(response.isSuccess()).as("dry-run of %s: %s", MonitoringFiles.PROMETHEUS_RULE, response.getStatus()).isTrue();
        assertThat(response.getObject().getRaw().getAsJsonObject("spec").getAsJsonArray("groups")).hasSize(2);
    }

    @Test
    void theCrdRejectsARuleWithoutExpressionOrWithABadDuration() throws Exception {
        var missingExpr = dryRun(manifest(Map.of("alert", "X")));
        assertThat(missingExpr.isSuccess()).isFalse();
        assertThat(missingExpr.getStatus().getMessage()).contains("expr");
        var badDuration = dryRun(manifest(Map.of("alert", "X", "expr", "up == 0", "for", "soon")));
        assertThat(badDuration.isSuccess()).isFalse();
        assertThat(badDuration.getStatus().getMessage()).contains("for");
    }

    private static Map<String, Object> manifest(Map<String, Object> rule) {
        return Map.of("apiVersion", "monitoring.coreos.com/v1", "kind", "PrometheusRule",
                "metadata", Map.of("name", "broken"),
                "spec", Map.of("groups", List.of(Map.of("name", "g", "rules", List.of(rule)))));
    }

    private KubernetesApiResponse<DynamicKubernetesObject> dryRun(Map<String, Object> manifest) {
        JsonObject json = new Gson().toJsonTree(manifest).getAsJsonObject();
        json.getAsJsonObject("metadata").addProperty("namespace", namespace);
        var options = new CreateOptions();
        options.setDryRun("All");
        return rules.create(new DynamicKubernetesObject(json), options);
    }

    private static boolean established(KubernetesApiResponse<DynamicKubernetesObject> crd) {
        if (!crd.isSuccess() || !crd.getObject().getRaw().has("status")) {
            return false;
        }
        JsonObject status = crd.getObject().getRaw().getAsJsonObject("status");
        if (!status.has("conditions")) {
            return false;
        }
        for (JsonElement condition : status.getAsJsonArray("conditions")) {
            JsonObject c = condition.getAsJsonObject();
            if ("Established".equals(c.get("type").getAsString()) && "True".equals(c.get("status").getAsString())) {
                return true;
            }
        }
        return false;
    }
}
