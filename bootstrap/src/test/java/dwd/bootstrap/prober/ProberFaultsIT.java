package dwd.bootstrap.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.ApiFailure.Kind;
import dwd.application.port.out.ProberObserver.FlowOutcome;
import dwd.application.port.out.ProberObserver.ProbeStage;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.prober.FaultProxy.Answer;
import dwd.bootstrap.prober.FaultProxy.Exchange;
import dwd.bootstrap.prober.ProberEvents.Failed;
import dwd.bootstrap.prober.ProberEvents.FlowFinished;
import dwd.bootstrap.prober.ProberEvents.FlowStarted;
import dwd.bootstrap.prober.ProberEvents.ResourceFailed;
import dwd.bootstrap.prober.ProberEvents.Scaled;
import dwd.bootstrap.prober.ProberEvents.Skipped;
import dwd.bootstrap.prober.ProberEvents.Succeeded;
import dwd.domain.scaling.ScaleDirection;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.util.PatchUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Must-show 4: faults on the way to the shoot's API server never scale anything, and the seed-side
 * failures of a scale flow (missing dependents, a lost write race, an unknown kind) end as specified.
 * The shoot's leases are expired throughout, so only the fault stands between the shoot and a
 * scale-down; each test ends by taking the fault away and watching the scale-down happen.
 */
@WithLocalControlPlane
class ProberFaultsIT {

