package dwd.adapters.k8s.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.TestCertificates;
import dwd.adapters.k8s.testing.TlsFront;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ApiFailure.Kind;
import dwd.application.port.out.ShootApi;
import dwd.domain.lease.Node;
import dwd.domain.lease.NodeCondition;
import dwd.domain.lease.NodeLease;
import dwd.adapters.k8s.testing.TestWatchReports;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@WithLocalControlPlane
class KubernetesShootClientsIT {

    private static final String SECRET = "shoot-access-dwd-probe";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private LocalControlPlane controlPlane;
    private CoreV1Api core;
    private KubernetesShootClients shootClients;
    private String namespace;

    @BeforeEach
    void setUp(LocalControlPlane controlPlane) {
        this.controlPlane = controlPlane;
        this.core = new CoreV1Api(controlPlane.apiClient());
        this.shootClients = new KubernetesShootClients(() -> controlPlane.newApiClient(Duration.ofSeconds(30)),
                UnaryOperator.identity(), TestWatchReports.create());
        this.namespace = controlPlane.createNamespace("shoot--clients");
    }

    @AfterEach
    void tearDown() {
        shootClients.close();
    }

    private void createSecret(String name, Map<String, String> data) throws ApiException {
        core.createNamespacedSecret(namespace, new V1Secret()
                .metadata(new V1ObjectMeta().name(name))
                .data(data.entrySet().stream().collect(Collectors.toMap(
                        Map.Entry::getKey, entry -> entry.getValue().getBytes(StandardCharsets.UTF_8)))))
                .execute();
    }

    private void createKubeconfigSecret(String kubeconfig) throws ApiException {
        createSecret(SECRET, Map.of("kubeconfig", kubeconfig, "token", "not-used-here"));
    }

    private ApiFailure openFailure() {
        try {
            shootClients.open(namespace, SECRET, TIMEOUT).close();
        } catch (ApiFailure failure) {
            return failure;
        }
        throw new AssertionError("open succeeded");
    }

    @Test
    void aCertificateThatDoesNotVerifyIsNamedByItsKindWithItsNamesAndDatesInDwdsWords() throws Exception {
        var authority = TestCertificates.Authority.create("shoot-ca");
        var other = TestCertificates.Authority.create("another-ca");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        var expired = authority.issue("kube-apiserver", List.of("127.0.0.1"), now.minus(Duration.ofDays(60)),
                now.minus(Duration.ofDays(1)));
        try (var front = TlsFront.inFrontOf(controlPlane, other.issue("kube-apiserver", List.of("127.0.0.1")))) {
            createKubeconfigSecret(front.kubeconfig("127.0.0.1", authority));
            String shoot = "shoot " + namespace + " (https://127.0.0.1:" + front.port() + "): GET /version: ";

            assertThat(versionFailure()).satisfies(failure -> {
                assertThat(failure.kind()).isEqualTo(Kind.CERTIFICATE_NOT_TRUSTED);
                assertThat(failure.getMessage()).isEqualTo(shoot + "the server's certificate (CN=kube-apiserver, issued"
                        + " by CN=another-ca) is not signed by a certificate authority the kubeconfig trusts"
                        + " (certificate-authority-data)");
            });
            front.present(expired);
            assertThat(versionFailure()).satisfies(failure -> {
                assertThat(failure.kind()).isEqualTo(Kind.CERTIFICATE_EXPIRED);
                assertThat(failure.getMessage()).isEqualTo(shoot + "the server's certificate (CN=kube-apiserver) expired at "
                        + now.minus(Duration.ofDays(1)) + " (valid from " + now.minus(Duration.ofDays(60)) + " to "
                        + now.minus(Duration.ofDays(1)) + ")");
            });
            front.present(authority.issue("kube-apiserver", List.of("api.other-shoot.example", "10.9.8.7")));
            assertThat(versionFailure()).satisfies(failure -> {
                assertThat(failure.kind()).isEqualTo(Kind.CERTIFICATE_HOST_MISMATCH);
                assertThat(failure.getMessage()).isEqualTo(shoot + "the server's certificate (CN=kube-apiserver) is for"
                        + " api.other-shoot.example, 10.9.8.7, not for 127.0.0.1, the host dwd connected to (the"
                        + " kubeconfig's server)");
            });
            front.present(authority.issue("kube-apiserver", List.of("127.0.0.1")));
            try (ShootApi api = shootClients.open(namespace, SECRET, TIMEOUT)) {
                assertThat(api.version()).as("a certificate that verifies: the real API server answers").startsWith("v1.36.");
            }
        }
    }

