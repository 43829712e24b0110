package dwd.adapters.k8s.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.ApiClients;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.SilencingTcpProxy;
import dwd.adapters.k8s.testing.TestWatchReports;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.ScalableResource;
import dwd.domain.config.ResourceRef;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The dependents' cache after dwd's own writes: it is not used for a dependent until its watch has
 * seen dwd's last write of it. The case it is for: every connection open at a meltdown goes silent
 * without closing, the scale-down goes out on a new connection, and the watch, on its dead one,
 * never sees it; a scale-up deciding on the cache would find nothing to do.
 */
@WithLocalControlPlane
class DependentsCacheIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");
    private static final Map<String, Optional<String>> RECORD = Map.of(
            "dependency-watchdog.gardener.cloud/replicas", Optional.of("3"),
            "dependency-watchdog.gardener.cloud/meltdown-protection-active", Optional.of(""));

    private KubernetesScalableResources resources;
    private SilencingTcpProxy proxy;

    @AfterEach
    void tearDown() throws Exception {
        if (resources != null) {
            resources.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aDependentWhoseWriteTheWatchHasNotShownIsNotTakenFromTheCache(LocalControlPlane controlPlane) throws Exception {
        String namespace = shootWithKcm(controlPlane);
        proxy = SilencingTcpProxy.inFrontOf(controlPlane.kubeconfig());
        String throughProxy = proxy.route(controlPlane.kubeconfig());
        resources = new KubernetesScalableResources(() -> ApiClients.fromKubeconfig(throughProxy, Duration.ofSeconds(30)),
                TestWatchReports.create());
        ScalableResource before = await("the cache holds KCM").atMost(Duration.ofSeconds(30))
                .until(() -> resources.cached(namespace, KCM), Optional::isPresent).orElseThrow();
        assertThat(before.specReplicas()).isEqualTo(3);

        // The watch's connection goes silent; the scale-down goes out on a new one and lands.
        proxy.silenceOpenConnections();
        resources.scaleAndAnnotateAt(namespace, KCM, before.version(), 0, RECORD, TIMEOUT);
        assertThat(resources.read(namespace, KCM, TIMEOUT)).hasValueSatisfying(now -> assertThat(now.specReplicas()).isZero());

        assertThat(resources.cached(namespace, KCM))
                .as("the cache, still at 3 replicas (3 ready, to a readiness check), is not used").isEmpty();
    }

    @Test
    void onceTheWatchShowsTheWriteTheCacheIsUsedAgain(LocalControlPlane controlPlane) throws Exception {
        String namespace = shootWithKcm(controlPlane);
        resources = new KubernetesScalableResources(() -> controlPlane.newApiClient(Duration.ofSeconds(30)),
                TestWatchReports.create());
        ScalableResource before = await("the cache holds KCM").atMost(Duration.ofSeconds(30))
                .until(() -> resources.cached(namespace, KCM), Optional::isPresent).orElseThrow();

        resources.scaleAndAnnotateAt(namespace, KCM, before.version(), 0, RECORD, TIMEOUT);
        String written = resources.read(namespace, KCM, TIMEOUT).orElseThrow().version();
        ScalableResource after = await("the watch shows the write").atMost(Duration.ofSeconds(30))
                .until(() -> resources.cached(namespace, KCM), Optional::isPresent).orElseThrow();
        assertThat(after.specReplicas()).isZero();
        assertThat(after.version()).isEqualTo(written);
    }

    @Test
    void whileTheDependentsWatchFailsDecisionsReadTheSeedAndTheScaleUpLands(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = shootWithKcm(controlPlane);
        var seed = new FailingWatches("/namespaces/" + namespace + "/deployments/");
        var reports = TestWatchReports.create();
        resources = new KubernetesScalableResources(() -> seed.on(controlPlane.newApiClient(Duration.ofSeconds(30))),
                reports);
        await("the cache holds KCM").atMost(Duration.ofSeconds(30))
                .until(() -> resources.cached(namespace, KCM), Optional::isPresent);

        // The watch loop fails on its next event (the scale-down below) and on every list it tries after.
        seed.failing.set(true);
        ScalableResource before = resources.read(namespace, KCM, TIMEOUT).orElseThrow();
        resources.scaleAndAnnotateAt(namespace, KCM, before.version(), 0, RECORD, TIMEOUT);
        await("the failure noticed").atMost(Duration.ofSeconds(30)).until(() -> seed.refused.get() > 0);
        assertThat(resources.cached(namespace, KCM)).as("a failed watch's cache is not used").isEmpty();

        ScalableResource scaledDown = resources.read(namespace, KCM, TIMEOUT).orElseThrow();
        assertThat(scaledDown.specReplicas()).as("the seed read instead").isZero();
        resources.scaleAndAnnotateAt(namespace, KCM, scaledDown.version(), 3,
                Map.of("dependency-watchdog.gardener.cloud/replicas", Optional.empty(),
                        "dependency-watchdog.gardener.cloud/meltdown-protection-active", Optional.empty()), TIMEOUT);
        assertThat(resources.read(namespace, KCM, TIMEOUT).orElseThrow().specReplicas()).as("the scale-up landed").isEqualTo(3);
        assertThat(reports.running().oldest("deployments")).as("the cache's age, for its metric")
                .hasValueSatisfying(age -> assertThat(age).isPositive());

        seed.failing.set(false);
        ScalableResource again = await("the watch lists afresh and is trusted again").atMost(Duration.ofSeconds(60))
                .until(() -> resources.cached(namespace, KCM), Optional::isPresent).orElseThrow();
        assertThat(again.specReplicas()).isEqualTo(3);
    }

    private static String shootWithKcm(LocalControlPlane controlPlane) throws Exception {
        String namespace = controlPlane.createNamespace("shoot--own-writes");
        Map<String, String> labels = Map.of("app", "kcm");
        new AppsV1Api(controlPlane.apiClient()).createNamespacedDeployment(namespace, new V1Deployment()
                .metadata(new V1ObjectMeta().name(KCM.name()))
                .spec(new V1DeploymentSpec().replicas(3).selector(new V1LabelSelector().matchLabels(labels))
                        .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
                                .spec(new V1PodSpec().containers(List.of(new V1Container().name("c")
                                        .image("registry.invalid/kcm:v1")))))))
                .execute();
        return namespace;
    }
}
