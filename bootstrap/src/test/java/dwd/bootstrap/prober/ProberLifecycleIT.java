package dwd.bootstrap.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.prober.ProberEvents.Started;
import dwd.bootstrap.prober.ProberEvents.Stopped;
import dwd.bootstrap.prober.ProberEvents.Succeeded;
import dwd.domain.lease.Decision;
import dwd.domain.lease.Exclusion;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Must-show 2: probes appear and disappear as the shoot in a Cluster object goes through its
 * lifecycle on a real API server, and per-shoot settings change a running probe in place.
 */
@WithLocalControlPlane
class ProberLifecycleIT {

    private static final String SECRET = "dwd-lifecycle-it-probe";
    private static final Duration AT_MOST = Duration.ofSeconds(30);
    /** Dependents are optional and absent: a verdict scales nothing, the test is about probes. */
    private static final String CONFIG = """
            kubeConfigSecretName: %s
            probeInterval: 1s
            initialDelay: 0s
            probeTimeout: 2s
            backoffJitterFactor: 0
            dependentResourceInfos:
              - ref: {kind: Deployment, name: kube-controller-manager, apiVersion: apps/v1}
                optional: true
                scaleUp: {level: 0}
                scaleDown: {level: 0}
            """.formatted(SECRET);

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void probesAppearAndDisappearWithTheShootsLifecycle(LocalControlPlane controlPlane) throws Exception {
        var shoot = new SeedFixture(controlPlane.apiClient(), controlPlane.createNamespace("shoot--dev--lifecycle"));
        cleanup.add(shoot);
        shoot.createSecret(SECRET, Map.of("kubeconfig", controlPlane.selfContainedKubeconfig()));
        // The sentinel is a second shoot whose probe the test switches on and off after each change of
        // the first: Cluster events are handled in order, so once the sentinel's change shows, the
        // prober has handled the change before it too, and an absent probe is really absent.
        var sentinel = new SeedFixture(controlPlane.apiClient(), controlPlane.createNamespace("shoot--dev--sentinel"));
        cleanup.add(sentinel);
        sentinel.createCluster(ShootDocument.reconciled().toMap());
        InJvmProber prober = InJvmProber.start(CONFIG, controlPlane.kubeconfig());
        cleanup.add(prober);
        await().atMost(AT_MOST).until(() -> prober.probedNamespaces().contains(sentinel.namespace()));
        var lifecycle = new Lifecycle(prober, shoot, sentinel);
        String ns = shoot.namespace();

        shoot.createCluster(ShootDocument.reconciled().lastOperation("Create", "Processing").toMap());
        lifecycle.settled(false, "a shoot being created is not probed");
        lifecycle.expect(ShootDocument.reconciled().noLastOperation(), false, "no last operation yet: creation phase");
        lifecycle.expect(ShootDocument.reconciled().lastOperation("Create", "Succeeded"), true, "created");
        await("the new probe probes").atMost(AT_MOST).until(() -> !prober.events().of(Succeeded.class, ns).isEmpty());
        lifecycle.expect(ShootDocument.reconciled().lastOperation("Reconcile", "Processing"), true, "reconciling");
        lifecycle.expect(ShootDocument.reconciled().lastOperation("Reconcile", "Error"), true, "reconcile failed");
        lifecycle.expect(ShootDocument.reconciled().hibernationEnabled(true), false, "hibernation enabled");
        lifecycle.expect(ShootDocument.reconciled().hibernationEnabled(true).hibernated(true), false, "hibernated");
        lifecycle.expect(ShootDocument.reconciled().hibernated(true), false, "waking up");
        lifecycle.expect(ShootDocument.reconciled(), true, "woken up");
        lifecycle.expect(ShootDocument.reconciled().lastOperation("Migrate", "Processing"), false, "migrating");
        lifecycle.expect(ShootDocument.reconciled().lastOperation("Restore", "Processing"), false, "restoring");
        lifecycle.expect(ShootDocument.reconciled().lastOperation("Restore", "Succeeded"), true, "restored");
        lifecycle.expect(ShootDocument.reconciled().markedForDeletion(true), false, "deletion timestamp");
        lifecycle.expect(ShootDocument.reconciled().markedForDeletion(true).lastOperation("Delete", "Processing"), false,
                "being deleted");
        lifecycle.expect(ShootDocument.reconciled(), true, "reconciled again");
        lifecycle.expect(ShootDocument.reconciled().workers(), false, "worker-less");
        lifecycle.expect(ShootDocument.reconciled(), true, "workers again");
        shoot.deleteCluster();
        lifecycle.settled(false, "Cluster deleted");

        assertThat(prober.events().of(Started.class, ns)).as("probes started: created, woken up, restored,"
                + " reconciled again, workers again").hasSize(5);
        assertThat(prober.events().of(Stopped.class, ns)).extracting(Stopped::reason)
                .as("probes stopped, each with its reason").satisfiesExactly(
                        reason -> assertThat(reason).containsIgnoringCase("hibernation"),
                        reason -> assertThat(reason).containsIgnoringCase("migration"),
                        reason -> assertThat(reason).containsIgnoringCase("deletion"),
                        reason -> assertThat(reason).containsIgnoringCase("workers"),
                        reason -> assertThat(reason).isEqualTo("Cluster deleted"));
        Stopped deleted = prober.events().of(Stopped.class, ns).getLast();
        await("nothing reported after the Cluster is gone").during(Duration.ofMillis(2_500))
                .atMost(Duration.ofSeconds(4))
                .untilAsserted(() -> assertThat(prober.events().of(ns)).endsWith(deleted));
    }

