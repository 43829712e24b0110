package dwd.adapters.k8s.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.ApiClients;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.ShootApiStub;
import dwd.adapters.k8s.testing.TestWatchReports;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.NodeLeaseWatch;
import dwd.application.port.out.ShootApi;
import dwd.domain.lease.NodeLease;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.PatchUtils;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Following a scaled-down shoot's node leases, through the shoot clients the prober uses: it starts from the list a
 * probe run read, sees a renewal with its next list, never asks for a watch (Gardener grants the probe's identity get
 * and list on leases, not watch), stops at once when closed, and keeps within the lease list's bounds whatever a
 * hostile shoot answers.
 */
@WithLocalControlPlane
class ShootLeasePollIT {

    private static final String SECRET = "shoot-access-dwd-probe";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases";
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

    private LocalControlPlane controlPlane;
    private KubernetesShootClients shootClients;
    private String namespace;
    /** Every request to the shoot, as {@code METHOD path?query}. */
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger changes = new AtomicInteger();

    @BeforeEach
    void setUp(LocalControlPlane controlPlane) {
        this.controlPlane = controlPlane;
        this.shootClients = new KubernetesShootClients(() -> controlPlane.newApiClient(Duration.ofSeconds(30)),
                ApiClients.intercepting(chain -> {
                    requests.add(chain.request().method() + " " + chain.request().url().encodedPath() + "?"
                            + chain.request().url().encodedQuery());
                    return chain.proceed(chain.request());
                }), TestWatchReports.create());
        this.namespace = controlPlane.createNamespace("shoot--lease-watch");
    }

    @AfterEach
    void tearDown() {
        shootClients.close();
    }

    private void createKubeconfigSecret(String kubeconfig) throws ApiException {
        new CoreV1Api(controlPlane.apiClient()).createNamespacedSecret(namespace, new V1Secret()
                .metadata(new V1ObjectMeta().name(SECRET))
                .data(Map.of("kubeconfig", kubeconfig.getBytes(StandardCharsets.UTF_8))))
                .execute();
    }

    private NodeLeaseWatch followFromARunsList() {
        try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
            shoot.nodeLeases();
            return shoot.watchNodeLeases(changes::incrementAndGet);
        }
    }

    @Test
    void aRenewalIsSeenByTheNextListAndNoWatchIsAsked() throws ApiException {
        createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        var coordination = new CoordinationV1Api(controlPlane.apiClient());
        String node = namespace + "-node";
        OffsetDateTime expired = OffsetDateTime.now(ZoneOffset.UTC).minusMinutes(5).truncatedTo(ChronoUnit.MICROS);
        coordination.createNamespacedLease("kube-node-lease", new V1Lease().metadata(new V1ObjectMeta().name(node))
                .spec(new V1LeaseSpec().holderIdentity(node).renewTime(expired))).execute();

        NodeLeaseWatch poll = followFromARunsList();
        assertThat(lease(poll, node)).contains(expired.toInstant());
        int runsListPages = leaseRequests().size();
        await("a list of the poll's own").atMost(Duration.ofSeconds(10)).until(() -> leaseRequests().size() > runsListPages);
        assertThat(changes.get()).as("an unchanged list tells nothing").isZero();
        Instant renewed = Instant.now().truncatedTo(ChronoUnit.MICROS);
        PatchUtils.patch(V1Lease.class, () -> coordination.patchNamespacedLease(node, "kube-node-lease",
                        new V1Patch("{\"spec\":{\"renewTime\":\"" + MICRO_TIME.format(renewed) + "\"}}")).buildCall(null),
                V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, controlPlane.apiClient());

        await("the renewal, seen by a list").atMost(Duration.ofSeconds(10))
                .until(() -> lease(poll, node).equals(Optional.of(renewed)));
        assertThat(changes.get()).isPositive();
        poll.close();
        assertThat(leaseRequests()).as("lists of at most 500 leases a page, never a watch: Gardener's RBAC grants none")
                .allSatisfy(request -> assertThat(request).contains("limit=500").doesNotContain("watch="));
    }

    @Test
    void aClosedPollStopsAtOnce() throws ApiException {
        createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        NodeLeaseWatch poll = followFromARunsList();
        assertThat(shootClients.leasePollsOpen()).isEqualTo(1);

        poll.close();
        await("the poll's thread ended").atMost(Duration.ofSeconds(5)).until(() -> shootClients.leasePollsOpen() == 0);
    }

    @Test
    void listsBeyondTheLeaseListsBoundsAreRefusedAndRetriedWithBackOff() throws Exception {
        try (var stub = new ShootApiStub()) {
            createKubeconfigSecret(stub.kubeconfig());
            var lists = new AtomicInteger();
            stub.answering(path -> path.equals(LEASES) ? exchange -> {
                if (lists.getAndIncrement() == 0) { // the run's list
                    ShootApiStub.leases(Map.of("n1", Instant.now())).answer(exchange);
                } else { // 10,001 leases: one more than a probe reads
                    stub.leaseFlood(BoundedList.MAX_ITEMS + 1, 0).answer(exchange);
                }
            } : ShootApiStub.version());

            NodeLeaseWatch poll = followFromARunsList();
            // Lists 0.5 s after the run's, then 1 s, 2 s, 4 s apart: 4 in 5 s where 10 would come without back-off.
            await("no more lists than back-off allows").during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(7))
                    .until(() -> lists.get() <= 5 && poll.leases().size() == 1);
            assertThat(lists.get()).as("it went on trying").isGreaterThanOrEqualTo(3);
            assertThat(changes.get()).as("a refused list changes nothing").isZero();
            poll.close();
        }
    }

    @Test
    void manyShootsFollowedAtOnceListLessOftenEachWithinTwoHundredListsASecond() {
        assertThat(KubernetesShootClients.leasePollInterval(1)).isEqualTo(Duration.ofMillis(500));
        assertThat(KubernetesShootClients.leasePollInterval(100)).isEqualTo(Duration.ofMillis(500));
        assertThat(KubernetesShootClients.leasePollInterval(400)).isEqualTo(Duration.ofSeconds(2));
        assertThat(KubernetesShootClients.leasePollInterval(KubernetesShootClients.MAX_LEASE_POLLS))
                .isEqualTo(Duration.ofSeconds(5));
    }

    private List<String> leaseRequests() {
        return requests.stream().filter(r -> r.contains("/kube-node-lease/leases")).toList();
    }

    private static Optional<Instant> lease(NodeLeaseWatch watch, String name) {
        return watch.leases().stream().filter(lease -> lease.name().equals(name)).findFirst()
                .flatMap(NodeLease::renewTime);
    }
}