    private static final String SECRET = "dwd-faults-it-probe";
    private static final String KCM = "kube-controller-manager";
    private static final String MCM = "machine-controller-manager";
    private static final String CA = "cluster-autoscaler";
    private static final String ANNOTATION_REPLICAS = "dependency-watchdog.gardener.cloud/replicas";
    private static final Duration AT_MOST = Duration.ofSeconds(30);
    /** Gardener's dependents (scale-down: MCM and the optional CA on level 0, then KCM), no delays. */
    private static final String GARDENER_CONFIG = """
            kubeConfigSecretName: %s
            probeInterval: 1s
            initialDelay: 0s
            probeTimeout: 1s
            backoffJitterFactor: 0
            dependentResourceInfos:
              - ref: {kind: Deployment, name: kube-controller-manager, apiVersion: apps/v1}
                scaleUp: {level: 0}
                scaleDown: {level: 1}
              - ref: {kind: Deployment, name: machine-controller-manager, apiVersion: apps/v1}
                scaleUp: {level: 1}
                scaleDown: {level: 0}
              - ref: {kind: Deployment, name: cluster-autoscaler, apiVersion: apps/v1}
                optional: true
                scaleUp: {level: 2}
                scaleDown: {level: 0}
            """.formatted(SECRET);

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void faultsOfTheShootsApiServerNeverScaleAnything(LocalControlPlane controlPlane) throws Exception {
        SeedFixture shoot = shootWithExpiredLeases(controlPlane, "shoot--dev--faults");
        String ns = shoot.namespace();
        shoot.createDeployment(KCM, 3);
        shoot.createDeployment(MCM, 2);
        shoot.createDeployment(CA, 1);
        FaultProxy proxy = proxyTo(controlPlane);
        proxy.rules(on("/version", new Answer(429, Map.of("Retry-After", "2"))));
        shoot.createSecret(SECRET, Map.of("kubeconfig", proxy.kubeconfig()));
        var recorder = new DeploymentRecorder(controlPlane.newApiClient(Duration.ZERO), ns);
        cleanup.add(recorder);
        InJvmProber prober = InJvmProber.start(GARDENER_CONFIG, controlPlane.kubeconfig());
        cleanup.add(prober);

        // 429 with Retry-After: the next probe waits for it (2 s), though the probe interval is 1 s.
        List<Failed> throttled = awaitFailures(prober, ns, Instant.MIN, ProbeStage.API_SERVER, Kind.THROTTLED, 3);
        assertThat(throttled).allSatisfy(failure -> {
            assertThat(failure.failure().retryAfter()).contains(Duration.ofSeconds(2));
            assertThat(Duration.between(failure.at(), failure.nextProbe())).isGreaterThan(Duration.ofMillis(1_800));
        });
        List<Instant> versionRequests = proxy.exchanges().stream()
                .filter(exchange -> exchange.path().startsWith("/version")).map(Exchange::at).toList();
        for (int i = 1; i < versionRequests.size(); i++) {
            assertThat(Duration.between(versionRequests.get(i - 1), versionRequests.get(i)))
                    .as("spacing of the throttled probes").isGreaterThanOrEqualTo(Duration.ofMillis(1_900));
        }

        // A Retry-After beyond any duration holds the next probe back by the cap only: the larger of two
        // probe intervals and the prober's own back-off (2 s here).
        Instant mode = switchTo(proxy, on("/version", new Answer(429, Map.of("Retry-After", "9223372036854775807"))));
        assertThat(awaitFailures(prober, ns, mode, ProbeStage.API_SERVER, Kind.THROTTLED, 2)).allSatisfy(failure ->
                assertThat(Duration.between(failure.at(), failure.nextProbe()))
                        .isBetween(Duration.ofMillis(1_800), Duration.ofMillis(2_200)));

        mode = switchTo(proxy, on("/version", new Answer(401, Map.of())));
        Failed unauthorized = awaitFailures(prober, ns, mode, ProbeStage.API_SERVER, Kind.UNAUTHORIZED, 2).getLast();
        assertThat(Duration.between(unauthorized.at(), unauthorized.nextProbe())).as("no back-off after a 401")
                .isLessThan(Duration.ofMillis(1_500));

        mode = switchTo(proxy, on("/api/v1/nodes", new Answer(403, Map.of())));
        awaitFailures(prober, ns, mode, ProbeStage.LEASES, Kind.FORBIDDEN, 2);

        mode = switchTo(proxy, on("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases",
                new Answer(500, Map.of())));
        awaitFailures(prober, ns, mode, ProbeStage.LEASES, Kind.UNAVAILABLE, 2);

        // 429 without Retry-After, on the node list: the prober's own back-off (2 s here).
        mode = switchTo(proxy, on("/api/v1/nodes", new Answer(429, Map.of())));
        assertThat(awaitFailures(prober, ns, mode, ProbeStage.LEASES, Kind.THROTTLED, 2)).allSatisfy(failure ->
                assertThat(Duration.between(failure.at(), failure.nextProbe())).isGreaterThan(Duration.ofMillis(1_800)));

        mode = switchTo(proxy, on("/version", new FaultProxy.Reset()));
        awaitFailures(prober, ns, mode, ProbeStage.API_SERVER, Kind.UNAVAILABLE, 2);
        assertThat(outcomesSince(proxy, mode)).as("the proxy reset the connections").contains("reset");

        mode = switchTo(proxy, on("/version", new FaultProxy.NoAnswer()));
        awaitFailures(prober, ns, mode, ProbeStage.API_SERVER, Kind.TIMEOUT, 2);
        assertThat(outcomesSince(proxy, mode)).as("the proxy never answered").contains("no answer");

        mode = Instant.now();
        shoot.replaceSecret(SECRET, Map.of("kubeconfig", FaultProxy.kubeconfigFor("http://127.0.0.1:" + unusedPort())));
        assertThat(awaitFailures(prober, ns, mode, ProbeStage.API_SERVER, Kind.UNAVAILABLE, 2)).allSatisfy(failure ->
                assertThat(failure.failure().getMessage()).contains("cannot connect"));

        assertThat(prober.events().of(Succeeded.class, ns)).as("successful probes").isEmpty();
        assertThat(prober.events().of(FlowStarted.class, ns)).as("scale flows").isEmpty();
        assertThat(recorder.changes()).as("replica changes").isEmpty();
        for (String deployment : List.of(KCM, MCM, CA)) {
            assertThat(shoot.annotations(deployment)).as("annotations of %s", deployment).isEmpty();
        }

        // Without a fault, the expired leases scale the dependents down at once.
        proxy.rules((method, path) -> FaultProxy.FORWARD);
        shoot.replaceSecret(SECRET, Map.of("kubeconfig", proxy.kubeconfig()));
        await("the scale-down the faults held back").atMost(AT_MOST)
                .until(() -> shoot.replicas(KCM) == 0 && shoot.replicas(MCM) == 0 && shoot.replicas(CA) == 0);
    }

