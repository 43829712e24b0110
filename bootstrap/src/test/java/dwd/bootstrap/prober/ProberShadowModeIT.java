package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.ProberMeltdownIT.CA;
import static dwd.bootstrap.prober.ProberMeltdownIT.KCM;
import static dwd.bootstrap.prober.ProberMeltdownIT.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.prober.ShadowProber.WouldScale;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Shadow mode of {@code ./dwd prober} end to end, on a real API server with RBAC and static-token
 * identities: the meltdown and recovery of {@link ProberMeltdownIT} with {@code --dry-run=client}
 * and {@code --dry-run=server} change nothing and report each would-be step once; a server-side dry
 * run as an identity that may not scale reports the scale-down as forbidden.
 *
 * <p>The probers of a test run side by side on the same shoot: shadow probers change nothing, so they
 * cannot disturb each other, and one meltdown serves them all.
 */
@WithLocalControlPlane(tokenUsers = {ProberShadowModeIT.FULL_ROLE, ProberShadowModeIT.NO_PATCHING})
class ProberShadowModeIT {

    static final String FULL_ROLE = "dwd-prober";
    static final String NO_PATCHING = "dwd-prober-without-patch-rights";
    private static final Duration STEP = Duration.ofSeconds(60);

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    /** A shoot of 5 nodes with the three dependents at 3 / 2 / 1 replicas and kubelets renewing. */
    private SeedFixture shoot(LocalControlPlane controlPlane, String namespace, List<String> nodes) throws ApiException {
        var seed = new SeedFixture(controlPlane.apiClient(), namespace);
        cleanup.add(seed);
        seed.createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        seed.createDeployment(KCM, 3);
        seed.createDeployment(MCM, 2);
        seed.createDeployment(CA, 1);
        for (int i = 0; i < 5; i++) {
            nodes.add(namespace + "-node-" + i);
            seed.createNode(nodes.getLast());
        }
        seed.startKubelets();
        seed.createCluster("8s"); // leases expire 6 s after their last renewal
        // Gone with the test: the probers of the next test would otherwise probe this shoot, now without kubelets.
        cleanup.add(() -> new CustomObjectsApi(controlPlane.apiClient())
                .deleteClusterCustomObject("extensions.gardener.cloud", "v1alpha1", "clusters", namespace).execute());
        return seed;
    }

    private ShadowProber prober(String kubeconfig, String dryRunFlag, String name) throws Exception {
        var prober = ShadowProber.start(kubeconfig, dryRunFlag, name);
        cleanup.add(prober);
        return prober;
    }

    /** replicas, annotations and resourceVersion of every Deployment of the namespace, as the API server has them. */
    private static Map<String, String> dependents(ApiClient admin, String namespace) throws ApiException {
        var state = new TreeMap<String, String>();
        for (var deployment : new AppsV1Api(admin).listNamespacedDeployment(namespace).execute().getItems()) {
            state.put(deployment.getMetadata().getName(), "replicas=" + deployment.getSpec().getReplicas()
                    + " annotations=" + Objects.requireNonNullElse(deployment.getMetadata().getAnnotations(), Map.of())
                    + " resourceVersion=" + deployment.getMetadata().getResourceVersion());
        }
        return state;
    }

