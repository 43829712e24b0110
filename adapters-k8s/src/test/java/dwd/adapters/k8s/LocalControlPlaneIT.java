package dwd.adapters.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.SmokeScenario;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.VersionApi;
import org.junit.jupiter.api.Test;

@WithLocalControlPlane
class LocalControlPlaneIT {

    @Test
    void theServerIsTheRealPinnedKubeApiServer(ApiClient client) throws Exception {
        var version = new VersionApi(client).getCode().execute();
        assertThat(version.getMajor()).isEqualTo("1");
        assertThat(version.getGitVersion()).startsWith("v1.36.");
    }

    @Test
    void clientJavaDoesWhatDwdNeedsOnTheLocalControlPlane(LocalControlPlane controlPlane) throws Exception {
        String namespace = controlPlane.createNamespace("smoke");
        new SmokeScenario(controlPlane.apiClient()).run(namespace);
    }

    @Test
    void theServerListensOnLoopbackOnly(LocalControlPlane controlPlane) {
        assertThat(controlPlane.apiClient().getBasePath()).matches("https://(127\\.0\\.0\\.1|localhost):\\d+");
    }
}
