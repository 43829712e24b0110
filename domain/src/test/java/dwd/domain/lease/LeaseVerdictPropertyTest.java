package dwd.domain.lease;

import static dwd.domain.lease.LeaseFixtures.NOW;
import static dwd.domain.lease.LeaseFixtures.machine;
import static dwd.domain.lease.LeaseFixtures.node;
import static dwd.domain.lease.LeaseFixtures.renewedAt;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;

class LeaseVerdictPropertyTest {

    /**
     * With no renewals after {@code now}, the verdict turns to scale-down exactly at the predicted crossing:
     * at that instant, and not one millisecond (or nanosecond) before.
     */
    @Property
    void verdictTurnsToScaleDownExactlyAtThePredictedCrossing(
            @ForAll("nanosUntilExpiry") List<Long> nanosUntilExpiry,
            @ForAll @DoubleRange(min = 0.0, minIncluded = false, max = 1.0) double threshold,
            @ForAll @LongRange(min = 1, max = 600_000) long graceMillis) {
        var input = allFresh(nanosUntilExpiry, threshold, Duration.ofMillis(graceMillis));

        var atNow = LeaseVerdicts.decide(input);
        assertThat(atNow.decision()).isEqualTo(Decision.SCALE_UP);
        assertThat(atNow.predictedCrossing()).isPresent();
        Instant crossing = atNow.predictedCrossing().orElseThrow();
        assertThat(crossing).isAfter(NOW);

        assertThat(LeaseVerdicts.decide(input.at(crossing)).decision()).isEqualTo(Decision.SCALE_DOWN);
        assertThat(LeaseVerdicts.decide(input.at(crossing.minusMillis(1))).decision()).isNotEqualTo(Decision.SCALE_DOWN);
        assertThat(LeaseVerdicts.decide(input.at(crossing.minusNanos(1))).decision()).isNotEqualTo(Decision.SCALE_DOWN);
    }

    /** Without renewals the prediction stays put, and the verdict is scale-down exactly when it is not in the future. */
    @Property
    void predictionDoesNotMoveAsTimePasses(
            @ForAll("nanosUntilExpiry") List<Long> nanosUntilExpiry,
            @ForAll @DoubleRange(min = 0.0, minIncluded = false, max = 1.0) double threshold,
            @ForAll @LongRange(min = 0, max = 200_000_000_000L) long nanosLater) {
        var input = allFresh(nanosUntilExpiry, threshold, Duration.ofSeconds(40));
        Instant crossing = LeaseVerdicts.decide(input).predictedCrossing().orElseThrow();
        Instant later = NOW.plusNanos(nanosLater);
        var verdict = LeaseVerdicts.decide(input.at(later));
        assertThat(verdict.predictedCrossing()).contains(crossing);
        assertThat(verdict.decision() == Decision.SCALE_DOWN).isEqualTo(!crossing.isAfter(later));
    }

    /** Without renewals, the expired count never decreases as time passes. */
    @Property
    void expiredCountGrowsWithTime(
            @ForAll("nanosUntilExpiry") List<Long> nanosUntilExpiry,
            @ForAll @LongRange(min = 0, max = 100_000_000_000L) long first,
            @ForAll @LongRange(min = 0, max = 100_000_000_000L) long second) {
        var input = allFresh(nanosUntilExpiry, 0.6, Duration.ofSeconds(40));
        var earlier = LeaseVerdicts.decide(input.at(NOW.plusNanos(Math.min(first, second))));
        var later = LeaseVerdicts.decide(input.at(NOW.plusNanos(Math.max(first, second))));
        assertThat(later.expired()).isGreaterThanOrEqualTo(earlier.expired());
        assertThat(later.fraction()).isEqualTo((double) later.expired() / later.candidates());
    }

    /** The order in which the API lists nodes, machines and leases does not matter to the verdict. */
    @Property
    void listOrderDoesNotChangeTheVerdict(
            @ForAll("nanosUntilExpiry") List<Long> nanosUntilExpiry,
            @ForAll @LongRange(min = 0, max = 100_000_000_000L) long nanosLater,
            @ForAll Random random) {
        var input = allFresh(nanosUntilExpiry, 0.6, Duration.ofSeconds(40)).at(NOW.plusNanos(nanosLater));
        var nodes = new ArrayList<>(input.nodes());
        var machines = new ArrayList<>(input.machines());
        var leases = new ArrayList<>(input.leases());
        Collections.shuffle(nodes, random);
        Collections.shuffle(machines, random);
        Collections.shuffle(leases, random);
        var shuffled = new LeaseProbeInput(nodes, machines, leases, input.workerNodeConditions(),
                input.nodeMonitorGracePeriod(), input.failureFraction(), input.now());

        var original = LeaseVerdicts.decide(input);
        var reordered = LeaseVerdicts.decide(shuffled);
        assertThat(reordered.decision()).isEqualTo(original.decision());
        assertThat(reordered.candidates()).isEqualTo(original.candidates());
        assertThat(reordered.expired()).isEqualTo(original.expired());
        assertThat(reordered.predictedCrossing()).isEqualTo(original.predictedCrossing());
    }

    @Provide
    Arbitrary<List<Long>> nanosUntilExpiry() {
        // A narrow range as well as a wide one, so that ties and near-ties between expiries are common.
        Arbitrary<Long> close = Arbitraries.longs().between(1, 5_000_000);
        Arbitrary<Long> spread = Arbitraries.longs().between(1, 100_000_000_000L);
        return Arbitraries.oneOf(close, spread).list().ofMinSize(2).ofMaxSize(60);
    }

    /** Candidate nodes whose leases all expire after {@link LeaseFixtures#NOW}, by the given nanoseconds. */
    private static LeaseProbeInput allFresh(List<Long> nanosUntilExpiry, double threshold, Duration grace) {
        Duration buffer = LeaseExpiry.buffer(grace);
        var nodes = new ArrayList<Node>();
        var machines = new ArrayList<Machine>();
        var leases = new ArrayList<NodeLease>();
        for (int i = 0; i < nanosUntilExpiry.size(); i++) {
            String name = "node-" + i;
            nodes.add(node(name));
            machines.add(machine(name));
            leases.add(renewedAt(name, NOW.plusNanos(nanosUntilExpiry.get(i)).minus(buffer)));
        }
        return new LeaseProbeInput(nodes, machines, leases, Map.of(), grace, threshold, NOW);
    }
}
