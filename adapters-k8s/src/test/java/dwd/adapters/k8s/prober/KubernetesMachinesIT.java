package dwd.adapters.k8s.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.adapters.k8s.testing.TestWatchReports;
import dwd.application.port.out.ApiFailure;
import dwd.domain.lease.Machine;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

@WithLocalControlPlane
class KubernetesMachinesIT {

    private static final String GROUP = "machine.sapcloud.io";
    private static final String VERSION = "v1alpha1";
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static void createMachine(ApiClient admin, String namespace, String name, String node, String phase)
            throws ApiException {
        var custom = new CustomObjectsApi(admin);
        Map<String, Object> metadata = new HashMap<>(Map.of("name", name, "namespace", namespace));
        if (node != null) {
            metadata.put("labels", Map.of("node", node, "other", "label"));
        }
        custom.createNamespacedCustomObject(GROUP, VERSION, namespace, "machines", Map.of(
                "apiVersion", GROUP + "/" + VERSION,
                "kind", "Machine",
                "metadata", metadata,
                "spec", Map.of("class", Map.of("kind", "MachineClass", "name", "default"), "providerID", "p-" + name)))
                .execute();
        if (phase != null) {
            PatchUtils.patch(Object.class,
                    () -> custom.patchNamespacedCustomObjectStatus(GROUP, VERSION, namespace, "machines", name,
                            new V1Patch("{\"status\":{\"currentStatus\":{\"phase\":\"" + phase + "\"},"
                                    + "\"lastOperation\":{\"state\":\"Successful\"}}}"))
                            .buildCall(null),
                    V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, admin);
        }
    }