    @Test
    void missingDependentsAndAScaleWriteThatLosesARace(LocalControlPlane controlPlane) throws Exception {
        SeedFixture shoot = shootWithExpiredLeases(controlPlane, "shoot--dev--seed-faults");
        String ns = shoot.namespace();
        shoot.createSecret(SECRET, Map.of("kubeconfig", controlPlane.selfContainedKubeconfig()));
        shoot.createDeployment(KCM, 3); // MCM (mandatory) and CA (optional) are missing
        FaultProxy seedProxy = proxyTo(controlPlane);
        InJvmProber prober = InJvmProber.start(GARDENER_CONFIG, seedProxy.kubeconfig());
        cleanup.add(prober);

        await("two failed scale-downs").atMost(AT_MOST).until(() -> prober.events().of(FlowFinished.class, ns).stream()
                .filter(flow -> flow.direction() == ScaleDirection.DOWN && flow.outcome() == FlowOutcome.FAILED)
                .count() >= 2);
        assertThat(prober.events().of(ResourceFailed.class, ns)).isNotEmpty().allSatisfy(failed -> {
            assertThat(failed.ref().name()).as("the failing dependent").isEqualTo(MCM);
            assertThat(failed.reason()).contains(MCM).contains("not found");
        });
        assertThat(prober.events().of(Skipped.class, ns)).as("the optional one is skipped")
                .isNotEmpty().allSatisfy(skipped -> assertThat(skipped.ref().name()).isEqualTo(CA));
        assertThat(prober.events().of(Scaled.class, ns)).as("later levels are untouched").isEmpty();
        assertThat(shoot.replicas(KCM)).isEqualTo(3);
        assertThat(shoot.annotations(KCM)).isEmpty();

        // Another writer changes KCM between dwd's decision and its write (one patch of the replicas and
        // their record): the API server refuses the write (409), and dwd reads again and writes again.
        ApiClient admin = controlPlane.apiClient();
        var raced = new AtomicBoolean();
        seedProxy.beforeForwarding((method, path) -> {
            if (method.equals("PATCH") && path.endsWith("/deployments/" + KCM) && raced.compareAndSet(false, true)) {
                annotate(admin, ns, KCM, "test.dwd.dev/concurrent-writer", "was-here");
            }
        });
        shoot.createDeployment(MCM, 2);
        await("KCM scaled down").atMost(AT_MOST).until(() -> shoot.replicas(KCM) == 0);

        assertThat(seedProxy.exchanges()).filteredOn(exchange -> exchange.method().equals("PATCH")
                        && exchange.path().endsWith("/deployments/" + KCM))
                .extracting(Exchange::outcome).as("KCM's scale writes").containsExactly("forwarded 409", "forwarded 200");
        assertThat(shoot.annotations(KCM)).containsEntry(ANNOTATION_REPLICAS, "3")
                .containsEntry("test.dwd.dev/concurrent-writer", "was-here");
        assertThat(shoot.replicas(MCM)).isZero();
        await("the flow completes").atMost(AT_MOST).until(() -> prober.events().of(FlowFinished.class, ns).stream()
                .anyMatch(flow -> flow.direction() == ScaleDirection.DOWN && flow.outcome() == FlowOutcome.COMPLETED));
        assertThat(prober.events().of(ResourceFailed.class, ns)).as("failures").noneMatch(failed -> failed.ref().name().equals(KCM));
        assertThat(prober.events().of(Scaled.class, ns)).extracting(scaled -> scaled.ref().name() + " " + scaled.from()
                + "->" + scaled.to()).containsExactly(MCM + " 2->0", KCM + " 3->0");
    }

