package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.ProberMeltdownIT.CA;
import static dwd.bootstrap.prober.ProberMeltdownIT.KCM;
import static dwd.bootstrap.prober.ProberMeltdownIT.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1RoleRef;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The prober runs as an identity whose RBAC grants everything it needs except Events: it asks
 * at start (a SelfSubjectAccessReview), says in one line that Events are off and which rule turns them
 * on, and never sends one (the API server refuses none); the scale-down happens all the same, and the
 * Events not sent are counted. The identity authenticates with a bearer token (the API server's
 * {@code --token-auth-file}), for the seed and in the shoot's kubeconfig secret, and the test greps
 * everything the process logged, at its most verbose level, for that token.
 */
@WithLocalControlPlane(apiServerFlags = "--token-auth-file=target/test-classes/dwd/it/tokens.csv")
class ProberEventsForbiddenIT {

    /** From src/test/resources/dwd/it/tokens.csv: user dwd-it-prober, no groups. */
    static final String TOKEN = "dwd-it-prober-token-93fa41c2d8";
    static final String USER = "dwd-it-prober";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void scalingGoesOnWhenEventsAreNotGrantedAndNoLogLineCarriesTheToken(LocalControlPlane controlPlane) throws Exception {
        grantEverythingButEvents(controlPlane);
        String namespace = controlPlane.createNamespace("shoot--dev--forbidden");
        var seed = new SeedFixture(controlPlane.apiClient(), namespace);
        cleanup.add(seed);
        String tokenKubeconfig = withToken(controlPlane.selfContainedKubeconfig(), TOKEN);
        seed.createKubeconfigSecret(tokenKubeconfig);
        seed.createGardenerDependents();
        List<String> nodes = seed.createNodes(5);
        seed.startKubelets();
        seed.createCluster("8s");
        var recorder = new DeploymentRecorder(controlPlane.newApiClient(Duration.ZERO), namespace);
        cleanup.add(recorder);
        Path dir = Files.createTempDirectory("dwd-forbidden");
        Path config = Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened());
        Path kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), tokenKubeconfig);
        var prober = ProberProcess.start(dir, "prober", config, kubeconfig, "--zap-log-level=9", "--log-format=text",
                "--enable-leader-election", "--leader-election-namespace=" + namespace,
                "--leader-elect-lease-duration=4s", "--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=1s");
        cleanup.add(prober);

        await("a healthy probe").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> prober.log().contains(namespace + ": lease probe: SCALE_UP"));
        seed.stopRenewing(nodes.subList(0, 3));
        await("scale-down without Events").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> Objects.equals(recorder.replicas(KCM), 0) && Objects.equals(recorder.replicas(MCM), 0)
                        && Objects.equals(recorder.replicas(CA), 0));
        await("the three Events counted as not sent").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> PrometheusText.parse(prober.metrics()).sum("dwd_events_total", Map.of("result", "off")) >= 3);
        PrometheusText metrics = PrometheusText.parse(prober.metrics());
        assertThat(metrics.sum("dwd_events_total", Map.of("result", "written"))).isZero();
        assertThat(metrics.sum("dwd_events_total", Map.of("result", "failed"))).as("none attempted").isZero();
        assertThat(metrics.sum("dwd_api_requests_total", Map.of("code", "403"))).as("no request refused").isZero();
        assertThat(metrics.sum("dwd_scale_operations_total", Map.of("shoot", namespace, "result", "scaled"))).isEqualTo(3);
        assertThat(new EventsV1Api(controlPlane.apiClient()).listNamespacedEvent(namespace).execute().getItems())
                .as("no Event was written").isEmpty();
        String log = prober.log();
        assertThat(log.lines().filter(line -> line.contains("Kubernetes Events are off")).toList())
                .as("said once, with the rule that turns them on").singleElement().asString()
                .contains("{apiGroups: [events.k8s.io], resources: [events], verbs: [create]}");
        assertThat(log.lines().filter(line -> !line.isBlank())).as("text layout").noneMatch(line -> line.startsWith("{"));
        String probes = prober.probes();
        String scrape = prober.metrics();

        assertThat(prober.terminate()).isEqualTo(143);
        String everything = prober.log() + probes + scrape;
        String encoded = Base64.getEncoder().encodeToString(TOKEN.getBytes(StandardCharsets.UTF_8));
        assertThat(everything).as("the token, in the log (TRACE), /probes and /metrics").doesNotContain(TOKEN)
                .doesNotContain(encoded).doesNotContain(TOKEN.substring(0, 20));
    }

    /** A ClusterRole with what the prober reads and writes (seed and shoot are one server here), Events left out. */
    private static void grantEverythingButEvents(LocalControlPlane controlPlane) throws Exception {
        var rbac = new RbacAuthorizationV1Api(controlPlane.apiClient());
        String name = "dwd-it-prober-without-events";
        rbac.createClusterRole(new V1ClusterRole().metadata(new V1ObjectMeta().name(name)).rules(List.of(
                rule("extensions.gardener.cloud", List.of("clusters"), "get", "list", "watch"),
                rule("", List.of("secrets"), "get", "list", "watch"),
                rule("", List.of("nodes"), "get", "list"),
                rule("machine.sapcloud.io", List.of("machines"), "get", "list", "watch"),
                rule("apps", List.of("deployments", "deployments/scale"), "get", "list", "watch", "update", "patch"),
                rule("coordination.k8s.io", List.of("leases"), "get", "list", "watch", "create", "update")))).execute();
        rbac.createClusterRoleBinding(new V1ClusterRoleBinding().metadata(new V1ObjectMeta().name(name))
                .roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("ClusterRole").name(name))
                .subjects(List.of(new RbacV1Subject().apiGroup("rbac.authorization.k8s.io").kind("User").name(USER))))
                .execute();
    }

    private static V1PolicyRule rule(String group, List<String> resources, String... verbs) {
        return new V1PolicyRule().apiGroups(List.of(group)).resources(resources).verbs(List.of(verbs));
    }

    /** The kubeconfig with its user's client certificate replaced by a bearer token. */
    @SuppressWarnings("unchecked")
    static String withToken(String kubeconfig, String token) {
        var yaml = new org.yaml.snakeyaml.Yaml();
        Map<String, Object> document = yaml.load(kubeconfig);
        for (Object entry : (List<Object>) document.get("users")) {
            ((Map<String, Object>) entry).put("user", new java.util.LinkedHashMap<>(Map.of("token", token)));
        }
        return yaml.dump(document);
    }
}
