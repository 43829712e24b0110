package dwd.adapters.k8s;

import dwd.adapters.k8s.testing.SmokeScenario;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Yaml;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.awaitility.Awaitility;
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
        var extensions = new ApiextensionsV1Api(client);
        for (String file : new String[] {"clusters.extensions.gardener.cloud.yaml", "machines.machine.sapcloud.io.yaml"}) {
            try (var in = getClass().getResourceAsStream("/dwd/crds/" + file)) {
                var crd = Yaml.loadAs(new InputStreamReader(in, StandardCharsets.UTF_8), V1CustomResourceDefinition.class);
                extensions.createCustomResourceDefinition(crd).execute();
                Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() ->
                        extensions.readCustomResourceDefinition(crd.getMetadata().getName()).execute()
                                .getStatus().getConditions().stream()
                                .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus())));
            }
        }
        new CoreV1Api(client).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("smoke"))).execute();
        new SmokeScenario(client).run("smoke");
    }
}
