package dwd.domain.lease;

import static dwd.domain.lease.LeaseFixtures.BUFFER;
import static dwd.domain.lease.LeaseFixtures.GRACE;
import static dwd.domain.lease.LeaseFixtures.NOW;
import static dwd.domain.lease.LeaseFixtures.cluster;
import static dwd.domain.lease.LeaseFixtures.condition;
import static dwd.domain.lease.LeaseFixtures.expired;
import static dwd.domain.lease.LeaseFixtures.fresh;
import static dwd.domain.lease.LeaseFixtures.input;
import static dwd.domain.lease.LeaseFixtures.machine;
import static dwd.domain.lease.LeaseFixtures.node;
import static dwd.domain.lease.LeaseFixtures.nodeAnnotated;
import static dwd.domain.lease.LeaseFixtures.nodeInPool;
import static dwd.domain.lease.LeaseFixtures.renewedAt;
import static dwd.domain.lease.LeaseFixtures.withoutRenewTime;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LeaseVerdictsTest {

    @Nested
    class DecisionTable {

        @ParameterizedTest(name = "n={0}, e={1} -> fraction {2}, {3}")
        @CsvSource({
            "2, 0, 0.0, SCALE_UP",
            "2, 1, 0.5, SCALE_UP",
            "2, 2, 1.0, SCALE_DOWN",
            "3, 2, 0.6666666666666666, SCALE_DOWN",
            "4, 2, 0.5, SCALE_UP",
            "4, 3, 0.75, SCALE_DOWN",
            "5, 3, 0.6, SCALE_DOWN",
            "10, 5, 0.5, SCALE_UP",
            "10, 6, 0.6, SCALE_DOWN",
        })
        void originalsWorkedExamplesAtThreshold06(int candidates, int expired, double fraction, Decision decision) {
            var verdict = LeaseVerdicts.decide(cluster(candidates, expired, 0.6));
            assertThat(verdict.decision()).isEqualTo(decision);
            assertThat(verdict.candidates()).isEqualTo(candidates);
            assertThat(verdict.expired()).isEqualTo(expired);
            assertThat(verdict.fraction()).isEqualTo(fraction);
            assertThat(verdict.threshold()).isEqualTo(0.6);
        }

        @Test
        void noCandidateLeaseScalesUp() {
            var verdict = LeaseVerdicts.decide(cluster(0, 0, 0.6));
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_UP);
            assertThat(verdict.candidates()).isZero();
            assertThat(verdict.fraction()).isZero();
            assertThat(verdict.predictedCrossing()).isEmpty();
        }

        @Test
        void singleFreshCandidateScalesUp() {
            var verdict = LeaseVerdicts.decide(cluster(1, 0, 0.6));
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_UP);
            assertThat(verdict.fraction()).isZero();
        }

        @Test
        void singleExpiredCandidateHoldsInsteadOfScalingDown() {
            var verdict = LeaseVerdicts.decide(cluster(1, 1, 0.6));
            assertThat(verdict.decision()).isEqualTo(Decision.HOLD);
            assertThat(verdict.expired()).isEqualTo(1);
            assertThat(verdict.fraction()).isEqualTo(1.0);
            assertThat(verdict.predictedCrossing()).isEmpty();
        }

        @Test
        void fractionIsComparedWithTheThresholdExactly() {
            assertThat(LeaseVerdicts.decide(cluster(5, 3, 0.6000001)).decision()).isEqualTo(Decision.SCALE_UP);
            assertThat(LeaseVerdicts.decide(cluster(5, 3, 0.5999999)).decision()).isEqualTo(Decision.SCALE_DOWN);
        }

        @Test
        void nanThresholdNeverScalesDown() {
            var verdict = LeaseVerdicts.decide(cluster(3, 3, Double.NaN));
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_UP);
            assertThat(verdict.predictedCrossing()).isEmpty();
        }
    }

    @Nested
    class Expiry {

        @Test
        void leaseRenewedExactlyThreeQuartersOfGraceAgoIsExpired() {
            var nodes = List.of(node("a"), node("b"));
            var machines = List.of(machine("a"), machine("b"));
            var atBoundary = input(nodes, machines, List.of(renewedAt("a", NOW.minus(BUFFER)), fresh("b")));
            var justBefore = input(nodes, machines,
                    List.of(renewedAt("a", NOW.minus(BUFFER).plusNanos(1)), fresh("b")));
            assertThat(LeaseVerdicts.decide(atBoundary).expired()).isEqualTo(1);
            assertThat(LeaseVerdicts.decide(justBefore).expired()).isZero();
        }

        @Test
        void graceOfTheInputIsUsed() {
            var nodes = List.of(node("a"), node("b"));
            var machines = List.of(machine("a"), machine("b"));
            var leases = List.of(renewedAt("a", NOW.minusSeconds(60)), renewedAt("b", NOW.minusSeconds(60)));
            var longGrace = new LeaseProbeInput(nodes, machines, leases, Map.of(), Duration.ofSeconds(81), 0.6, NOW);
            var shortGrace = new LeaseProbeInput(nodes, machines, leases, Map.of(), Duration.ofSeconds(80), 0.6, NOW);
            assertThat(LeaseVerdicts.decide(longGrace).decision()).isEqualTo(Decision.SCALE_UP);
            assertThat(LeaseVerdicts.decide(shortGrace).decision()).isEqualTo(Decision.SCALE_DOWN);
        }
    }

    @Nested
    class LeaseFiltering {

        @Test
        void leasesOfNonCandidateOrUnknownNodesAreOrphansAndIgnored() {
            var nodes = List.of(node("a"), node("b"), nodeAnnotated("c", "node.machine.sapcloud.io/not-managed-by-mcm", ""));
            var machines = List.of(machine("a"), machine("b"), machine("c"));
            var leases = List.of(fresh("a"), fresh("b"), expired("c"), expired("ghost"));
            var verdict = LeaseVerdicts.decide(input(nodes, machines, leases));
            assertThat(verdict.candidates()).isEqualTo(2);
            assertThat(verdict.expired()).isZero();
            assertThat(verdict.orphanLeases()).isEqualTo(2);
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_UP);
        }

        @Test
        void candidateNodesWithoutLeaseAreListedInNodeOrder() {
            var nodes = List.of(node("z"), node("a"), node("m"), node("b"));
            var machines = List.of(machine("z"), machine("a"), machine("m"), machine("b"));
            var verdict = LeaseVerdicts.decide(input(nodes, machines, List.of(fresh("a"), fresh("b"))));
            assertThat(verdict.candidateNodesWithoutLease()).containsExactly("z", "m");
            assertThat(verdict.candidates()).isEqualTo(2);
        }

        @Test
        void excludedNodesWithoutLeaseAreNotListedAsCandidatesWithoutLease() {
            var verdict = LeaseVerdicts.decide(input(List.of(node("a")), List.of(), List.of()));
            assertThat(verdict.candidateNodesWithoutLease()).isEmpty();
            assertThat(verdict.excludedNodes()).containsOnlyKeys("a");
        }

        @Test
        void leaseWithoutRenewTimeIsCountedButIsNoCandidate() {
            var nodes = List.of(node("a"), node("b"), node("c"));
            var machines = List.of(machine("a"), machine("b"), machine("c"));
            var leases = List.of(withoutRenewTime("a"), expired("b"), expired("c"), withoutRenewTime("ghost"));
            var verdict = LeaseVerdicts.decide(input(nodes, machines, leases));
            assertThat(verdict.leasesWithoutRenewTime()).isEqualTo(1);
            assertThat(verdict.orphanLeases()).isEqualTo(1);
            assertThat(verdict.candidates()).isEqualTo(2);
            assertThat(verdict.expired()).isEqualTo(2);
            assertThat(verdict.candidateNodesWithoutLease()).isEmpty();
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_DOWN);
        }

        @Test
        void onlyLeasesWithoutRenewTimeMeanNoCandidates() {
            var nodes = List.of(node("a"), node("b"));
            var machines = List.of(machine("a"), machine("b"));
            var verdict = LeaseVerdicts.decide(input(nodes, machines, List.of(withoutRenewTime("a"), withoutRenewTime("b"))));
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_UP);
            assertThat(verdict.candidates()).isZero();
            assertThat(verdict.leasesWithoutRenewTime()).isEqualTo(2);
        }

        @Test
        void excludedNodesCarryAllTheirReasonsInNodeOrder() {
            var nodes = List.of(
                    node("ok"),
                    nodeInPool("sick", "p", condition("DiskPressure", "True")),
                    nodeAnnotated("unmanaged", "node.machine.sapcloud.io/not-managed-by-mcm", "true"));
            var machines = List.of(machine("ok"), machine("sick"));
            var verdict = LeaseVerdicts.decide(input(nodes, machines, List.of()));
            assertThat(verdict.excludedNodes()).containsExactly(
                    Map.entry("sick", Set.of(Exclusion.UNHEALTHY_CONDITION)),
                    Map.entry("unmanaged", Set.of(Exclusion.NOT_MANAGED_BY_MCM, Exclusion.NO_LIVE_MACHINE)));
        }

        @Test
        void nodesOfTheSameNameMergeTheirExclusions() {
            var nodes = List.of(node("a", condition("KernelDeadlock", "True")),
                    nodeAnnotated("a", "node.machine.sapcloud.io/not-managed-by-mcm", ""));
            var verdict = LeaseVerdicts.decide(input(nodes, List.of(machine("a")), List.of()));
            assertThat(verdict.excludedNodes().get("a"))
                    .containsExactly(Exclusion.NOT_MANAGED_BY_MCM, Exclusion.UNHEALTHY_CONDITION);
        }

        @Test
        void workerNodeConditionsOfTheInputApply() {
            var nodes = List.of(nodeInPool("a", "pool", condition("MemoryPressure", "True")), node("b"), node("c"));
            var machines = List.of(machine("a"), machine("b"), machine("c"));
            var leases = List.of(expired("a"), fresh("b"), fresh("c"));
            var withPoolConditions = new LeaseProbeInput(nodes, machines, leases,
                    Map.of("pool", List.of("MemoryPressure")), GRACE, 0.3, NOW);
            var verdict = LeaseVerdicts.decide(withPoolConditions);
            assertThat(verdict.candidates()).isEqualTo(2);
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_UP);
            var withDefaults = LeaseVerdicts.decide(new LeaseProbeInput(nodes, machines, leases, Map.of(), GRACE, 0.3, NOW));
            assertThat(withDefaults.candidates()).isEqualTo(3);
            assertThat(withDefaults.decision()).isEqualTo(Decision.SCALE_DOWN);
        }
    }

    @Nested
    class BadInput {

        @Test
        void absentCollectionsAreEmpty() {
            var verdict = LeaseVerdicts.decide(new LeaseProbeInput(null, null, null, null, GRACE, 0.6, NOW));
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_UP);
            assertThat(verdict.candidates()).isZero();
            assertThat(verdict.excludedNodes()).isEmpty();
            assertThat(verdict.candidateNodesWithoutLease()).isEmpty();
        }

        @Test
        void nullElementsAreSkipped() {
            var nodes = new java.util.ArrayList<Node>(List.of(node("a"), node("b")));
            nodes.add(null);
            var leases = new java.util.ArrayList<NodeLease>(List.of(expired("a"), expired("b")));
            leases.add(null);
            var verdict = LeaseVerdicts.decide(input(nodes, List.of(machine("a"), machine("b")), leases));
            assertThat(verdict.candidates()).isEqualTo(2);
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_DOWN);
        }

        @Test
        void graceAndNowMustBeGiven() {
            assertThatThrownBy(() -> new LeaseProbeInput(List.of(), List.of(), List.of(), Map.of(), null, 0.6, NOW))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("nodeMonitorGracePeriod");
            assertThatThrownBy(() -> new LeaseProbeInput(List.of(), List.of(), List.of(), Map.of(), GRACE, 0.6, null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("now");
        }

        @Test
        void inputCanBeJudgedAtAnotherInstant() {
            var input = cluster(3, 0, 0.6);
            var later = input.at(NOW.plusSeconds(60));
            assertThat(later.now()).isEqualTo(NOW.plusSeconds(60));
            assertThat(later.nodes()).isEqualTo(input.nodes());
            assertThat(later.machines()).isEqualTo(input.machines());
            assertThat(later.leases()).isEqualTo(input.leases());
            assertThat(later.nodeMonitorGracePeriod()).isEqualTo(input.nodeMonitorGracePeriod());
            assertThat(later.failureFraction()).isEqualTo(input.failureFraction());
            assertThat(LeaseVerdicts.decide(later).decision()).isEqualTo(Decision.SCALE_DOWN);
        }
    }

    @Nested
    class PredictedCrossing {

        private LeaseProbeInput staggered(double threshold, int... secondsUntilExpiry) {
            var nodes = new java.util.ArrayList<Node>();
            var machines = new java.util.ArrayList<Machine>();
            var leases = new java.util.ArrayList<NodeLease>();
            for (int i = 0; i < secondsUntilExpiry.length; i++) {
                String name = "n" + i;
                nodes.add(node(name));
                machines.add(machine(name));
                leases.add(renewedAt(name, NOW.minus(BUFFER).plusSeconds(secondsUntilExpiry[i])));
            }
            return new LeaseProbeInput(nodes, machines, leases, Map.of(), GRACE, threshold, NOW);
        }

        @Test
        void isTheExpiryThatBringsTheFractionToTheThreshold() {
            var verdict = LeaseVerdicts.decide(staggered(0.6, 5, 1, 4, 2, 3));
            assertThat(verdict.predictedCrossing()).contains(NOW.plusSeconds(3));
        }

        @Test
        void fullThresholdWaitsForTheLastLease() {
            assertThat(LeaseVerdicts.decide(staggered(1.0, 7, 2, 9)).predictedCrossing()).contains(NOW.plusSeconds(9));
        }

        @Test
        void smallThresholdIsCrossedByTheFirstExpiry() {
            assertThat(LeaseVerdicts.decide(staggered(0.01, 7, 2, 9)).predictedCrossing())
                    .contains(NOW.plusSeconds(2));
        }

        @Test
        void isInThePastOnceCrossed() {
            var verdict = LeaseVerdicts.decide(staggered(0.5, -10, -4, 20, 30));
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_DOWN);
            assertThat(verdict.predictedCrossing()).contains(NOW.minusSeconds(4));
        }

        @Test
        void thresholdAboveOneIsNeverReached() {
            var verdict = LeaseVerdicts.decide(staggered(1.01, -10, -4));
            assertThat(verdict.predictedCrossing()).isEmpty();
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_UP);
        }

        @Test
        void thresholdOfZeroIsCrossedFromTheStart() {
            var verdict = LeaseVerdicts.decide(staggered(0.0, 10, 20));
            assertThat(verdict.predictedCrossing()).contains(Instant.MIN);
            assertThat(verdict.decision()).isEqualTo(Decision.SCALE_DOWN);
        }

        @Test
        void leasesWithoutRenewTimeDoNotTakePart() {
            var input = staggered(0.5, 10, 20);
            var leases = new java.util.ArrayList<>(input.leases());
            leases.add(withoutRenewTime("n2"));
            var nodes = new java.util.ArrayList<>(input.nodes());
            nodes.add(node("n2"));
            var machines = new java.util.ArrayList<>(input.machines());
            machines.add(machine("n2"));
            var verdict = LeaseVerdicts.decide(new LeaseProbeInput(nodes, machines, leases, Map.of(), GRACE, 0.5, NOW));
            assertThat(verdict.predictedCrossing()).contains(NOW.plusSeconds(10));
        }

        @Test
        void noPredictionBelowTwoCandidates() {
            assertThat(LeaseVerdicts.decide(staggered(0.6, 10)).predictedCrossing()).isEmpty();
            assertThat(LeaseVerdicts.decide(staggered(0.6)).predictedCrossing()).isEmpty();
        }

        @Test
        void twoCandidatesArePredicted() {
            assertThat(LeaseVerdicts.decide(staggered(0.6, 10, 20)).predictedCrossing()).contains(NOW.plusSeconds(20));
        }
    }

    @Test
    void verdictExclusionSetsAreEnumSetsInDeclarationOrder() {
        var verdict = LeaseVerdicts.decide(input(List.of(
                nodeAnnotated("a", "node.machine.sapcloud.io/not-managed-by-mcm", "")), List.of(), List.of()));
        assertThat(verdict.excludedNodes().get("a"))
                .isEqualTo(EnumSet.of(Exclusion.NOT_MANAGED_BY_MCM, Exclusion.NO_LIVE_MACHINE))
                .containsExactly(Exclusion.NOT_MANAGED_BY_MCM, Exclusion.NO_LIVE_MACHINE);
        assertThat(verdict.predictedCrossing()).isEqualTo(Optional.empty());
    }
}