    /** The failure of a probe's first request to the shoot. */
    private ApiFailure versionFailure() {
        try (ShootApi api = shootClients.open(namespace, SECRET, TIMEOUT)) {
            api.version();
        } catch (ApiFailure failure) {
            assertThat(failure.getMessage()).as("in dwd's words").doesNotContain("Exception", "sun.", "java.", "PKIX");
            return failure;
        }
        throw new AssertionError("the shoot answered");
    }

    @Test
    void readsVersionNodesAndLeasesOfTheShoot() throws ApiException {
        // The local control plane is the "shoot": the secret's kubeconfig points back at it.
        createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        String healthy = namespace + "-node-a";
        String pressured = namespace + "-node-b";
        core.createNode(new V1Node()
                .metadata(new V1ObjectMeta().name(healthy)
                        .labels(Map.of("worker.gardener.cloud/pool", "pool-a"))
                        .annotations(Map.of("node.machine.sapcloud.io/not-managed-by-mcm", "false")))
                .status(new V1NodeStatus().conditions(List.of(
                        new V1NodeCondition().type("Ready").status("True").reason("KubeletReady"),
                        new V1NodeCondition().type("InPlaceUpdate").status("False").reason("ReadyForUpdate")))))
                .execute();
        core.createNode(new V1Node()
                .metadata(new V1ObjectMeta().name(pressured))
                .status(new V1NodeStatus().conditions(List.of(new V1NodeCondition().type("DiskPressure").status("True")))))
                .execute();
        var coordination = new CoordinationV1Api(controlPlane.apiClient());
        OffsetDateTime renewed = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        coordination.createNamespacedLease("kube-node-lease", new V1Lease()
                .metadata(new V1ObjectMeta().name(healthy))
                .spec(new V1LeaseSpec().holderIdentity(healthy).leaseDurationSeconds(40).renewTime(renewed)))
                .execute();
        coordination.createNamespacedLease("kube-node-lease", new V1Lease()
                .metadata(new V1ObjectMeta().name(pressured))
                .spec(new V1LeaseSpec().holderIdentity(pressured)))
                .execute();

        try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
            assertThat(shoot.version()).startsWith("v1.36.");
            assertThat(shoot.nodes()).filteredOn(node -> node.name().startsWith(namespace)).containsExactlyInAnyOrder(
                    new Node(healthy, Map.of("worker.gardener.cloud/pool", "pool-a"),
                            Map.of("node.machine.sapcloud.io/not-managed-by-mcm", "false"),
                            List.of(new NodeCondition("Ready", "True", "KubeletReady"),
                                    new NodeCondition("InPlaceUpdate", "False", "ReadyForUpdate"))),
                    new Node(pressured, Map.of(), Map.of(), List.of(new NodeCondition("DiskPressure", "True", ""))));
            assertThat(shoot.nodeLeases()).filteredOn(lease -> lease.name().startsWith(namespace))
                    .containsExactlyInAnyOrder(
                            new NodeLease(healthy, Optional.of(renewed.toInstant())),
                            new NodeLease(pressured, Optional.empty()));
        }
    }

    @Test
    void listsLargerThanAPageAreReadWhole() throws ApiException {
        createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        var coordination = new CoordinationV1Api(controlPlane.apiClient());
        int count = BoundedList.PAGE_SIZE + 3;
        for (int i = 0; i < count; i++) {
            coordination.createNamespacedLease("kube-node-lease", new V1Lease()
                    .metadata(new V1ObjectMeta().name(namespace + "-many-" + i))
                    .spec(new V1LeaseSpec().renewTime(OffsetDateTime.now(ZoneOffset.UTC))))
                    .execute();
        }
        try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
            assertThat(shoot.nodeLeases()).filteredOn(lease -> lease.name().startsWith(namespace + "-many-"))
                    .hasSize(count)
                    .allSatisfy(lease -> assertThat(lease.renewTime()).isPresent());
        }
    }

    @Test
    void aMissingSecretIsNotFoundAndNamed() {
        ApiFailure failure = openFailure();
        assertThat(failure.kind()).isEqualTo(Kind.NOT_FOUND);
        assertThat(failure.getMessage()).contains("secret " + namespace + "/" + SECRET);
    }

    @Test
    void aSecretWithoutKubeconfigKeyIsBadInput() throws ApiException {
        createSecret(SECRET, Map.of("token", "abc"));
        ApiFailure failure = openFailure();
        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage()).isEqualTo("secret " + namespace + "/" + SECRET + " has no data key 'kubeconfig'");
    }

    @Test
    void aKubeconfigThatDoesNotParseIsBadInputWithoutQuotingIt() throws ApiException {
        createKubeconfigSecret("""
                apiVersion: v1
                users:
                - name: probe
                  user:
                    token: super-secret-token-value
                  : [unbalanced
                """);
        ApiFailure failure = openFailure();
        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage())
                .startsWith("secret " + namespace + "/" + SECRET + ": the kubeconfig is not valid YAML (")
                .contains("line")
                .doesNotContain("super-secret-token-value");
        assertThat(failure.getCause()).isNull();
    }

    @Test
    void aDocumentThatIsNoKubeconfigIsBadInput() throws ApiException {
        createKubeconfigSecret("just a string");
        assertThat(openFailure().kind()).isEqualTo(Kind.BAD_INPUT);
    }

    @Test
    void aKubeconfigWithoutServerIsBadInput() throws ApiException {
        createKubeconfigSecret("""
                apiVersion: v1
                clusters: [{name: c, cluster: {}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """);
        ApiFailure failure = openFailure();
        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage()).contains("has no server for cluster 'c'");
    }

    @Test
    void execCredentialsAreRejectedBeforeAnythingRuns(@TempDir Path scratch) throws ApiException {
        Path ran = scratch.resolve("exec-ran");
        createKubeconfigSecret("""
                apiVersion: v1
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
                users:
                - name: u
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: /bin/sh
                      args: ["-c", "touch %s"]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """.formatted(ran));
        ApiFailure failure = openFailure();
        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage()).contains("user 'u' uses exec credentials, which dwd does not run");
        assertThat(Files.exists(ran)).as("the exec command ran").isFalse();
    }

    @Test
    void authProvidersAreRejected() throws ApiException {
        createKubeconfigSecret("""
                apiVersion: v1
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
                users: [{name: u, user: {auth-provider: {name: oidc, config: {id-token: abc}}}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """);
        ApiFailure failure = openFailure();
        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage()).contains("uses auth-provider credentials").doesNotContain("abc");
    }

    @Test
    void localFilesAreNeverRead() throws ApiException {
        createKubeconfigSecret("""
                apiVersion: v1
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", certificate-authority: /etc/ssl/ca.pem}}]
                users: [{name: u, user: {tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """);
        ApiFailure failure = openFailure();
        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage()).contains("refers to local files (tokenFile, certificate-authority)");
    }

    @Test
    void rejectedCredentialsAreUnauthorized() throws ApiException {
        createKubeconfigSecret("""
                apiVersion: v1
                clusters: [{name: c, cluster: {server: "%s", insecure-skip-tls-verify: true}}]
                users: [{name: u, user: {token: not-a-token-of-this-server}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """.formatted(controlPlane.apiClient().getBasePath()));
        try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
            assertThatThrownBy(shoot::version).isInstanceOfSatisfying(ApiFailure.class, failure -> {
                assertThat(failure.kind()).isEqualTo(Kind.UNAUTHORIZED);
                assertThat(failure.getMessage()).contains("shoot " + namespace).contains("GET /version")
                        .doesNotContain("not-a-token-of-this-server");
            });
        }
    }

    @Test
    void anUnresponsiveServerTimesOutWithinTheBound() throws Exception {
        try (var silent = LoopbackServer.silent()) {
            createKubeconfigSecret(silent.kubeconfig());
            Duration bound = Duration.ofMillis(800);
            try (ShootApi shoot = shootClients.open(namespace, SECRET, bound)) {
                for (Runnable call : List.<Runnable>of(shoot::version, shoot::nodes, shoot::nodeLeases)) {
                    long started = System.nanoTime();
                    assertThatThrownBy(call::run).isInstanceOfSatisfying(ApiFailure.class,
                            failure -> assertThat(failure.kind()).isEqualTo(Kind.TIMEOUT));
                    assertThat(Duration.ofNanos(System.nanoTime() - started))
                            .isGreaterThanOrEqualTo(bound.minusMillis(50))
                            .isLessThan(bound.plusSeconds(2));
                }
            }
        }
    }

    @Test
    void aRunLeavesItsConnectionToTheNextRun() throws IOException, ApiException {
        try (var server = LoopbackServer.versionServer()) {
            createKubeconfigSecret(server.kubeconfig());
            for (int run = 0; run < 3; run++) {
                try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
                    assertThat(shoot.version()).isEqualTo("v1.36.0-loopback");
                    assertThat(shoot.version()).isEqualTo("v1.36.0-loopback");
                }
            }
            assertThat(server.requests()).isEqualTo(6);
            assertThat(server.connections()).as("three runs on one connection").isEqualTo(1);
            assertThat(server.closedByClients()).isZero();
            assertThat(shootClients.clientsKept()).as("the client built from the kubeconfig is kept").isEqualTo(1);
        }
    }

    @Test
    void twoShootsOnTheSameServerNeverShareAConnection() throws IOException, ApiException {
        try (var server = LoopbackServer.versionServer()) {
            createKubeconfigSecret(server.kubeconfig());
            String other = controlPlane.createNamespace("shoot--clients-other");
            core.createNamespacedSecret(other, new V1Secret().metadata(new V1ObjectMeta().name(SECRET))
                    .data(Map.of("kubeconfig", server.kubeconfig().getBytes(StandardCharsets.UTF_8)))).execute();
            for (int run = 0; run < 2; run++) {
                for (String shoot : List.of(namespace, other)) {
                    try (ShootApi api = shootClients.open(shoot, SECRET, TIMEOUT)) {
                        assertThat(api.version()).isEqualTo("v1.36.0-loopback");
                    }
                }
            }
            assertThat(server.connections()).as("one kept connection per shoot").isEqualTo(2);
        }
    }

    @Test
    void aFailedRunClosesItsConnectionSoTheNextRunStartsOnANewOne() throws IOException, ApiException {
        try (var server = LoopbackServer.answering(500)) {
            createKubeconfigSecret(server.kubeconfig());
            for (int run = 1; run <= 2; run++) {
                try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
                    assertThatThrownBy(shoot::version).isInstanceOfSatisfying(ApiFailure.class,
                            failure -> assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE));
                }
                int closed = run;
                await().atMost(Duration.ofSeconds(10)).until(() -> server.closedByClients() == closed);
            }
            assertThat(server.connections()).as("each failed run's connection closed, none reused").isEqualTo(2);
        }
    }

    @Test
    void aKeptConnectionThatStoppedAnsweringCostsTheLivenessBoundThenTheRunGoesOnOnANewOne()
            throws IOException, ApiException {
        try (var server = LoopbackServer.breakingEachConnectionAfter(1, LoopbackServer.AfterShare.GO_SILENT)) {
            createKubeconfigSecret(server.kubeconfig());
            try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
                assertThat(shoot.version()).isEqualTo("v1.36.0-loopback");
            }
            long started = System.nanoTime();
            try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
                assertThat(shoot.version()).as("answered on a new connection").isEqualTo("v1.36.0-loopback");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .isGreaterThanOrEqualTo(KubernetesShootApi.LIVENESS_BOUND.minusMillis(50))
                    .isLessThan(TIMEOUT);
            assertThat(server.connections()).isEqualTo(2);
            await().atMost(Duration.ofSeconds(10)).until(() -> server.closedByClients() == 1);
        }
    }

    @Test
    void aKeptConnectionTheServerClosedIsReplacedWithoutWaiting() throws IOException, ApiException {
        try (var server = LoopbackServer.breakingEachConnectionAfter(1, LoopbackServer.AfterShare.CLOSE)) {
            createKubeconfigSecret(server.kubeconfig());
            for (int run = 0; run < 3; run++) {
                long started = System.nanoTime();
                try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
                    assertThat(shoot.version()).isEqualTo("v1.36.0-loopback");
                }
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(KubernetesShootApi.LIVENESS_BOUND);
            }
            assertThat(server.connections()).isEqualTo(3);
        }
    }

    @Test
    void runsOverTlsResumeOneCachedSessionInsteadOfKeepingEveryRunsSession() throws Exception {
        createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        for (int run = 0; run < 3; run++) {
            try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
                assertThat(shoot.version()).startsWith("v1.36.");
            }
        }
        var client = ShootKubeconfig.client(controlPlane.selfContainedKubeconfig().getBytes(StandardCharsets.UTF_8),
                "secret " + namespace + "/" + SECRET, TIMEOUT);
        var server = java.net.URI.create(client.getBasePath());
        try (var socket = (javax.net.ssl.SSLSocket) client.getHttpClient().sslSocketFactory()
                .createSocket(server.getHost(), server.getPort())) {
            socket.startHandshake();
            assertThat(socket.getSession().getSessionContext().getSessionCacheSize())
                    .as("sessions the shoot's TLS context keeps").isEqualTo(1);
        }
    }

    @Test
    void theSecretCacheSeesRotations() throws IOException, ApiException {
        createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
            assertThat(shoot.version()).startsWith("v1.36.");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> shootClients.isCached(namespace, SECRET));
        try (var server = LoopbackServer.versionServer()) {
            core.replaceNamespacedSecret(SECRET, namespace, new V1Secret()
                    .metadata(new V1ObjectMeta().name(SECRET))
                    .data(Map.of("kubeconfig", server.kubeconfig().getBytes(StandardCharsets.UTF_8))))
                    .execute();
            await().atMost(Duration.ofSeconds(30)).ignoreExceptionsInstanceOf(ApiFailure.class).untilAsserted(() -> {
                try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
                    assertThat(shoot.version()).isEqualTo("v1.36.0-loopback");
                }
            });
        }
    }

    @Test
    void whileTheSecretCacheIsNotTrustedACopyCurrentWithinTheLimitIsTakenWithoutReadingTheSeed() throws Exception {
        createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        var seed = new FailingWatches("/namespaces/" + namespace + "/secrets/" + SECRET);
        try (var clients = new KubernetesShootClients(() -> seed.on(controlPlane.newApiClient(Duration.ofSeconds(30))),
                UnaryOperator.identity(), TestWatchReports.create())) {
            clients.open(namespace, SECRET, TIMEOUT).close();
            await().atMost(Duration.ofSeconds(30)).until(() -> clients.isCached(namespace, SECRET));

            seed.failing.set(true);
            core.replaceNamespacedSecret(SECRET, namespace, new V1Secret().metadata(new V1ObjectMeta().name(SECRET))
                    .data(Map.of("kubeconfig", controlPlane.selfContainedKubeconfig().getBytes(StandardCharsets.UTF_8),
                            "token", "changed".getBytes(StandardCharsets.UTF_8)))).execute(); // an event: the watch fails
            await("the watch failed, and cannot list afresh").atMost(Duration.ofSeconds(30))
                    .until(() -> seed.refused.get() > 0);
            int before = seed.reads.get();
            try (ShootApi shoot = clients.open(namespace, SECRET, TIMEOUT)) {
                assertThat(shoot.version()).as("the cache's copy, seconds old, serves the probe").startsWith("v1.36.");
            }
            assertThat(seed.reads.get()).as("no GET of the secret").isEqualTo(before);
        }
    }

    @Test
    void aNonPositiveTimeoutIsBadInput() {
        assertThatThrownBy(() -> shootClients.open(namespace, SECRET, Duration.ZERO))
                .isInstanceOfSatisfying(ApiFailure.class, failure -> assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT));
    }
}