    @Test
    void anUnknownKindFailsWithAnErrorNamingIt(LocalControlPlane controlPlane) throws Exception {
        SeedFixture shoot = shootWithExpiredLeases(controlPlane, "shoot--dev--unknown-kind");
        String ns = shoot.namespace();
        shoot.createSecret(SECRET, Map.of("kubeconfig", controlPlane.selfContainedKubeconfig()));
        shoot.createDeployment(KCM, 3);
        shoot.createDeployment(MCM, 2);
        String config = GARDENER_CONFIG.replace("""
                  - ref: {kind: Deployment, name: machine-controller-manager, apiVersion: apps/v1}
                """, """
                  - ref: {kind: Depoyment, name: machine-controller-manager, apiVersion: apps/v1}
                    optional: true
                """);
        InJvmProber prober = InJvmProber.start(config, controlPlane.kubeconfig());
        cleanup.add(prober);

        await("two failed scale-downs").atMost(AT_MOST).until(() -> prober.events().of(FlowFinished.class, ns).stream()
                .filter(flow -> flow.outcome() == FlowOutcome.FAILED).count() >= 2);
        assertThat(prober.events().of(ResourceFailed.class, ns)).isNotEmpty().allSatisfy(failed -> {
            assertThat(failed.ref().kind()).isEqualTo("Depoyment");
            assertThat(failed.reason()).as("even though it is optional").contains("no kind \"Depoyment\" in apps/v1");
        });
        assertThat(prober.events().of(Scaled.class, ns)).as("later levels are untouched").isEmpty();
        assertThat(shoot.replicas(KCM)).isEqualTo(3);
        assertThat(shoot.replicas(MCM)).isEqualTo(2);
    }

    /** A shoot whose three nodes have live Machines and leases that expired long ago (grace period 8 s). */
    private SeedFixture shootWithExpiredLeases(LocalControlPlane controlPlane, String prefix) throws Exception {
        var shoot = new SeedFixture(controlPlane.apiClient(), controlPlane.createNamespace(prefix));
        cleanup.add(shoot);
        for (int i = 0; i < 3; i++) {
            shoot.createNodeRenewedAt(shoot.namespace() + "-node-" + i, SeedFixture.now().minusHours(1));
        }
        shoot.createCluster(ShootDocument.reconciled().gracePeriod("8s").toMap());
        return shoot;
    }

    private FaultProxy proxyTo(LocalControlPlane controlPlane) throws IOException {
        ApiClient upstream = controlPlane.newApiClient(Duration.ZERO); // no read timeout: watches pass through
        var proxy = new FaultProxy(upstream.getHttpClient(), upstream.getBasePath());
        cleanup.add(proxy);
        return proxy;
    }

    private static FaultProxy.Rules on(String pathPrefix, FaultProxy.Action action) {
        return (method, path) -> path.startsWith(pathPrefix) ? action : FaultProxy.FORWARD;
    }

    private static Instant switchTo(FaultProxy proxy, FaultProxy.Rules rules) {
        Instant now = Instant.now();
        proxy.rules(rules);
        return now;
    }

    /** Waits for {@code count} probe failures of this stage and kind reported after {@code since}. */
    private static List<Failed> awaitFailures(InJvmProber prober, String ns, Instant since, ProbeStage stage, Kind kind,
            int count) {
        Predicate<Failed> matching = failure -> failure.stage() == stage && failure.kind() == kind;
        await(count + " failures " + stage + " " + kind).atMost(AT_MOST).until(() ->
                prober.events().since(since, Failed.class, ns).stream().filter(matching).count() >= count);
        return prober.events().since(since, Failed.class, ns).stream().filter(matching).toList();
    }

    private static List<String> outcomesSince(FaultProxy proxy, Instant since) {
        return proxy.exchanges().stream().filter(exchange -> exchange.at().isAfter(since)).map(Exchange::outcome).toList();
    }

    /** A loopback port nothing listens on. */
    private static int unusedPort() throws IOException {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void annotate(ApiClient admin, String ns, String deployment, String key, String value) {
        try {
            PatchUtils.patch(Object.class, () -> new AppsV1Api(admin).patchNamespacedDeployment(deployment, ns,
                            new V1Patch("{\"metadata\":{\"annotations\":{\"" + key + "\":\"" + value + "\"}}}"))
                    .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, admin);
        } catch (ApiException e) {
            throw new UncheckedIOException(new IOException("the concurrent write failed: " + e.getCode(), e));
        }
    }
}
