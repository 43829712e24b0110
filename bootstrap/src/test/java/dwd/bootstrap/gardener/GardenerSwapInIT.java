package dwd.bootstrap.gardener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.ProjectedToken;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.ContainerImage;
import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.prober.PrometheusText;
import dwd.bootstrap.prober.SeedFixture;
import dwd.bootstrap.weeder.CrashLoopingApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1TokenRequestSpec;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The swap-in: the image runs unchanged where gardenlet runs the original. Every pod is run as Gardener's
 * Deployment runs it ({@link GardenletPod}: its command through {@code --entrypoint}, the image's own user,
 * a writable root, {@code --memory=512m}, the ConfigMap's {@code dep-config.yaml} at
 * {@code /etc/dependency-watchdog/config/}, a projected token volume, {@code KUBERNETES_SERVICE_HOST/PORT},
 * nothing else), two replicas per role, against a local seed whose only grants to dwd's identities are the
 * objects gardener v1.136.2 renders ({@link GardenerObjects}; the shoot is the same API server, its probe
 * identity bound by Gardener's shoot-side RBAC). The config is Gardener's as rendered, delays included.
 *
 * <p>Shown: one leader per role; the prober's tokens rotated and the old ones revoked while it runs, after
 * which its probes and scale writes succeed without a restart; a meltdown scales machine-controller-manager
 * and cluster-autoscaler down, then kube-controller-manager, and recovery restores 3/2/1 with the
 * annotations removed; a crash-looping kube-apiserver is deleted when etcd-main-client turns ready; the API
 * server's audit log has no request of dwd's identities answered 403 (Events, which Gardener grants in
 * {@code garden} only, are never attempted), and each process says once that Events are off.
 */
@WithLocalControlPlane(apiServerFlags = {
        "--audit-policy-file=target/test-classes/dwd/it/gardener-audit-policy.yaml",
        "--audit-log-path=target/gardener-swap-in-audit.log"})
@EnabledIf(value = "dwd.bootstrap.gardener.GardenletPod#runnable", disabledReason = GardenletPod.TOOLS_MISSING)
class GardenerSwapInIT {

    static final Path AUDIT_LOG = Path.of("target/gardener-swap-in-audit.log");
    /** The pods' logs and configs, kept after the run. */
    static final Path PODS = DwdProcess.REPOSITORY.resolve("bootstrap/target/gardener-swap-in");
    static final String KCM = "kube-controller-manager";
    static final String MCM = "machine-controller-manager";
    static final String CA = "cluster-autoscaler";
    static final String EVENTS_OFF = "Kubernetes Events are off";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private final List<ProjectedToken> tokens = new ArrayList<>();

    @Test
    void theImageRunsAsGardenletDeploysItUnderGardenersRbacAndRotatingTokens(LocalControlPlane controlPlane,
            @TempDir Path dir) throws Exception {
        Instant started = Instant.now();
        deleteRecursively(PODS);
        Files.createDirectories(PODS);
        ContainerImage image = ContainerImage.get();
        ApiClient admin = controlPlane.apiClient();
        int port = URI.create(controlPlane.server()).getPort();

        // The seed: Gardener's objects for both roles and the shoot-side RBAC of the probe identity.
        new CoreV1Api(admin).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("garden"))).execute();
        var prober = GardenerObjects.seed("prober");
        var weeder = GardenerObjects.seed("weeder");
        assertThat(prober.apply(admin)).as("kinds not served locally").containsExactly("VerticalPodAutoscaler");
        assertThat(weeder.apply(admin)).containsExactly("VerticalPodAutoscaler");
        GardenerObjects.shootAccess().apply(admin);

        // A shoot: its access secret (the probe identity's token, as Gardener's token requestor writes it),
        // Gardener's three dependents, 5 nodes renewing their leases, a Cluster with a node-monitor grace of 8 s.
        String shoot = controlPlane.createNamespace("shoot--dev--swap-in");
        var seed = new SeedFixture(admin, shoot);
        cleanup.add(seed);
        seed.createKubeconfigSecret(probeKubeconfig(controlPlane, admin, port));
        seed.createGardenerDependents();
        List<String> nodes = seed.createNodes(5);
        seed.startKubelets();
        seed.createCluster("8s");
        var deployments = new DeploymentController(admin, controlPlane.newApiClient(Duration.ZERO), shoot);
        cleanup.add(deployments);
        var crashLoop = CrashLoopingApiServer.create(admin, shoot);

        // Two pods per role, as gardenlet's Deployments with the HA webhook's two replicas.
        List<ContainerImage.Container> probers = new ArrayList<>();
        List<ContainerImage.Container> weeders = new ArrayList<>();
        for (String replica : List.of("a", "b")) {
            probers.add(pod(image, prober, "dependency-watchdog-prober-" + replica, dir, controlPlane, port));
            weeders.add(pod(image, weeder, "dependency-watchdog-weeder-" + replica, dir, controlPlane, port));
        }
        await("one leader per role").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> leading(probers).size() == 1 && leading(weeders).size() == 1);
        var proberLeader = leading(probers).getFirst();
        var weederLeader = leading(weeders).getFirst();

        // The token rotation: every pod's token file swapped, the old tokens revoked, while dwd runs.
        List<String> old = new ArrayList<>();
        for (ProjectedToken token : tokens) {
            old.add(token.rotate());
        }
        for (ProjectedToken token : tokens) {
            token.revokeRotatedOut();
        }
        old.forEach(tokens.getFirst()::awaitRefused);

        await("a healthy probe (Gardener's initialDelay: 30 s)").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> proberLeader.log().contains(shoot + ": lease probe: SCALE_UP"));
        crashLoop.etcdTurnsReady();

        seed.stopRenewing(nodes.subList(0, 3)); // 3 of 5 = 0.6: the threshold
        await("scale-down").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> deployments.replicas(KCM) == 0 && deployments.replicas(MCM) == 0 && deployments.replicas(CA) == 0);
        List<DeploymentController.Change> down = deployments.changes();
        assertThat(down).hasSize(3);
        assertThat(down.subList(0, 2)).extracting(DeploymentController.Change::name).containsExactlyInAnyOrder(MCM, CA);
        assertThat(down.get(2)).isEqualTo(new DeploymentController.Change(KCM, 3, 0));

        seed.resumeRenewing(nodes.subList(0, 3));
        await("recovery (a probe interval of 30 s, machine-controller-manager's initialDelay of 30 s)")
                .atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(500))
                .until(() -> deployments.replicas(KCM) == 3 && deployments.replicas(MCM) == 2 && deployments.replicas(CA) == 1
                        && List.of(KCM, MCM, CA).stream().allMatch(name -> dwdAnnotations(deployments, name).isEmpty()));
        assertThat(deployments.changes().subList(3, 6)).extracting(DeploymentController.Change::name)
                .containsExactly(KCM, MCM, CA);

        await("the crash-looping kube-apiserver deleted").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200)).until(crashLoop::podDeleted);

        // Nothing restarted: the first leaders lead still, every pod runs, no leadership changed hands.
        assertThat(leading(probers)).containsExactly(proberLeader);
        assertThat(leading(weeders)).containsExactly(weederLeader);
        for (var pod : concat(probers, weeders)) {
            assertThat(pod.process.isAlive()).as("%s runs; its log:%n%s", pod.log, pod.log()).isTrue();
            assertThat(metric(pod, "dwd_leader_acquisitions_total")).as("%s took the lead at most once", pod.log).isLessThanOrEqualTo(1);
        }
        double refused = 0;
        for (var pod : concat(probers, weeders)) {
            refused += metric(pod, "dwd_api_requests_total", Map.of("code", "401"));
        }
        assertThat(refused).as("requests sent with a revoked token (then sent again with the new one)").isPositive();
        assertThat(seed.renewalFailures()).as("the test's kubelets").isZero();
        assertThat(deployments.statusFailures()).as("the test's Deployment controller").isZero();

        // Events: off, said once by each process, counted by the leaders; never attempted.
        for (var pod : concat(probers, weeders)) {
            assertThat(pod.log().lines().filter(line -> line.contains(EVENTS_OFF)).count())
                    .as("%s says once that Events are off", pod.log).isEqualTo(1);
        }
        assertThat(metric(proberLeader, "dwd_events_total", Map.of("result", "off"))).isGreaterThanOrEqualTo(6);
        assertThat(metric(weederLeader, "dwd_events_total", Map.of("result", "off"))).isGreaterThanOrEqualTo(1);

        AuditLog audit = AuditLog.read(AUDIT_LOG, started);
        assertThat(audit.by("system:serviceaccount:garden:dependency-watchdog-prober")).as("the prober's requests audited")
                .isNotEmpty();
        assertThat(audit.by("system:serviceaccount:kube-system:dependency-watchdog-probe")).as("the probes audited")
                .isNotEmpty();
        assertThat(audit.answered(403)).as("requests of dwd's identities answered 403").isEmpty();

        for (var pod : concat(probers, weeders)) {
            assertThat(pod.terminate()).as("%s exits on SIGTERM; its log:%n%s", pod.log, pod.log()).isEqualTo(143);
        }
    }

    private ContainerImage.Container pod(ContainerImage image, GardenerObjects objects, String name, Path dir,
            LocalControlPlane controlPlane, int port) throws Exception {
        String role = name.contains("prober") ? "prober" : "weeder";
        var token = ProjectedToken.create(controlPlane, "garden", "dependency-watchdog-" + role,
                dir.resolve(name + "-serviceaccount"));
        tokens.add(token);
        var pod = GardenletPod.start(image, objects, name, PODS, token.directory(), port);
        cleanup.add(pod);
        return pod;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    /** The kubeconfig of Gardener's shoot access secret: the shoot's API server, its CA, the probe identity's token. */
    private static String probeKubeconfig(LocalControlPlane controlPlane, ApiClient admin, int port) throws ApiException {
        var core = new CoreV1Api(admin);
        core.createNamespacedServiceAccount("kube-system", new io.kubernetes.client.openapi.models.V1ServiceAccount()
                .metadata(new V1ObjectMeta().name("dependency-watchdog-probe"))).execute();
        AuthenticationV1TokenRequest request = core.createNamespacedServiceAccountToken("dependency-watchdog-probe",
                "kube-system", new AuthenticationV1TokenRequest().spec(new V1TokenRequestSpec()
                        .audiences(List.of()).expirationSeconds(3600L))).execute();
        String ca = Base64.getEncoder().encodeToString(controlPlane.certificateAuthority());
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: shoot
                  cluster:
                    server: https://%s:%d
                    certificate-authority-data: %s
                users:
                - name: dependency-watchdog-probe
                  user:
                    token: %s
                contexts:
                - name: shoot
                  context: {cluster: shoot, user: dependency-watchdog-probe}
                current-context: shoot
                """.formatted(GardenletPod.API_SERVER_NAME, port, ca, request.getStatus().getToken());
    }

    private static List<ContainerImage.Container> leading(List<ContainerImage.Container> pods) {
        return pods.stream().filter(pod -> {
            try {
                return metric(pod, "dwd_leader_status") == 1;
            } catch (IOException | RuntimeException notUpYet) {
                return false;
            }
        }).toList();
    }

    private static double metric(ContainerImage.Container pod, String name) throws IOException {
        return metric(pod, name, Map.of());
    }

    private static double metric(ContainerImage.Container pod, String name, Map<String, String> labels) throws IOException {
        return PrometheusText.parse(pod.metrics()).sum(name, labels);
    }

    private static Map<String, String> dwdAnnotations(DeploymentController deployments, String name) {
        var found = new java.util.HashMap<>(deployments.annotations(name));
        found.keySet().removeIf(key -> !key.startsWith("dependency-watchdog.gardener.cloud/"));
        return found;
    }

    private static List<ContainerImage.Container> concat(List<ContainerImage.Container> a, List<ContainerImage.Container> b) {
        var all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
