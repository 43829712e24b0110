package dwd.domain.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ProbeEligibilityTest {

    private static final List<Worker> ONE_WORKER = List.of(new Worker("pool-a", true, List.of()));

    /** A healthy, reconciled shoot with one worker; each test changes what it is about. */
    private static Shoot shoot(boolean deletion, Optional<Boolean> hibernationEnabled, boolean hibernated,
                               Optional<LastOperation> lastOperation, List<Worker> workers) {
        return new Shoot(deletion, hibernationEnabled, hibernated, lastOperation, workers, Optional.empty());
    }

    private static Shoot withLastOperation(String type, String state) {
        return shoot(false, Optional.empty(), false, Optional.of(new LastOperation(type, state)), ONE_WORKER);
    }

    private static Eligibility eligibility(Shoot shoot) {
        return ProbeEligibility.of(new ClusterShoot.Present(shoot));
    }

    @Nested
    class Stop {

        @Test
        void deletionStops() {
            var shoot = shoot(true, Optional.empty(), false, Optional.of(new LastOperation("Reconcile", "Succeeded")),
                    ONE_WORKER);
            assertThat(eligibility(shoot)).isEqualTo(new Eligibility(ProbeAction.STOP,
                    "Cluster has been marked for deletion, existing prober if any will be removed"));
        }

        @Test
        void hibernationEnabledStops() {
            var shoot = shoot(false, Optional.of(true), true, Optional.of(new LastOperation("Reconcile", "Succeeded")),
                    ONE_WORKER);
            assertThat(eligibility(shoot)).isEqualTo(new Eligibility(ProbeAction.STOP,
                    "Cluster hibernation is enabled, existing prober if any will be removed"));
        }

        @Test
        void hibernationBeingEnabledStopsBeforeTheShootIsHibernated() {
            var shoot = shoot(false, Optional.of(true), false, Optional.of(new LastOperation("Reconcile", "Processing")),
                    ONE_WORKER);
            assertThat(eligibility(shoot).action()).isEqualTo(ProbeAction.STOP);
        }

        @ParameterizedTest
        @ValueSource(strings = {"Processing", "Succeeded", "Error", "Failed", "Pending", "Aborted", ""})
        void migrateInAnyStateStops(String state) {
            assertThat(eligibility(withLastOperation("Migrate", state))).isEqualTo(new Eligibility(ProbeAction.STOP,
                    "Cluster migration is enabled, existing prober if any will be removed"));
        }

        @Test
        void workerlessShootStops() {
            var shoot = shoot(false, Optional.empty(), false, Optional.of(new LastOperation("Reconcile", "Succeeded")),
                    List.of());
            assertThat(eligibility(shoot)).isEqualTo(new Eligibility(ProbeAction.STOP,
                    "Cluster does not have any workers, existing prober if any will be removed"));
        }

        @Test
        void absentWorkerListIsWorkerless() {
            var shoot = shoot(false, Optional.empty(), false, Optional.of(new LastOperation("Reconcile", "")), null);
            assertThat(eligibility(shoot).action()).isEqualTo(ProbeAction.STOP);
        }

        @Test
        void stopReasonsAreCheckedInTheOriginalsOrder() {
            var everything = shoot(true, Optional.of(true), true, Optional.of(new LastOperation("Migrate", "")), List.of());
            assertThat(eligibility(everything).reason()).startsWith("Cluster has been marked for deletion");
            var noDeletion = shoot(false, Optional.of(true), true, Optional.of(new LastOperation("Migrate", "")), List.of());
            assertThat(eligibility(noDeletion).reason()).startsWith("Cluster hibernation is enabled");
            var migrating = shoot(false, Optional.empty(), true, Optional.of(new LastOperation("Migrate", "")), List.of());
            assertThat(eligibility(migrating).reason()).startsWith("Cluster migration is enabled");
        }

        @Test
        void missingShootStops() {
            assertThat(ProbeEligibility.of(new ClusterShoot.Missing()))
                    .isEqualTo(new Eligibility(ProbeAction.STOP, "Cluster has no spec.shoot"));
            assertThat(ProbeEligibility.of(null)).isEqualTo(new Eligibility(ProbeAction.STOP, "Cluster has no spec.shoot"));
        }
    }

    @Nested
    class Start {

        @ParameterizedTest
        @ValueSource(strings = {"Processing", "Succeeded", "Error", "Failed", "Pending", "Aborted", ""})
        void reconcileInAnyStateStarts(String state) {
            assertThat(eligibility(withLastOperation("Reconcile", state)).action()).isEqualTo(ProbeAction.START);
        }

        @ParameterizedTest
        @CsvSource({"Restore", "Create"})
        void succeededRestoreOrCreateStarts(String type) {
            assertThat(eligibility(withLastOperation(type, "Succeeded")))
                    .isEqualTo(new Eligibility(ProbeAction.START, "Cluster's last operation is " + type
                            + " Succeeded, prober can run"));
        }

        @Test
        void startReasonNamesTheOperation() {
            assertThat(eligibility(withLastOperation("Reconcile", "")).reason())
                    .isEqualTo("Cluster's last operation is Reconcile, prober can run");
            assertThat(eligibility(withLastOperation("Reconcile", "Error")).reason())
                    .isEqualTo("Cluster's last operation is Reconcile Error, prober can run");
        }

        @Test
        void hibernationExplicitlyDisabledAndAwakeStarts() {
            var shoot = shoot(false, Optional.of(false), false,
                    Optional.of(new LastOperation("Reconcile", "Succeeded")), ONE_WORKER);
            assertThat(eligibility(shoot).action()).isEqualTo(ProbeAction.START);
        }
    }

    @Nested
    class LeaveAsIs {

        @ParameterizedTest
        @CsvSource({"Restore, Processing", "Restore, Error", "Restore, Pending", "Create, Pending",
            "Create, Processing", "Create, Failed", "Delete, Processing", "Delete, Succeeded", "'', Succeeded",
            "reconcile, Succeeded"})
        void otherOperationsLeaveTheProberAsItIs(String type, String state) {
            assertThat(eligibility(withLastOperation(type, state))).isEqualTo(new Eligibility(ProbeAction.LEAVE_AS_IS,
                    "Cannot start probe. Cluster is either in migration/restore or in creation phase"));
        }

        @Test
        void wakingUpFromHibernationLeavesAsIs() {
            var shoot = shoot(false, Optional.of(false), true,
                    Optional.of(new LastOperation("Reconcile", "Processing")), ONE_WORKER);
            assertThat(eligibility(shoot)).isEqualTo(new Eligibility(ProbeAction.LEAVE_AS_IS,
                    "Cannot start probe. Cluster is waking up from hibernation"));
            var unsetFlag = shoot(false, Optional.empty(), true,
                    Optional.of(new LastOperation("Reconcile", "Processing")), ONE_WORKER);
            assertThat(eligibility(unsetFlag).action()).isEqualTo(ProbeAction.LEAVE_AS_IS);
        }

        @Test
        void noLastOperationMeansCreationPhase() {
            var shoot = shoot(false, Optional.empty(), false, Optional.empty(), ONE_WORKER);
            assertThat(eligibility(shoot)).isEqualTo(new Eligibility(ProbeAction.LEAVE_AS_IS,
                    "Cannot start probe. Cluster is creation phase"));
        }

        @Test
        void undecodableShootLeavesARunningProberAlone() {
            assertThat(ProbeEligibility.of(new ClusterShoot.Undecodable("json: cannot unmarshal number")))
                    .isEqualTo(new Eligibility(ProbeAction.LEAVE_AS_IS,
                            "error extracting shoot from cluster: json: cannot unmarshal number"));
        }
    }

    @Nested
    class WorkerNodeConditions {

        @Test
        void onlyWorkersWithMcmSettingsAppearAndEmptyListsGetDefaults() {
            var shoot = shoot(false, Optional.empty(), false, Optional.empty(), List.of(
                    new Worker("custom", true, List.of("MemoryPressure", "DiskPressure")),
                    new Worker("no-settings", false, List.of("MemoryPressure")),
                    new Worker("defaults", true, List.of())));
            var conditions = ProbeEligibility.workerNodeConditions(shoot);
            assertThat(conditions).containsExactly(
                    java.util.Map.entry("custom", List.of("MemoryPressure", "DiskPressure")),
                    java.util.Map.entry("defaults",
                            List.of("KernelDeadlock", "ReadonlyFilesystem", "DiskPressure", "NetworkUnavailable")));
        }

        @Test
        void laterWorkerOfTheSameNameWins() {
            var shoot = shoot(false, Optional.empty(), false, Optional.empty(), List.of(
                    new Worker("a", true, List.of("One")), new Worker("a", true, List.of("Two"))));
            assertThat(ProbeEligibility.workerNodeConditions(shoot)).containsExactly(java.util.Map.entry("a", List.of("Two")));
        }

        @Test
        void orderOfConditionsIsKeptSoThatAReorderCountsAsAChange() {
            var first = shoot(false, Optional.empty(), false, Optional.empty(),
                    List.of(new Worker("a", true, List.of("X", "Y"))));
            var reordered = shoot(false, Optional.empty(), false, Optional.empty(),
                    List.of(new Worker("a", true, List.of("Y", "X"))));
            assertThat(ProbeEligibility.workerNodeConditions(first))
                    .isNotEqualTo(ProbeEligibility.workerNodeConditions(reordered));
        }

        @Test
        void noShootOrNoWorkersGiveAnEmptyMap() {
            assertThat(ProbeEligibility.workerNodeConditions(null)).isEmpty();
            assertThat(ProbeEligibility.workerNodeConditions(
                    shoot(false, Optional.empty(), false, Optional.empty(), List.of()))).isEmpty();
        }
    }

    @Nested
    class GracePeriod {

        private final Duration configured = Duration.ofSeconds(40);

        @Test
        void shootsOwnGracePeriodWins() {
            var shoot = new Shoot(false, Optional.empty(), false, Optional.empty(), ONE_WORKER,
                    Optional.of(Duration.ofMinutes(2)));
            assertThat(ProbeEligibility.effectiveGracePeriod(shoot, configured)).isEqualTo(Duration.ofMinutes(2));
        }

        @Test
        void configuredGracePeriodAppliesOtherwise() {
            var shoot = new Shoot(false, Optional.empty(), false, Optional.empty(), ONE_WORKER, Optional.empty());
            assertThat(ProbeEligibility.effectiveGracePeriod(shoot, configured)).isEqualTo(configured);
            assertThat(ProbeEligibility.effectiveGracePeriod(null, configured)).isEqualTo(configured);
        }

        @Test
        void zeroOrLessIsNotAGracePeriodTheConfiguredOneApplies() {
            for (Duration unusable : List.of(Duration.ZERO, Duration.ofHours(-1), Duration.ofNanos(-1))) {
                var shoot = new Shoot(false, Optional.empty(), false, Optional.empty(), ONE_WORKER, Optional.of(unusable));
                assertThat(ProbeEligibility.effectiveGracePeriod(shoot, configured)).as("%s", unusable).isEqualTo(configured);
            }
        }

        @Test
        void anIgnoredGracePeriodIsNamedWithWhatAppliesInstead() {
            var negative = new Shoot(false, Optional.empty(), false, Optional.empty(), ONE_WORKER,
                    Optional.of(Duration.ofHours(-1)));
            assertThat(ProbeEligibility.ignoredSettings(negative)).containsExactly(
                    "spec.shoot.spec.kubernetes.kubeControllerManager.nodeMonitorGracePeriod is -1h0m0s, not positive:"
                            + " the prober uses its kcmNodeMonitorGraceDuration instead (Gardener refuses such a value"
                            + " in a Shoot; fix the Cluster)");
            var positive = new Shoot(false, Optional.empty(), false, Optional.empty(), ONE_WORKER,
                    Optional.of(Duration.ofMinutes(2)));
            assertThat(ProbeEligibility.ignoredSettings(positive)).isEmpty();
        }
    }
}