    @Test
    void aMeltdownAndItsRecoveryInBothShadowModesChangeNothingAndLogEachWouldBeScalingOnce(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--shadow");
        allowReading(controlPlane);
        allowProbing(controlPlane, namespace, FULL_ROLE, true);
        List<String> nodes = new ArrayList<>();
        SeedFixture seed = shoot(controlPlane, namespace, nodes);
        Map<String, String> before = dependents(controlPlane.apiClient(), namespace);
        ShadowProber client = prober(controlPlane.kubeconfig(), "--dry-run=client", "client");
        ShadowProber server = prober(controlPlane.kubeconfigOf(FULL_ROLE), "--dry-run=server", "server");
        List<ShadowProber> both = List.of(client, server);

        await("healthy probes").atMost(STEP).pollInterval(Duration.ofMillis(200))
                .until(() -> client.leaseProbes(namespace) > 0 && server.leaseProbes(namespace) > 0);
        seed.stopRenewing(nodes.subList(0, 3)); // 3 of 5 = 0.6: the threshold
        await("would-be scale-downs").atMost(STEP).pollInterval(Duration.ofMillis(200))
                .until(() -> client.wouldScale(namespace, "down").size() >= 3 && server.wouldScale(namespace, "down").size() >= 3);
        long probesAtScaleDown = client.leaseProbes(namespace);
        await("three more probes of the meltdown").atMost(STEP).pollInterval(Duration.ofMillis(200))
                .until(() -> client.leaseProbes(namespace) >= probesAtScaleDown + 3);
        assertThat(dependents(controlPlane.apiClient(), namespace)).as("nothing changed in the meltdown").isEqualTo(before);

        seed.resumeRenewing(nodes.subList(0, 3));
        await("would-be scale-ups").atMost(STEP).pollInterval(Duration.ofMillis(200))
                .until(() -> client.wouldScale(namespace, "up").size() >= 3 && server.wouldScale(namespace, "up").size() >= 3);
        long probesAtScaleUp = server.leaseProbes(namespace);
        await("three more healthy probes").atMost(STEP).pollInterval(Duration.ofMillis(200))
                .until(() -> server.leaseProbes(namespace) >= probesAtScaleUp + 3);

        assertThat(dependents(controlPlane.apiClient(), namespace))
                .as("replicas, annotations and resourceVersions are byte-for-byte unchanged").isEqualTo(before);
        for (ShadowProber prober : both) {
            String mode = prober == client ? "client" : "server";
            List<WouldScale> down = prober.wouldScale(namespace, "down");
            List<WouldScale> up = prober.wouldScale(namespace, "up");
            assertThat(down).as("one would-scale-down line per dependent, level order (%s)", mode)
                    .extracting(WouldScale::name).hasSize(3).endsWith(KCM).containsExactlyInAnyOrder(MCM, CA, KCM);
            assertThat(down).extracting(WouldScale::to).containsOnly(0);
            assertThat(up).as("one would-scale-up line per dependent, level order (%s)", mode)
                    .extracting(WouldScale::name).containsExactly(KCM, MCM, CA);
            assertThat(up).extracting(WouldScale::from).containsOnly(0);
            assertThat(up).extracting(WouldScale::to).containsExactly(3, 2, 1);
            assertThat(prober.wouldScale(namespace)).allSatisfy(line -> {
                assertThat(line.mode()).isEqualTo(mode);
                assertThat(line.writes()).doesNotContain("FINDING")
                        .contains(mode.equals("client") ? ": not sent" : ": would succeed");
            });
            assertThat(down).allSatisfy(line -> assertThat(line.writes())
                    .contains("dependency-watchdog.gardener.cloud/replicas=\"" + line.from() + "\""));
            String log = prober.log();
            assertThat(log).contains("dry-run " + mode, "runs in shadow mode (--dry-run=" + mode + ")")
                    .doesNotContain(namespace + ": scale-down: scaled", namespace + ": scale-up: scaled");
        }
        assertThat(seed.renewalFailures()).isZero();
        assertThat(server.stop()).as("stops on SIGTERM").isTrue();
    }

    @Test
    void aServerSideDryRunWithoutTheRightToPatchDeploymentsReportsTheScaleDownAsForbiddenAndTheFullRoleAsWorking(
            LocalControlPlane controlPlane) throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--rbac");
        allowReading(controlPlane);
        allowProbing(controlPlane, namespace, FULL_ROLE, true);
        allowProbing(controlPlane, namespace, NO_PATCHING, false);
        List<String> nodes = new ArrayList<>();
        SeedFixture seed = shoot(controlPlane, namespace, nodes);
        Map<String, String> before = dependents(controlPlane.apiClient(), namespace);
        ShadowProber limited = prober(controlPlane.kubeconfigOf(NO_PATCHING), "--dry-run=server", "limited");
        ShadowProber full = prober(controlPlane.kubeconfigOf(FULL_ROLE), "--dry-run=server", "full");

