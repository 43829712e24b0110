package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.SeedFixture.condition;
import static dwd.domain.lease.Exclusion.IN_PLACE_UPDATE;
import static dwd.domain.lease.Exclusion.NOT_MANAGED_BY_MCM;
import static dwd.domain.lease.Exclusion.NO_LIVE_MACHINE;
import static dwd.domain.lease.Exclusion.UNHEALTHY_CONDITION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.prober.ProberEvents.FlowStarted;
import dwd.bootstrap.prober.ProberEvents.Succeeded;
import dwd.domain.lease.Decision;
import dwd.domain.lease.Exclusion;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Must-show 3: which nodes' leases count, decided on a real API server from real Nodes, Machines
 * and Leases. Every excluded node has an expired lease and the candidates' leases are fresh: were
 * the excluded ones counted, the shoot would be scaled down.
 */
@WithLocalControlPlane
class ProberCandidacyIT {

    private static final String SECRET = "dwd-candidacy-it-probe";
    private static final String CONFIG = """
            kubeConfigSecretName: %s
            probeInterval: 1s
            initialDelay: 0s
            probeTimeout: 2s
            backoffJitterFactor: 0
            dependentResourceInfos:
              - ref: {kind: Deployment, name: kube-controller-manager, apiVersion: apps/v1}
                scaleUp: {level: 0}
                scaleDown: {level: 1}
              - ref: {kind: Deployment, name: machine-controller-manager, apiVersion: apps/v1}
                scaleUp: {level: 1}
                scaleDown: {level: 0}
            """.formatted(SECRET);
    private static final String POOL = "worker.gardener.cloud/pool";
    private static final String NOT_MANAGED = "node.machine.sapcloud.io/not-managed-by-mcm";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private SeedFixture shoot;
    private String prefix;

