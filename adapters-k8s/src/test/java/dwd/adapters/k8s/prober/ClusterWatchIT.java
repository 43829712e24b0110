package dwd.adapters.k8s.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.in.ClusterEvents;
import dwd.domain.cluster.ClusterShoot;
import dwd.domain.cluster.LastOperation;
import dwd.domain.cluster.Shoot;
import dwd.domain.cluster.Worker;
import dwd.adapters.k8s.testing.TestWatchReports;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@WithLocalControlPlane
class ClusterWatchIT {

    private static final String GROUP = "extensions.gardener.cloud";
    private static final String VERSION = "v1alpha1";
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final Duration EVENT_DEADLINE = Duration.ofSeconds(30);

    private CustomObjectsApi custom;
    private ApiClient admin;
    private Supplier<ApiClient> seedClients;

    @BeforeEach
    void connect(LocalControlPlane controlPlane) {
        admin = controlPlane.apiClient();
        custom = new CustomObjectsApi(admin);
        seedClients = () -> controlPlane.newApiClient(Duration.ofSeconds(30));
    }

    private static String uniqueName() {
        return "shoot--watch--" + NAMES.incrementAndGet() + "-" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
    }

    private void createCluster(String name, Object spec) throws ApiException {
        custom.createClusterCustomObject(GROUP, VERSION, "clusters", Map.of(
                "apiVersion", GROUP + "/" + VERSION,
                "kind", "Cluster",
                "metadata", Map.of("name", name),
                "spec", spec)).execute();
    }

    private static Map<String, Object> shootWithEveryFieldRead() {
        return Map.of(
                "apiVersion", "core.gardener.cloud/v1beta1",
                "kind", "Shoot",
                "metadata", Map.of("name", "every-field", "namespace", "garden-dev",
                        "deletionTimestamp", "2026-01-02T03:04:05Z"),
                "spec", Map.of(
                        "region", "eu-west-1",
                        "hibernation", Map.of("enabled", false),
                        "provider", Map.of("type", "aws", "workers", List.of(
                                Map.of("name", "pool-a", "machineControllerManager",
                                        Map.of("nodeConditions", List.of("DiskPressure", "Custom"))),
                                Map.of("name", "pool-b", "minimum", 1))),
                        "kubernetes", Map.of("version", "1.36.0",
                                "kubeControllerManager", Map.of("nodeMonitorGracePeriod", "2m0s"))),
                "status", Map.of(
                        "hibernated", true,
                        "lastOperation", Map.of("type", "Reconcile", "state", "Succeeded", "progress", 100)));
    }

    private static final Shoot EVERY_FIELD_READ = new Shoot(true, Optional.of(false), true,
            Optional.of(new LastOperation("Reconcile", "Succeeded")),
            List.of(new Worker("pool-a", true, List.of("DiskPressure", "Custom")), new Worker("pool-b", false, List.of())),
            Optional.of(Duration.ofMinutes(2)));

    private static ClusterShoot latest(RecordedClusterEvents events, String name) {
        List<RecordedClusterEvents.Event> of = events.of(name);
        return of.isEmpty() ? null : of.getLast().shoot();
    }

    @Test
    void aClusterCreatedBeforeTheWatchStartsIsReplayed() throws ApiException {
        String name = uniqueName();
        createCluster(name, Map.of("shoot", shootWithEveryFieldRead()));
        var events = new RecordedClusterEvents();
        try (var watch = new ClusterWatch(seedClients, events, TestWatchReports.create())) {
            assertThat(watch.hasSynced()).isFalse();
            watch.start();
            await().atMost(EVENT_DEADLINE).until(watch::hasSynced);
            await().atMost(EVENT_DEADLINE).untilAsserted(() ->
                    assertThat(latest(events, name)).isEqualTo(new ClusterShoot.Present(EVERY_FIELD_READ)));
        }
    }

    @Test
    void aShootIsDecodedFromExactlyTheFieldsTheOriginalReads() throws ApiException {
        var events = new RecordedClusterEvents();
        try (var watch = new ClusterWatch(seedClients, events, TestWatchReports.create())) {
            watch.start();
            await().atMost(EVENT_DEADLINE).until(watch::hasSynced);
            String name = uniqueName();
            createCluster(name, Map.of("shoot", shootWithEveryFieldRead(),
                    "seed", Map.of("kind", "Seed", "spec", Map.of("provider", Map.of("region", "x"))),
                    "cloudProfile", Map.of("kind", "CloudProfile")));
            await().atMost(EVENT_DEADLINE).untilAsserted(() ->
                    assertThat(latest(events, name)).isEqualTo(new ClusterShoot.Present(EVERY_FIELD_READ)));
        }
    }