        await("healthy probes").atMost(STEP).pollInterval(Duration.ofMillis(200))
                .until(() -> limited.leaseProbes(namespace) > 0 && full.leaseProbes(namespace) > 0);
        seed.stopRenewing(nodes.subList(0, 3));
        await("would-be scale-downs").atMost(STEP).pollInterval(Duration.ofMillis(200))
                .until(() -> limited.wouldScale(namespace, "down").size() >= 3 && full.wouldScale(namespace, "down").size() >= 3);
        long probes = limited.leaseProbes(namespace);
        await("the probe goes on").atMost(STEP).pollInterval(Duration.ofMillis(200))
                .until(() -> limited.leaseProbes(namespace) >= probes + 2);

        List<WouldScale> forbidden = limited.wouldScale(namespace, "down");
        assertThat(forbidden).extracting(WouldScale::name).hasSize(3).endsWith(KCM).containsExactlyInAnyOrder(MCM, CA, KCM);
        assertThat(forbidden).allSatisfy(line -> {
            assertThat(line.line()).contains(" WARN ");
            assertThat(line.writes())
                    .contains("scale to 0 replicas and annotate dependency-watchdog.gardener.cloud/meltdown-protection-active=\"\", "
                            + "dependency-watchdog.gardener.cloud/replicas=\"" + line.from() + "\": FINDING: would be forbidden: ")
                    .contains("scaling apps/v1 Deployment " + line.name() + " in namespace " + namespace + " to 0 and patching",
                            "403 Forbidden", "User \"" + NO_PATCHING + "\" cannot patch resource \"deployments\"");
        });
        assertThat(full.wouldScale(namespace, "down")).hasSize(3).allSatisfy(line -> {
            assertThat(line.line()).contains(" INFO ");
            assertThat(line.writes()).startsWith("scale to 0 replicas and annotate ").endsWith(": would succeed")
                    .doesNotContain("FINDING");
        });
        assertThat(limited.isAlive()).isTrue();
        assertThat(dependents(controlPlane.apiClient(), namespace)).isEqualTo(before);
    }

    /** Both identities may read everything, as dwd's seed role allows (reads are the same in every mode). */
    private static void allowReading(LocalControlPlane controlPlane) throws ApiException {
        var rbac = new RbacAuthorizationV1Api(controlPlane.apiClient());
        if (rbac.listClusterRole().execute().getItems().stream().anyMatch(r -> r.getMetadata().getName().equals("dwd-reader"))) {
            return;
        }
        rbac.createClusterRole(new V1ClusterRole().metadata(new V1ObjectMeta().name("dwd-reader")).rules(List.of(
                new V1PolicyRule().apiGroups(List.of("*")).resources(List.of("*")).verbs(List.of("get", "list", "watch")))))
                .execute();
        rbac.createClusterRoleBinding(new V1ClusterRoleBinding().metadata(new V1ObjectMeta().name("dwd-reader"))
                .roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("ClusterRole").name("dwd-reader"))
                .subjects(List.of(user(FULL_ROLE), user(NO_PATCHING)))).execute();
    }

    /**
     * The prober's writes in the shoot namespace: updating Deployments' scale and, if {@code mayPatch},
     * patching Deployments (a Deployment's scale and record are one patch).
     */
    private static void allowProbing(LocalControlPlane controlPlane, String namespace, String user, boolean mayPatch)
            throws ApiException {
        var rules = new ArrayList<>(List.of(new V1PolicyRule().apiGroups(List.of("apps"))
                .resources(List.of("deployments/scale")).verbs(List.of("update"))));
        if (mayPatch) {
            rules.add(new V1PolicyRule().apiGroups(List.of("apps")).resources(List.of("deployments"))
                    .verbs(List.of("patch")));
        }
        var rbac = new RbacAuthorizationV1Api(controlPlane.apiClient());
        rbac.createNamespacedRole(namespace, new V1Role().metadata(new V1ObjectMeta().name(user)).rules(rules)).execute();
        rbac.createNamespacedRoleBinding(namespace, new V1RoleBinding().metadata(new V1ObjectMeta().name(user))
                .roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name(user))
                .subjects(List.of(user(user)))).execute();
    }

    private static RbacV1Subject user(String name) {
        return new RbacV1Subject().kind("User").apiGroup("rbac.authorization.k8s.io").name(name);
    }
}