    @Test
    void onlyCandidateNodesLeasesCount(LocalControlPlane controlPlane) throws Exception {
        shoot = new SeedFixture(controlPlane.apiClient(), controlPlane.createNamespace("shoot--dev--candidacy"));
        cleanup.add(shoot);
        prefix = shoot.namespace() + "-";
        shoot.createSecret(SECRET, Map.of("kubeconfig", controlPlane.selfContainedKubeconfig()));
        shoot.createDeployment("kube-controller-manager", 2);
        shoot.createDeployment("machine-controller-manager", 1);
        OffsetDateTime fresh = SeedFixture.now();
        OffsetDateTime expired = fresh.minusHours(2); // the grace period is 1 h

        // Candidates: 4 fresh leases, 1 expired.
        node("ready-1", "pool-a", Map.of(), List.of(), fresh, "Running");
        node("ready-2", "pool-a", Map.of(), List.of(), fresh, "Running");
        node("one-failed-one-running-machine", "pool-a", Map.of(), List.of(), fresh, "Failed", "Running");
        node("pool-b-kernel-deadlock", "pool-b", Map.of(), List.of(condition("KernelDeadlock", "True", null)),
                fresh, "Running"); // pool-b's own list replaces the defaults
        node("selected-for-update", "pool-a", Map.of(),
                List.of(condition("InPlaceUpdate", "True", "SelectedForUpdate")), expired, "Running");
        node("no-lease", "pool-a", Map.of(), List.of(), null, "Running");
        // Excluded, all with expired leases.
        node("no-machine", "pool-a", Map.of(), List.of(), expired);
        node("machine-failed", "pool-a", Map.of(), List.of(), expired, "Failed");
        node("machine-terminating", "pool-a", Map.of(), List.of(), expired, "Terminating");
        node("not-managed", "pool-a", Map.of(NOT_MANAGED, "false"), List.of(), expired, "Running");
        node("disk-pressure", "pool-a", Map.of(),
                List.of(condition("DiskPressure", "True", null), condition("KernelDeadlock", "False", null)),
                expired, "Running");
        node("pool-b-memory-pressure", "pool-b", Map.of(), List.of(condition("MemoryPressure", "True", null)),
                expired, "Running");
        node("unknown-pool-network-unavailable", "pool-z", Map.of(),
                List.of(condition("NetworkUnavailable", "True", null)), expired, "Running");
        node("ready-for-update", "pool-a", Map.of(), List.of(condition("InPlaceUpdate", "True", "ReadyForUpdate")),
                expired, "Running");
        node("update-failed", "pool-a", Map.of(), List.of(condition("InPlaceUpdate", "False", "UpdateFailed")),
                expired, "Running");
        node("every-rule", "pool-a", Map.of(NOT_MANAGED, ""),
                List.of(condition("ReadonlyFilesystem", "True", null),
                        condition("InPlaceUpdate", "True", "ReadyForUpdate")),
                expired, "Terminating");
        shoot.createLease(prefix + "orphan", expired);
        shoot.createCluster(ShootDocument.reconciled().gracePeriod("1h")
                .workers(ShootDocument.pool("pool-a"), ShootDocument.pool("pool-b", "MemoryPressure")).toMap());
        InJvmProber prober = InJvmProber.start(CONFIG, controlPlane.kubeconfig());
        cleanup.add(prober);
        String ns = shoot.namespace();

        await("three probes").atMost(Duration.ofSeconds(30)).until(() -> prober.events().of(Succeeded.class, ns).size() >= 3);

        for (Succeeded probe : prober.events().of(Succeeded.class, ns)) {
            LeaseVerdict verdict = probe.verdict();
            assertThat(verdict.candidates()).as("candidate leases").isEqualTo(5);
            assertThat(verdict.expired()).as("expired candidate leases").isEqualTo(1);
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_UP);
            assertThat(ours(verdict.excludedNodes())).as("excluded nodes and why").isEqualTo(new TreeMap<>(Map.ofEntries(
                    Map.entry("no-machine", Set.of(NO_LIVE_MACHINE)),
                    Map.entry("machine-failed", Set.of(NO_LIVE_MACHINE)),
                    Map.entry("machine-terminating", Set.of(NO_LIVE_MACHINE)),
                    Map.entry("not-managed", Set.of(NOT_MANAGED_BY_MCM)),
                    Map.entry("disk-pressure", Set.of(UNHEALTHY_CONDITION)),
                    Map.entry("pool-b-memory-pressure", Set.of(UNHEALTHY_CONDITION)),
                    Map.entry("unknown-pool-network-unavailable", Set.of(UNHEALTHY_CONDITION)),
                    Map.entry("ready-for-update", Set.of(IN_PLACE_UPDATE)),
                    Map.entry("update-failed", Set.of(IN_PLACE_UPDATE)),
                    Map.entry("every-rule", Set.of(NOT_MANAGED_BY_MCM, UNHEALTHY_CONDITION, NO_LIVE_MACHINE,
                            IN_PLACE_UPDATE)))));
            assertThat(verdict.candidateNodesWithoutLease()).as("candidate nodes without lease")
                    .containsExactly(prefix + "no-lease");
            assertThat(verdict.leasesWithoutRenewTime()).as("leases without renew time").isZero();
            assertThat(verdict.orphanLeases()).as("orphan leases, ours among them").isGreaterThanOrEqualTo(11);
        }
        assertThat(prober.events().of(FlowStarted.class, ns)).extracting(FlowStarted::direction)
                .as("only scale-ups (a no-op at these replicas)").containsOnly(ScaleDirection.UP);
        assertThat(shoot.replicas("kube-controller-manager")).isEqualTo(2);
        assertThat(shoot.replicas("machine-controller-manager")).isEqualTo(1);
        assertThat(shoot.annotations("kube-controller-manager")).isEmpty();
    }

    /** A node of {@code pool} with a lease renewed at {@code renewed} (none if null) and a Machine per phase given. */
    private void node(String name, String pool, Map<String, String> annotations, List<V1NodeCondition> conditions,
            OffsetDateTime renewed, String... machinePhases) throws Exception {
        shoot.createNode(prefix + name, Map.of(POOL, pool), annotations, conditions);
        for (String phase : machinePhases) {
            shoot.createMachine(prefix + name, phase);
        }
        if (renewed != null) {
            shoot.createLease(prefix + name, renewed);
        }
    }

    /** This test's nodes, without the prefix; other tests' nodes on the shared server are left out. */
    private Map<String, Set<Exclusion>> ours(Map<String, Set<Exclusion>> excluded) {
        var ours = new TreeMap<String, Set<Exclusion>>();
        excluded.forEach((node, exclusions) -> {
            if (node.startsWith(prefix)) {
                ours.put(node.substring(prefix.length()), exclusions);
            }
        });
        return ours;
    }
}