    @Test
    void nodeConditionAndGracePeriodChangesTakeEffectOnTheNextProbeWithoutRestartingIt(LocalControlPlane controlPlane)
            throws Exception {
        var shoot = new SeedFixture(controlPlane.apiClient(), controlPlane.createNamespace("shoot--dev--settings"));
        cleanup.add(shoot);
        shoot.createSecret(SECRET, Map.of("kubeconfig", controlPlane.selfContainedKubeconfig()));
        String ns = shoot.namespace();
        // Leases last renewed 20 s ago and never again: fresh under a 1 h grace period, expired under 10 s.
        var renewed = SeedFixture.now().minusSeconds(20);
        List<String> nodes = List.of(ns + "-node-0", ns + "-node-1", ns + "-node-2");
        for (String node : nodes) {
            shoot.createNodeRenewedAt(node, renewed);
        }
        String memoryPressure = nodes.get(2);
        shoot.patchNodeConditions(memoryPressure, List.of(SeedFixture.condition("MemoryPressure", "True", null)));
        shoot.createCluster(ShootDocument.reconciled().gracePeriod("1h").toMap());
        InJvmProber prober = InJvmProber.start(CONFIG, controlPlane.kubeconfig());
        cleanup.add(prober);

        await("a probe with the default node conditions").atMost(AT_MOST).until(() -> prober.events()
                .of(Succeeded.class, ns).stream().anyMatch(probe -> probe.verdict().candidates() == 3));

        Instant conditionsChanged = Instant.now();
        shoot.replaceShoot(ShootDocument.reconciled().gracePeriod("1h")
                .workers(ShootDocument.pool("pool-a", "MemoryPressure")).toMap());
        Predicate<Succeeded> memoryPressureExcludes = probe -> probe.verdict().candidates() == 2
                && Set.of(Exclusion.UNHEALTHY_CONDITION).equals(probe.verdict().excludedNodes().get(memoryPressure));
        assertTakesEffectOnTheNextProbe(prober, ns, conditionsChanged, memoryPressureExcludes);

        Instant gracePeriodChanged = Instant.now();
        shoot.replaceShoot(ShootDocument.reconciled().gracePeriod("10s")
                .workers(ShootDocument.pool("pool-a", "MemoryPressure")).toMap());
        assertTakesEffectOnTheNextProbe(prober, ns, gracePeriodChanged, memoryPressureExcludes.and(probe ->
                probe.verdict().expired() == 2 && probe.verdict().decision() == Decision.SCALE_DOWN));

        assertThat(prober.events().of(Stopped.class, ns)).as("the probe was never stopped").isEmpty();
        assertThat(prober.events().of(Started.class, ns)).as("nor started again").hasSize(1);
    }

    /**
     * The first probe to start after the Cluster change reached the prober shows the new settings: at most one
     * probe completes after {@code changed} with the old ones (the one under way, or scheduled, as the change
     * arrived), and every later one has the new ones.
     */
    private static void assertTakesEffectOnTheNextProbe(InJvmProber prober, String ns, Instant changed,
            Predicate<Succeeded> newSettings) {
        await("a probe with the new settings").atMost(AT_MOST)
                .until(() -> prober.events().since(changed, Succeeded.class, ns).stream().anyMatch(newSettings));
        await("two more probes").atMost(AT_MOST).until(() -> prober.events().since(changed, Succeeded.class, ns)
                .stream().dropWhile(newSettings.negate()).count() >= 3);
        List<Succeeded> after = prober.events().since(changed, Succeeded.class, ns);
        List<Succeeded> old = after.stream().takeWhile(newSettings.negate()).toList();
        assertThat(old).as("probes with the old settings after the change").hasSizeLessThanOrEqualTo(1);
        assertThat(after.subList(old.size(), after.size())).as("every probe from then on").allMatch(newSettings);
    }

    /** Drives one shoot through its lifecycle and checks, after each step, whether it is probed. */
    private static final class Lifecycle {
        private final InJvmProber prober;
        private final SeedFixture shoot;
        private final SeedFixture sentinel;
        private boolean sentinelProbed = true;

        Lifecycle(InJvmProber prober, SeedFixture shoot, SeedFixture sentinel) {
            this.prober = prober;
            this.shoot = shoot;
            this.sentinel = sentinel;
        }

        void expect(ShootDocument next, boolean probed, String step) throws Exception {
            int startedBefore = prober.events().of(Started.class, shoot.namespace()).size();
            boolean probedBefore = prober.probedNamespaces().contains(shoot.namespace());
            shoot.replaceShoot(next.toMap());
            settled(probed, step);
            if (probedBefore && probed) {
                assertThat(prober.events().of(Started.class, shoot.namespace())).as("%s: the running probe is kept", step)
                        .hasSize(startedBefore);
            }
        }

        /** Waits until the prober has handled every change so far, then checks whether the shoot is probed. */
        void settled(boolean probed, String step) throws Exception {
            sentinelProbed = !sentinelProbed;
            sentinel.replaceShoot(ShootDocument.reconciled().hibernationEnabled(!sentinelProbed).toMap());
            await("the prober handled the change before the sentinel's").atMost(AT_MOST)
                    .until(() -> prober.probedNamespaces().contains(sentinel.namespace()) == sentinelProbed);
            assertThat(prober.probedNamespaces().contains(shoot.namespace())).as("%s: probed", step).isEqualTo(probed);
        }
    }
}
