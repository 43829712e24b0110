package dwd.adapters.k8s.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.adapters.k8s.testing.objects.CheckFixtures;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.check.ObjectReadException;
import dwd.application.check.ObjectReadException.Reason;
import dwd.application.check.ObjectReference;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.ClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@WithLocalControlPlane
class KubernetesObjectReaderIT {

    private static String namespace;
    private static KubernetesObjectReader reader;

    @BeforeAll
    static void widgetInItsNamespace(LocalControlPlane controlPlane) {
        ApiClient client = controlPlane.apiClient();
        CheckFixtures.installWidgetCrd(client);
        namespace = controlPlane.createNamespace("reader");
        CheckFixtures.createWidget(client, namespace, "w", Map.of("size", 1));
        CheckFixtures.patchWidgetStatus(client, namespace, "w", """
                {"observedGeneration":1,"conditions":[{"type":"Ready","status":"True","reason":"Done","message":"ok","observedGeneration":1}]}""");
        reader = new KubernetesObjectReader(client, "default");
    }

    @Test
    @SuppressWarnings("unchecked")
    void readsACustomResourceFoundThroughDiscoveryWithIntegersAsLongs() {
        Map<String, Object> widget = reader.read(ObjectReference.of("Widget", namespace, "w"));

        assertThat(widget).containsEntry("apiVersion", "check.dwd.dev/v1").containsEntry("kind", "Widget");
        var metadata = (Map<String, Object>) widget.get("metadata");
        assertThat(metadata).containsEntry("name", "w").containsEntry("namespace", namespace).containsEntry("generation", 1L);
        var status = (Map<String, Object>) widget.get("status");
        assertThat(status).containsEntry("observedGeneration", 1L);
        assertThat(status.get("conditions")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                .singleElement().isEqualTo(Map.of("type", "Ready", "status", "True", "reason", "Done", "message", "ok",
                        "observedGeneration", 1L));
    }

    @Test
    void readsAtAnExplicitApiVersion() {
        assertThat(reader.read(new ObjectReference("check.dwd.dev/v1", "Widget", namespace, "w"))).containsKey("status");
    }

    @Test
    void acceptsTheKindInAnyCaseOrAsAResourceName() {
        assertThat(reader.read(ObjectReference.of("widget", namespace, "w"))).containsEntry("kind", "Widget");
        assertThat(reader.read(ObjectReference.of("widgets", namespace, "w"))).containsEntry("kind", "Widget");
    }

    @Test
    void readsBuiltInKindsOfTheCoreGroup(LocalControlPlane controlPlane) throws Exception {
        new CoreV1Api(controlPlane.apiClient()).createNamespacedConfigMap(namespace, new V1ConfigMap()
                .metadata(new V1ObjectMeta().name("settings")).data(Map.of("k", "v"))).execute();
        assertThat(reader.read(ObjectReference.of("ConfigMap", namespace, "settings")))
                .containsEntry("apiVersion", "v1").containsEntry("data", Map.of("k", "v"));
    }

    @Test
    void ignoresTheNamespaceOfClusterScopedKinds() {
        assertThat(reader.read(ObjectReference.of("Namespace", "whatever", namespace))).containsEntry("kind", "Namespace");
    }

    @Test
    void usesTheDefaultNamespaceWhenTheReferenceNamesNone(LocalControlPlane controlPlane) {
        var inNamespace = new KubernetesObjectReader(controlPlane.apiClient(), namespace);
        assertThat(inNamespace.read(ObjectReference.of("Widget", "", "w"))).containsEntry("kind", "Widget");
    }

    @Test
    void aMissingObjectIsNotFoundAndNamesResourceNamespaceAndName() {
        assertThatThrownBy(() -> reader.read(ObjectReference.of("Widget", namespace, "nope")))
                .isInstanceOfSatisfying(ObjectReadException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NOT_FOUND))
                .hasMessageStartingWith("widgets.check.dwd.dev \"nope\" in namespace \"" + namespace + "\" not found at https://")
                .hasMessageEndingWith("check the name and namespace");
    }

    @Test
    void anUnknownKindSaysToCheckTheSpellingAndTheCrd() {
        assertThatThrownBy(() -> reader.read(ObjectReference.of("Gizmo", namespace, "w")))
                .isInstanceOfSatisfying(ObjectReadException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_KIND))
                .hasMessageStartingWith("kind Gizmo is not served by the cluster at https://")
                .hasMessageContaining("that its CRD is installed");
    }

    @Test
    void anApiVersionThatIsNotServedIsUnknown() {
        assertThatThrownBy(() -> reader.read(new ObjectReference("check.dwd.dev/v9", "Widget", namespace, "w")))
                .isInstanceOfSatisfying(ObjectReadException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_KIND))
                .hasMessageStartingWith("API version check.dwd.dev/v9 is not served by https://");
        assertThatThrownBy(() -> reader.read(new ObjectReference("v1", "Widget", namespace, "w")))
                .hasMessageStartingWith("kind Widget is not served by API version v1");
    }

    @Test
    void aKindServedByTwoGroupsNeedsAnApiVersion(LocalControlPlane controlPlane) {
        CheckFixtures.installCrd(controlPlane.apiClient(), "doodads.one.check.dwd.dev.yaml");
        CheckFixtures.installCrd(controlPlane.apiClient(), "doodads.two.check.dwd.dev.yaml");
        assertThatThrownBy(() -> reader.read(ObjectReference.of("Doodad", namespace, "d")))
                .isInstanceOfSatisfying(ObjectReadException.class, e -> assertThat(e.reason()).isEqualTo(Reason.AMBIGUOUS_KIND))
                .hasMessage("kind Doodad is served by several API groups (one.check.dwd.dev/v1, two.check.dwd.dev/v1); "
                        + "choose one with --api-version, e.g. --api-version one.check.dwd.dev/v1");
        assertThatThrownBy(() -> reader.read(new ObjectReference("two.check.dwd.dev/v1", "Doodad", namespace, "d")))
                .isInstanceOfSatisfying(ObjectReadException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NOT_FOUND));
    }

    @Test
    void anonymousAccessIsNotAllowedAndSaysWhy(LocalControlPlane controlPlane) throws Exception {
        ApiClient anonymous = new ClientBuilder().setBasePath(controlPlane.apiClient().getBasePath())
                .setVerifyingSsl(false).build();
        assertThatThrownBy(() -> new KubernetesObjectReader(anonymous, "default").read(ObjectReference.of("Widget", namespace, "w")))
                .isInstanceOfSatisfying(ObjectReadException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NOT_ALLOWED))
                .hasMessageStartingWith("cannot discover the kinds served by https://");
    }

    @Test
    void readsThroughAKubeconfigFile(LocalControlPlane controlPlane, @TempDir Path directory) throws Exception {
        Path kubeconfig = Files.writeString(directory.resolve("kubeconfig"), controlPlane.kubeconfig());
        var fromFile = KubernetesObjectReader.fromKubeconfig(kubeconfig, Duration.ofSeconds(30));
        assertThat(fromFile.read(ObjectReference.of("Widget", namespace, "w"))).containsEntry("kind", "Widget");
    }
}