    @Test
    void aClusterWithoutShootHasAMissingShoot() throws ApiException {
        var events = new RecordedClusterEvents();
        try (var watch = new ClusterWatch(seedClients, events, TestWatchReports.create())) {
            watch.start();
            String name = uniqueName();
            createCluster(name, Map.of("seed", Map.of("kind", "Seed")));
            await().atMost(EVENT_DEADLINE).untilAsserted(() ->
                    assertThat(latest(events, name)).isEqualTo(new ClusterShoot.Missing()));
        }
    }

    @Test
    void aMistypedShootIsUndecodableAndSaysWhere() throws ApiException {
        var events = new RecordedClusterEvents();
        try (var watch = new ClusterWatch(seedClients, events, TestWatchReports.create())) {
            watch.start();
            String badApiVersion = uniqueName();
            String workersNotAList = uniqueName();
            createCluster(badApiVersion, Map.of("shoot", Map.of("apiVersion", 8)));
            createCluster(workersNotAList, Map.of("shoot",
                    Map.of("spec", Map.of("provider", Map.of("workers", Map.of("name", "pool-a"))))));
            await().atMost(EVENT_DEADLINE).untilAsserted(() -> {
                assertThat(latest(events, badApiVersion)).isEqualTo(new ClusterShoot.Undecodable(
                        "spec.shoot.apiVersion: expected a string, found the number 8"));
                assertThat(latest(events, workersNotAList)).isEqualTo(new ClusterShoot.Undecodable(
                        "spec.shoot.spec.provider.workers: expected a list, found an object"));
            });
        }
    }

    @Test
    void updatesAndDeletesAreDelivered() throws ApiException {
        var events = new RecordedClusterEvents();
        try (var watch = new ClusterWatch(seedClients, events, TestWatchReports.create())) {
            watch.start();
            String name = uniqueName();
            createCluster(name, Map.of("shoot", Map.of("status",
                    Map.of("lastOperation", Map.of("type", "Create", "state", "Processing")))));
            await().atMost(EVENT_DEADLINE).until(() -> latest(events, name) != null);

            PatchUtils.patch(Object.class,
                    () -> custom.patchClusterCustomObject(GROUP, VERSION, "clusters", name, new V1Patch(
                            "{\"spec\":{\"shoot\":{\"spec\":{\"hibernation\":{\"enabled\":true}},"
                                    + "\"status\":{\"lastOperation\":{\"state\":\"Succeeded\"}}}}}"))
                            .buildCall(null),
                    V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, admin);
            await().atMost(EVENT_DEADLINE).untilAsserted(() -> assertThat(latest(events, name)).isEqualTo(
                    new ClusterShoot.Present(new Shoot(false, Optional.of(true), false,
                            Optional.of(new LastOperation("Create", "Succeeded")), List.of(), Optional.empty()))));

            custom.deleteClusterCustomObject(GROUP, VERSION, "clusters", name).execute();
            await().atMost(EVENT_DEADLINE).untilAsserted(() ->
                    assertThat(events.of(name).getLast().isDelete()).isTrue());
            assertThat(events.of(name).getFirst().isDelete()).isFalse();
        }
    }

    @Test
    void aReceiverThatFailsDoesNotStopTheWatch() throws ApiException {
        var recorded = new RecordedClusterEvents();
        AtomicBoolean failedOnce = new AtomicBoolean();
        String first = uniqueName();
        ClusterEvents failingOnFirst = new ClusterEvents() {
            @Override
            public void clusterChanged(String shootNamespace, ClusterShoot shoot) {
                if (shootNamespace.equals(first) && failedOnce.compareAndSet(false, true)) {
                    throw new IllegalStateException("receiver bug");
                }
                recorded.clusterChanged(shootNamespace, shoot);
            }

            @Override
            public void clusterDeleted(String shootNamespace) {
                recorded.clusterDeleted(shootNamespace);
            }
        };
        try (var watch = new ClusterWatch(seedClients, failingOnFirst, TestWatchReports.create())) {
            watch.start();
            createCluster(first, Map.of());
            await().atMost(EVENT_DEADLINE).untilTrue(failedOnce);
            String second = uniqueName();
            createCluster(second, Map.of());
            await().atMost(EVENT_DEADLINE).untilAsserted(() ->
                    assertThat(latest(recorded, second)).isEqualTo(new ClusterShoot.Missing()));
        }
    }
}
