package dwd.bootstrap.prober;

import dwd.adapters.k8s.ApiClients;
import dwd.adapters.k8s.testing.LocalControlPlane;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * dwd's prober on k3s, a Kubernetes with real kubelets and controllers beside the scenario's own nodes,
 * through a meltdown and a recovery ({@link MeltdownScenario}). Needs a container engine Testcontainers
 * can reach and the k3s image; without one it is skipped, and the Failsafe report says so in one line
 * (install Docker, or podman with its socket, to run it).
 */
@Testcontainers(disabledWithoutDocker = true)
class K3sSmokeIT {

    @Container
    static final K3sContainer K3S = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.35.4-k3s1"));

    @Test
    void theProberScalesAShootDownInAMeltdownAndBackUpOnRecovery() throws Exception {
        String kubeconfig = K3S.getKubeConfigYaml();
        var admin = ApiClients.fromKubeconfig(kubeconfig, Duration.ofSeconds(30));
        LocalControlPlane.installCrds(admin);
        String namespace = "shoot--dev--k3s";
        new CoreV1Api(admin).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
        MeltdownScenario.run(admin, kubeconfig, namespace);
    }
}
