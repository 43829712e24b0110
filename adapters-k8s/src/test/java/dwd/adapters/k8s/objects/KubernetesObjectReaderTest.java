package dwd.adapters.k8s.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.application.check.ObjectReadException;
import dwd.application.check.ObjectReference;
import io.kubernetes.client.openapi.ApiClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubernetesObjectReaderTest {

    @TempDir
    Path directory;

    @Test
    void anUnreachableServerIsUnavailableAndSaysWhatToCheck() {
        var client = new ApiClient().setBasePath("http://127.0.0.1:1");
        var reader = new KubernetesObjectReader(client, "default");
        assertThatThrownBy(() -> reader.read(ObjectReference.of("Widget", "ns", "x")))
                .isInstanceOfSatisfying(ObjectReadException.class,
                        e -> assertThat(e.reason()).isEqualTo(ObjectReadException.Reason.UNAVAILABLE))
                .hasMessageStartingWith("cannot discover the kinds served by http://127.0.0.1:1: ")
                .hasMessageEndingWith("check the kubeconfig's server address and that the API server is up");
    }

    @Test
    void aMalformedApiVersionIsRejectedBeforeAnyCall() {
        var reader = new KubernetesObjectReader(new ApiClient().setBasePath("http://127.0.0.1:1"), "default");
        assertThatThrownBy(() -> reader.read(new ObjectReference("a/b/c", "Widget", "ns", "x")))
                .isInstanceOf(ObjectReadException.class)
                .hasMessage("API version a/b/c is not of the form group/version (or version for the core group, e.g. v1)");
    }

    @Test
    void aMissingKubeconfigSaysHowToProvideOne() {
        Path missing = directory.resolve("nope");
        assertThatThrownBy(() -> KubernetesObjectReader.fromKubeconfig(missing, Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("kubeconfig " + missing + " does not exist; pass --kubeconfig, set KUBECONFIG, or create ~/.kube/config");
    }

    @Test
    void aKubeconfigWithoutServerIsRejected() throws Exception {
        Path kubeconfig = Files.writeString(directory.resolve("config"), """
                apiVersion: v1
                kind: Config
                clusters: []
                contexts: []
                users: []
                """);
        assertThatThrownBy(() -> KubernetesObjectReader.fromKubeconfig(kubeconfig, Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("kubeconfig " + kubeconfig + " has no server for its current context");
    }

    @Test
    void theContextNamespaceIsTheDefault() throws Exception {
        Path kubeconfig = Files.writeString(directory.resolve("config"), """
                apiVersion: v1
                kind: Config
                current-context: dev
                clusters:
                - name: local
                  cluster: {server: "http://127.0.0.1:1"}
                contexts:
                - name: dev
                  context: {cluster: local, user: me, namespace: team-a}
                users:
                - name: me
                  user: {token: abc}
                """);
        assertThat(KubernetesObjectReader.fromKubeconfig(kubeconfig, Duration.ofSeconds(5)).defaultNamespace()).isEqualTo("team-a");
    }
}
