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
 * The watch of a scaled-down shoot's node leases, through the shoot clients the prober uses: it starts from the list
 * a probe run read (no list of its own), sees renewals as they are written, stops at once when closed, and keeps
 * within the lease list's bounds whatever a hostile shoot streams.
 */
@WithLocalControlPlane
class ShootLeaseWatchIT {

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

    private NodeLeaseWatch watchFromARunsList() {
        try (ShootApi shoot = shootClients.open(namespace, SECRET, TIMEOUT)) {
            shoot.nodeLeases();
            return shoot.watchNodeLeases(changes::incrementAndGet);
        }
    }

    @Test
    void aRenewalReachesTheWatchStartedFromTheRunsListWithoutAListOfItsOwn() throws ApiException {
        createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        var coordination = new CoordinationV1Api(controlPlane.apiClient());
        String node = namespace + "-node";
        OffsetDateTime expired = OffsetDateTime.now(ZoneOffset.UTC).minusMinutes(5).truncatedTo(ChronoUnit.MICROS);
        coordination.createNamespacedLease("kube-node-lease", new V1Lease().metadata(new V1ObjectMeta().name(node))
                .spec(new V1LeaseSpec().holderIdentity(node).renewTime(expired))).execute();

        NodeLeaseWatch watch = watchFromARunsList();
        assertThat(lease(watch, node)).contains(expired.toInstant());
        await("the watch request").atMost(Duration.ofSeconds(10))
                .until(() -> requests.stream().anyMatch(r -> r.contains("watch=true")));
        Instant renewed = Instant.now().truncatedTo(ChronoUnit.MICROS);
        PatchUtils.patch(V1Lease.class, () -> coordination.patchNamespacedLease(node, "kube-node-lease",
                        new V1Patch("{\"spec\":{\"renewTime\":\"" + MICRO_TIME.format(renewed) + "\"}}")).buildCall(null),
                V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, controlPlane.apiClient());

        await("the renewal, seen by the watch").atMost(Duration.ofSeconds(10))
                .until(() -> lease(watch, node).equals(Optional.of(renewed)));
        assertThat(changes.get()).isPositive();
        List<String> leaseRequests = requests.stream().filter(r -> r.contains("/kube-node-lease/leases")).toList();
        // The run's list (one page per 500 leases of the shared server), then one watch from its resourceVersion.
        assertThat(leaseRequests.getLast()).contains("watch=true", "resourceVersion=", "allowWatchBookmarks=true");
        assertThat(leaseRequests.subList(0, leaseRequests.size() - 1)).as("before the watch: the run's list pages only")
                .isNotEmpty().allSatisfy(request -> assertThat(request).contains("limit=500").doesNotContain("watch="));
        watch.close();
    }

    @Test
    void aClosedWatchStopsAtOnce() throws ApiException {
        createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        NodeLeaseWatch watch = watchFromARunsList();
        await().atMost(Duration.ofSeconds(10)).until(() -> shootClients.leaseWatchesOpen() == 1
                && requests.stream().anyMatch(r -> r.contains("watch=true")));

        watch.close();
        await("the watch's thread ended").atMost(Duration.ofSeconds(5)).until(() -> shootClients.leaseWatchesOpen() == 0);
    }

    @Test
    void watchEventsBeyondTheLeaseListsBoundsAreRefusedAndRetriedWithBackOff() throws Exception {
        try (var stub = new ShootApiStub()) {
            createKubeconfigSecret(stub.kubeconfig());
            var watches = new AtomicInteger();
            leasesWatchedAs(stub, out -> { // 10,001 leases: one more than a probe reads
                watches.incrementAndGet();
                for (int i = 0; i <= BoundedList.MAX_ITEMS; i++) {
                    out.write(ShootApiStub.leaseEvent("ADDED", "flood-" + i, Instant.now(), "1" + i));
                }
            });

            NodeLeaseWatch watch = watchFromARunsList();
            await("a watch refused").atMost(Duration.ofSeconds(20)).until(() -> watches.get() >= 2);
            int before = stub.requests().size();
            await("lists and watches in 4 s of back-off (1 s, 2 s, 4 s …)").during(Duration.ofSeconds(4))
                    .atMost(Duration.ofSeconds(6)).until(() -> stub.requests().size() - before <= 6
                            && watch.leases().size() <= BoundedList.MAX_ITEMS);
            watch.close();
        }
    }

    @Test
    void goneAgainAndAgainBacksOffRatherThanLoops() throws Exception {
        try (var stub = new ShootApiStub()) {
            createKubeconfigSecret(stub.kubeconfig());
            leasesWatchedAs(stub, out -> out.write("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410}}\n"));

            NodeLeaseWatch watch = watchFromARunsList();
            // The run's list; the watch; at once a list and a watch; then 1 s, 2 s, 4 s apart: about 8 in 5 s.
            await("no more than back-off allows").during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(7))
                    .until(() -> leaseRequests(stub) <= 10);
            assertThat(leaseRequests(stub)).as("it went on trying").isGreaterThanOrEqualTo(4);
            watch.close();
        }
    }

    @Test
    void anEventLongerThanAnyObjectIsRefusedAsItStreams() throws Exception {
        try (var stub = new ShootApiStub()) {
            createKubeconfigSecret(stub.kubeconfig());
            leasesWatchedAs(stub, out -> { // an event that never ends: one short field after another
                out.write("{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"annotations\":{");
                String field = "\"a%d\":\"" + "z".repeat(1000) + "\",";
                for (long i = 0; i < 1_000_000; i++) {
                    out.write(field.formatted(i));
                }
            });

            NodeLeaseWatch watch = watchFromARunsList();
            await("a watch refused").atMost(Duration.ofSeconds(30))
                    .until(() -> stub.requests().stream().filter(r -> r.contains("watch=true")).count() >= 2);
            watch.close();
            long perWatch = stub.bytesSent() / stub.requests().stream().filter(r -> r.contains("watch=true")).count();
            assertThat(perWatch).as("bytes read of each endless event before it is refused")
                    .isLessThan(40L * 1024 * 1024);
        }
    }

    /** The stub answers the lease list with one lease at resourceVersion 100, and every watch of them with {@code watch}. */
    private static void leasesWatchedAs(ShootApiStub stub, ShootApiStub.Writer watch) {
        stub.answering(path -> path.equals(LEASES) ? exchange -> {
            if (!String.valueOf(exchange.getRequestURI().getQuery()).contains("watch=true")) {
                ShootApiStub.leases(Map.of("n1", Instant.now()), "100").answer(exchange);
                return;
            }
            stub.streamed(watch).answer(exchange);
        } : ShootApiStub.version());
    }

    private static long leaseRequests(ShootApiStub stub) {
        return stub.requests().stream().filter(r -> r.contains("/leases")).count();
    }

    private static Optional<Instant> lease(NodeLeaseWatch watch, String name) {
        return watch.leases().stream().filter(lease -> lease.name().equals(name)).findFirst()
                .flatMap(NodeLease::renewTime);
    }
}