    @Test
    void machinesOfANamespaceAreReadFromTheCacheInNameOrder(LocalControlPlane controlPlane) throws ApiException {
        ApiClient admin = controlPlane.apiClient();
        String namespace = controlPlane.createNamespace("shoot--machines");
        String other = controlPlane.createNamespace("shoot--other");
        createMachine(admin, namespace, "machine-c", "node-c", "Running");
        createMachine(admin, namespace, "machine-a", "node-a", "Terminating");
        createMachine(admin, other, "machine-x", "node-x", "Running");
        try (var machines = new KubernetesMachines(() -> controlPlane.newApiClient(Duration.ofSeconds(30)),
                TestWatchReports.create())) {
            machines.start();
            await().atMost(DEADLINE).until(machines::hasSynced);
            createMachine(admin, namespace, "machine-b", null, null); // not joined yet: no node, no phase

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(machines.inNamespace(namespace)).containsExactly(
                    new Machine("machine-a", Optional.of("node-a"), "Terminating"),
                    new Machine("machine-b", Optional.empty(), ""),
                    new Machine("machine-c", Optional.of("node-c"), "Running")));
            assertThat(machines.inNamespace(other)).containsExactly(new Machine("machine-x", Optional.of("node-x"), "Running"));
            assertThat(machines.inNamespace("no-such-namespace")).isEmpty();
        }
    }

    @Test
    void changesAndDeletionsReachTheCache(LocalControlPlane controlPlane) throws ApiException {
        ApiClient admin = controlPlane.apiClient();
        var custom = new CustomObjectsApi(admin);
        String namespace = controlPlane.createNamespace("shoot--machine-changes");
        createMachine(admin, namespace, "machine-0", "node-0", "Pending");
        createMachine(admin, namespace, "machine-1", "node-1", "Running");
        try (var machines = new KubernetesMachines(() -> controlPlane.newApiClient(Duration.ofSeconds(30)),
                TestWatchReports.create())) {
            machines.start();
            await().atMost(DEADLINE).until(machines::hasSynced);
            assertThat(machines.inNamespace(namespace)).hasSize(2);

            PatchUtils.patch(Object.class,
                    () -> custom.patchNamespacedCustomObjectStatus(GROUP, VERSION, namespace, "machines", "machine-0",
                            new V1Patch("{\"status\":{\"currentStatus\":{\"phase\":\"Failed\"}}}")).buildCall(null),
                    V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, admin);
            custom.deleteNamespacedCustomObject(GROUP, VERSION, namespace, "machines", "machine-1").execute();

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(machines.inNamespace(namespace))
                    .containsExactly(new Machine("machine-0", Optional.of("node-0"), "Failed")));
        }
    }

    @Test
    void untilTheCacheIsTrustedMachinesAreReadFromTheServerAndAFailedReadIsNoEmptyList(LocalControlPlane controlPlane)
            throws Exception {
        ApiClient admin = controlPlane.apiClient();
        String namespace = controlPlane.createNamespace("shoot--machines-read");
        createMachine(admin, namespace, "machine-0", "node-0", "Running");
        try (var machines = new KubernetesMachines(() -> controlPlane.newApiClient(Duration.ofSeconds(30)),
                TestWatchReports.create())) {
            assertThat(machines.hasSynced()).as("not started").isFalse();
            assertThat(machines.inNamespace(namespace)).containsExactly(new Machine("machine-0", Optional.of("node-0"), "Running"));
        }
        int closedPort;
        try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        var unreachable = new ApiClient();
        unreachable.setBasePath("http://127.0.0.1:" + closedPort);
        try (var machines = new KubernetesMachines(() -> unreachable, TestWatchReports.create())) {
            assertThatThrownBy(() -> machines.inNamespace("shoot--x"))
                    .isInstanceOfSatisfying(ApiFailure.class, failure -> {
                        assertThat(failure.kind()).isEqualTo(ApiFailure.Kind.UNAVAILABLE);
                        assertThat(failure.getMessage()).startsWith("listing Machines in namespace shoot--x (the Machine"
                                + " cache is not trusted now): cannot connect");
                    });
        }
    }

    @Test
    void whileTheCacheIsNotTrustedACopyCurrentWithinTheLimitIsTakenWithoutReadingTheSeed(LocalControlPlane controlPlane)
            throws Exception {
        ApiClient admin = controlPlane.apiClient();
        String namespace = controlPlane.createNamespace("shoot--machines-copy");
        String other = controlPlane.createNamespace("shoot--machines-elsewhere");
        createMachine(admin, namespace, "machine-0", "node-0", "Running");
        var seed = new FailingWatches("/namespaces/" + namespace + "/machines");
        try (var machines = new KubernetesMachines(() -> seed.on(controlPlane.newApiClient(Duration.ofSeconds(30))),
                TestWatchReports.create())) {
            machines.start();
            await().atMost(DEADLINE).until(machines::hasSynced);

            seed.failing.set(true);
            createMachine(admin, other, "machine-x", "node-x", "Running"); // an event: the watch fails on reading it
            await("the cache not trusted").atMost(DEADLINE).until(() -> !machines.hasSynced());

            assertThat(machines.inNamespace(namespace)).containsExactly(new Machine("machine-0", Optional.of("node-0"), "Running"));
            assertThat(seed.reads).as("the cache's copy, seconds old, answered").hasValue(0);
        }
    }

    @Test
    void aCacheWithNoCopyReadsEachNamespaceFromTheSeedOnceWithinTheLimit(LocalControlPlane controlPlane) throws Exception {
        ApiClient admin = controlPlane.apiClient();
        String namespace = controlPlane.createNamespace("shoot--machines-once");
        createMachine(admin, namespace, "machine-0", "node-0", "Running");
        var seed = new FailingWatches("/namespaces/" + namespace + "/machines");
        seed.failing.set(true);
        try (var machines = new KubernetesMachines(() -> seed.on(controlPlane.newApiClient(Duration.ofSeconds(30))),
                TestWatchReports.create())) {
            machines.start();
            for (int probe = 0; probe < 3; probe++) {
                assertThat(machines.inNamespace(namespace)).containsExactly(
                        new Machine("machine-0", Optional.of("node-0"), "Running"));
            }
            assertThat(machines.hasSynced()).isFalse();
            assertThat(seed.reads).as("one read for three probes").hasValue(1);
        }
    }
}
