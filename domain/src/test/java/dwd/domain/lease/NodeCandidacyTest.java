package dwd.domain.lease;

import static dwd.domain.lease.LeaseFixtures.condition;
import static dwd.domain.lease.LeaseFixtures.inPlaceUpdate;
import static dwd.domain.lease.LeaseFixtures.machine;
import static dwd.domain.lease.LeaseFixtures.node;
import static dwd.domain.lease.LeaseFixtures.nodeAnnotated;
import static dwd.domain.lease.LeaseFixtures.nodeInPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NodeCandidacyTest {

    private static final NodeCandidacy WITH_LIVE_MACHINE_FOR_N1 = NodeCandidacy.of(List.of(machine("n1")), Map.of());

    @Test
    void healthyManagedNodeWithLiveMachineIsCandidate() {
        assertThat(WITH_LIVE_MACHINE_FOR_N1.exclusionsOf(node("n1"))).isEmpty();
    }

    @Nested
    class ManagedByMcm {

        @ParameterizedTest
        @ValueSource(strings = {"true", "false", ""})
        void notManagedAnnotationExcludesWhateverItsValue(String value) {
            var node = nodeAnnotated("n1", "node.machine.sapcloud.io/not-managed-by-mcm", value);
            assertThat(WITH_LIVE_MACHINE_FOR_N1.exclusionsOf(node)).containsExactly(Exclusion.NOT_MANAGED_BY_MCM);
        }

        @Test
        void otherAnnotationsDoNotExclude() {
            var node = nodeAnnotated("n1", "node.machine.sapcloud.io/not-managed-by", "true");
            assertThat(WITH_LIVE_MACHINE_FOR_N1.exclusionsOf(node)).isEmpty();
        }
    }

    @Nested
    class UnhealthyConditions {

        @ParameterizedTest
        @ValueSource(strings = {"KernelDeadlock", "ReadonlyFilesystem", "DiskPressure", "NetworkUnavailable"})
        void defaultConditionTrueExcludes(String type) {
            var node = node("n1", condition(type, "True"));
            assertThat(WITH_LIVE_MACHINE_FOR_N1.exclusionsOf(node)).containsExactly(Exclusion.UNHEALTHY_CONDITION);
        }

        @ParameterizedTest
        @ValueSource(strings = {"False", "Unknown", "", "true"})
        void defaultConditionNotExactlyTrueDoesNotExclude(String status) {
            var node = node("n1", condition("DiskPressure", status));
            assertThat(WITH_LIVE_MACHINE_FOR_N1.exclusionsOf(node)).isEmpty();
        }

        @Test
        void readyAndMemoryPressureAreNotConsideredByDefault() {
            var node = node("n1", condition("Ready", "False"), condition("MemoryPressure", "True"));
            assertThat(WITH_LIVE_MACHINE_FOR_N1.exclusionsOf(node)).isEmpty();
        }

        @Test
        void unhealthyConditionAfterHealthyOnesStillExcludes() {
            var node = node("n1", condition("Ready", "True"), condition("DiskPressure", "False"),
                    condition("NetworkUnavailable", "True"));
            assertThat(WITH_LIVE_MACHINE_FOR_N1.exclusionsOf(node)).containsExactly(Exclusion.UNHEALTHY_CONDITION);
        }

        @Test
        void knownPoolUsesItsOwnConditionsInsteadOfTheDefaults() {
            var candidacy = NodeCandidacy.of(List.of(machine("n1")), Map.of("pool-a", List.of("MemoryPressure")));
            assertThat(candidacy.exclusionsOf(nodeInPool("n1", "pool-a", condition("MemoryPressure", "True"))))
                    .containsExactly(Exclusion.UNHEALTHY_CONDITION);
            assertThat(candidacy.exclusionsOf(nodeInPool("n1", "pool-a", condition("DiskPressure", "True")))).isEmpty();
            assertThat(candidacy.unhealthyConditionsFor(nodeInPool("n1", "pool-a"))).containsExactly("MemoryPressure");
        }

        @Test
        void unknownPoolOrNoPoolLabelFallsBackToDefaults() {
            var candidacy = NodeCandidacy.of(List.of(machine("n1")), Map.of("pool-a", List.of("MemoryPressure")));
            assertThat(candidacy.unhealthyConditionsFor(nodeInPool("n1", "pool-b")))
                    .isEqualTo(NodeCandidacy.DEFAULT_UNHEALTHY_CONDITIONS);
            assertThat(candidacy.unhealthyConditionsFor(node("n1")))
                    .isEqualTo(NodeCandidacy.DEFAULT_UNHEALTHY_CONDITIONS);
            assertThat(candidacy.exclusionsOf(nodeInPool("n1", "pool-b", condition("DiskPressure", "True"))))
                    .as("DiskPressure is among the defaults").containsExactly(Exclusion.UNHEALTHY_CONDITION);
        }

        @Test
        void poolWithEmptyConditionListConsidersNothingUnhealthy() {
            var candidacy = NodeCandidacy.of(List.of(machine("n1")), Map.of("pool-a", List.of()));
            assertThat(candidacy.exclusionsOf(nodeInPool("n1", "pool-a", condition("DiskPressure", "True")))).isEmpty();
        }

        @Test
        void defaultsAreMcmsFour() {
            assertThat(NodeCandidacy.DEFAULT_UNHEALTHY_CONDITIONS)
                    .containsExactly("KernelDeadlock", "ReadonlyFilesystem", "DiskPressure", "NetworkUnavailable");
            assertThatThrownBy(() -> NodeCandidacy.DEFAULT_UNHEALTHY_CONDITIONS.add("Ready"))
                    .isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Nested
    class LiveMachine {

        @Test
        void nodeWithoutAnyMachineIsExcluded() {
            var candidacy = NodeCandidacy.of(List.of(), Map.of());
            assertThat(candidacy.exclusionsOf(node("n1"))).containsExactly(Exclusion.NO_LIVE_MACHINE);
        }

        @Test
        void machineOfAnotherNodeDoesNotCount() {
            var candidacy = NodeCandidacy.of(List.of(machine("n2")), Map.of());
            assertThat(candidacy.exclusionsOf(node("n1"))).containsExactly(Exclusion.NO_LIVE_MACHINE);
        }

        @Test
        void machineWithoutNodeLabelDoesNotCount() {
            var candidacy = NodeCandidacy.of(List.of(new Machine("m", Optional.empty(), "Running")), Map.of());
            assertThat(candidacy.exclusionsOf(node(""))).containsExactly(Exclusion.NO_LIVE_MACHINE);
        }

        @ParameterizedTest
        @ValueSource(strings = {"Failed", "Terminating"})
        void failedOrTerminatingMachineDoesNotCount(String phase) {
            var candidacy = NodeCandidacy.of(List.of(machine("n1", phase)), Map.of());
            assertThat(candidacy.exclusionsOf(node("n1"))).containsExactly(Exclusion.NO_LIVE_MACHINE);
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "Pending", "Available", "Running", "Unknown", "CrashLoopBackOff",
            "InPlaceUpdating", "InPlaceUpdateSuccessful", "InPlaceUpdateFailed", "failed", "Terminated"})
        void anyOtherPhaseCounts(String phase) {
            var candidacy = NodeCandidacy.of(List.of(machine("n1", phase)), Map.of());
            assertThat(candidacy.exclusionsOf(node("n1"))).isEmpty();
        }

        @Test
        void oneLiveMachineSufficesWhateverTheOrder() {
            var failedFirst = NodeCandidacy.of(List.of(machine("n1", "Failed"), machine("n1", "Running")), Map.of());
            var liveFirst = NodeCandidacy.of(List.of(machine("n1", "Running"), machine("n1", "Terminating")), Map.of());
            assertThat(failedFirst.exclusionsOf(node("n1"))).isEmpty();
            assertThat(liveFirst.exclusionsOf(node("n1"))).isEmpty();
        }

        @Test
        void absentMachineListAndConditionMapAreEmpty() {
            var candidacy = NodeCandidacy.of(null, null);
            assertThat(candidacy.exclusionsOf(node("n1"))).containsExactly(Exclusion.NO_LIVE_MACHINE);
            assertThat(candidacy.unhealthyConditionsFor(nodeInPool("n1", "a")))
                    .isEqualTo(NodeCandidacy.DEFAULT_UNHEALTHY_CONDITIONS);
        }
    }

    @Nested
    class InPlaceUpdate {

        @ParameterizedTest
        @ValueSource(strings = {"ReadyForUpdate", "UpdateFailed"})
        void excludingReasonExcludesWhateverTheStatus(String reason) {
            for (String status : List.of("True", "False", "Unknown", "")) {
                var node = node("n1", inPlaceUpdate(status, reason));
                assertThat(WITH_LIVE_MACHINE_FOR_N1.exclusionsOf(node)).containsExactly(Exclusion.IN_PLACE_UPDATE);
            }
        }

        @ParameterizedTest
        @ValueSource(strings = {"CandidateForUpdate", "SelectedForUpdate", "DrainSuccessful", "UpdateSuccessful",
            "", "readyForUpdate"})
        void otherReasonsDoNotExclude(String reason) {
            assertThat(WITH_LIVE_MACHINE_FOR_N1.exclusionsOf(node("n1", inPlaceUpdate("True", reason)))).isEmpty();
        }

        @Test
        void excludingReasonOnAnotherConditionTypeDoesNotExclude() {
            var node = node("n1", new NodeCondition("Ready", "True", "ReadyForUpdate"));
            assertThat(WITH_LIVE_MACHINE_FOR_N1.exclusionsOf(node)).isEmpty();
        }

        @Test
        void laterInPlaceConditionStillExcludes() {
            var node = node("n1", inPlaceUpdate("True", "CandidateForUpdate"), inPlaceUpdate("True", "UpdateFailed"));
            assertThat(WITH_LIVE_MACHINE_FOR_N1.exclusionsOf(node)).containsExactly(Exclusion.IN_PLACE_UPDATE);
        }
    }

    @Test
    void everyApplicableRuleIsReported() {
        var node = new Node("n1", Map.of(), Map.of("node.machine.sapcloud.io/not-managed-by-mcm", "x"),
                List.of(condition("KernelDeadlock", "True"), inPlaceUpdate("False", "ReadyForUpdate")));
        var candidacy = NodeCandidacy.of(List.of(), Map.of());
        assertThat(candidacy.exclusionsOf(node)).containsExactly(Exclusion.NOT_MANAGED_BY_MCM,
                Exclusion.UNHEALTHY_CONDITION, Exclusion.NO_LIVE_MACHINE, Exclusion.IN_PLACE_UPDATE);
    }

    @Test
    void exclusionsCannotBeModifiedByTheCaller() {
        var exclusions = NodeCandidacy.of(List.of(), Map.of()).exclusionsOf(node("n1"));
        assertThatThrownBy(exclusions::clear).isInstanceOf(UnsupportedOperationException.class);
    }
}
