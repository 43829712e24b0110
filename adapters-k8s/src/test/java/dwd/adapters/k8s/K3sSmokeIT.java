package dwd.adapters.k8s;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.SmokeScenario;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/** The smoke scenario on k3s, where a Docker engine exists; skipped cleanly where none does. */
@Testcontainers(disabledWithoutDocker = true)
class K3sSmokeIT {

    @Container
    static final K3sContainer K3S = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.35.4-k3s1"));

    @Test
    void smokeScenarioOnK3s() throws Exception {
        var client = ApiClients.fromKubeconfig(K3S.getKubeConfigYaml(), Duration.ofSeconds(30));
        LocalControlPlane.installCrds(client);
        new CoreV1Api(client).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("smoke"))).execute();
        new SmokeScenario(client).run("smoke");
    }
}
