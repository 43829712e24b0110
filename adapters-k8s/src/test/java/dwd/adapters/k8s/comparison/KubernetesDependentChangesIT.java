package dwd.adapters.k8s.comparison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.TestWatchReports;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.in.DependentChanges;
import dwd.domain.comparison.Attribution;
import dwd.domain.comparison.Attribution.Writer;
import dwd.domain.comparison.DependentSnapshot;
import dwd.domain.config.ResourceRef;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.util.PatchUtils;
import java.time.Duration;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The comparison's dependents watch against the real API server: the {@code managedFields} it reads are
 * what the API server records for the original's requests (a JSON merge patch of the annotations, a PUT of
 * the scale subresource, under the user agent client-go gives a binary named {@code dependency-watchdog})
 * and for a person's scale to another count; the attribution rule tells them apart.
 */
@WithLocalControlPlane
class KubernetesDependentChangesIT {

    private static final String ORIGINAL = "dependency-watchdog";
    private static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");

    private final List<DependentSnapshot> seen = new CopyOnWriteArrayList<>();
    private KubernetesDependentChanges watch;

    @AfterEach
    void stop() {
        if (watch != null) {
            watch.close();
        }
    }

    @Test
    void theOriginalsRecordAndScaleAreItsOwnAndAScaleToAnotherCountIsNot(LocalControlPlane controlPlane) throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--attribution");
        ApiClient gardenlet = as(controlPlane, "gardenlet/v1.136.2 (linux/amd64) gardener/v1.136.2");
        new AppsV1Api(gardenlet).createNamespacedDeployment(namespace, deployment(3)).execute();
        watch = new KubernetesDependentChanges(() -> controlPlane.newApiClient(Duration.ofSeconds(30)), List.of(KCM,
                new ResourceRef("v1", "ConfigMap", "not-compared")), new Recorder(namespace), TestWatchReports.create());
        watch.start();
        await("listed").atMost(Duration.ofSeconds(30)).until(() -> watch.hasSynced() && !seen.isEmpty());

        String originalAgent = "dependency-watchdog/v0.0.0 (linux/amd64) kubernetes/$Format";
        ApiClient original = as(controlPlane, originalAgent);
        patchAnnotations(original, namespace, "{\"metadata\":{\"annotations\":{"
                + "\"dependency-watchdog.gardener.cloud/replicas\":\"3\", "
                + "\"dependency-watchdog.gardener.cloud/meltdown-protection-active\":\"\"}}}");
        scale(original, originalAgent, namespace, 0);
        scale(original, "kubectl/v1.36.3 (linux/amd64) kubernetes/abcdef0", namespace, 2);
        await("four versions").atMost(Duration.ofSeconds(30)).until(() -> seen.size() >= 4);

        assertThat(Attribution.of(seen.get(0), seen.get(1), ORIGINAL)).satisfies(patch -> {
            assertThat(patch.writer()).isEqualTo(Writer.ORIGINAL);
            assertThat(patch.replicasChanged()).isFalse();
            assertThat(patch.annotationsChanged()).hasSize(2);
        });
        assertThat(Attribution.of(seen.get(1), seen.get(2), ORIGINAL)).satisfies(scale -> {
            assertThat(scale.writer()).isEqualTo(Writer.ORIGINAL);
            assertThat(scale.replicasChanged()).isTrue();
        });
        assertThat(seen.get(2).managers()).as("kube-apiserver 1.36.3 records no entry for a write through the scale"
                + " subresource; it takes spec.replicas from its owner").noneMatch(entry -> entry.ownsReplicas());
        assertThat(Attribution.heldDownByOriginal(seen.get(2), ORIGINAL)).isPresent();
        assertThat(Attribution.of(seen.get(2), seen.get(3), ORIGINAL).writer()).as("not what the record asks")
                .isNotEqualTo(Writer.ORIGINAL);
    }

    private final class Recorder implements DependentChanges {
        private final String namespace;

        Recorder(String namespace) {
            this.namespace = namespace;
        }

        @Override
        public void dependentChanged(String ns, ResourceRef ref, DependentSnapshot snapshot) {
            if (ns.equals(namespace)) {
                assertThat(ref).isEqualTo(KCM);
                seen.add(snapshot);
            }
        }

        @Override
        public void dependentDeleted(String ns, ResourceRef ref) {
        }
    }

    private static ApiClient as(LocalControlPlane controlPlane, String userAgent) {
        ApiClient client = controlPlane.newApiClient(Duration.ofSeconds(30));
        client.setUserAgent(userAgent);
        return client;
    }

    private static V1Deployment deployment(int replicas) {
        var labels = Map.of("app", KCM.name());
        return new V1Deployment().metadata(new V1ObjectMeta().name(KCM.name()))
                .spec(new V1DeploymentSpec().replicas(replicas).selector(new V1LabelSelector().matchLabels(labels))
                        .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
                                .spec(new V1PodSpec().containers(List.of(new V1Container().name("kcm").image("registry.invalid/kcm"))))));
    }

    private static void patchAnnotations(ApiClient client, String namespace, String patch) throws Exception {
        var apps = new AppsV1Api(client);
        PatchUtils.patch(V1Deployment.class, () -> apps.patchNamespacedDeployment(KCM.name(), namespace, new V1Patch(patch))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    }

    /**
     * As client-go's scale client does: GET the scale subresource, set the replicas, PUT it back with the rest
     * as it came (its {@code managedFields} included; client-java's models would send them back empty).
     */
    private static void scale(ApiClient client, String userAgent, String namespace, int replicas) throws Exception {
        String url = client.getBasePath() + "/apis/apps/v1/namespaces/" + namespace + "/deployments/" + KCM.name() + "/scale";
        JsonObject scale;
        try (Response got = client.getHttpClient().newCall(new Request.Builder().url(url)
                .header("User-Agent", userAgent).get().build()).execute()) {
            assertThat(got.code()).isEqualTo(200);
            scale = JsonParser.parseString(got.body().string()).getAsJsonObject();
        }
        scale.getAsJsonObject("spec").addProperty("replicas", replicas);
        try (Response put = client.getHttpClient().newCall(new Request.Builder().url(url)
                .header("User-Agent", userAgent)
                .put(RequestBody.create(scale.toString(), MediaType.get("application/json"))).build()).execute()) {
            assertThat(put.code()).as(put.body().string()).isEqualTo(200);
        }
    }
}
