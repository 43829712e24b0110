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
import java.util.random.RandomGenerator;
import dwd.domain.testing.PropertyCheck;
import org.junit.jupiter.api.Test;

/** Properties of the verdict, checked on generated samples by {@link PropertyCheck} (seeded, reproducible). */
class LeaseVerdictPropertyTest {

    /** One generated situation: leases expiring at the given offsets, a threshold, a grace period, a later time. */
    record Sample(List<Long> nanosUntilExpiry, double threshold, long graceMillis, long nanosLater, long other, long seed) {
    }

    private static Sample sample(RandomGenerator random) {
        return new Sample(nanosUntilExpiry(random), thresholdIn01(random), random.nextLong(1, 600_001),
                random.nextLong(0, 200_000_000_001L), random.nextLong(0, 100_000_000_001L), random.nextLong());
    }

    /** A threshold in (0, 1], the edge of 1 included now and then. */
    private static double thresholdIn01(RandomGenerator random) {
        return random.nextInt(10) == 0 ? 1.0 : Math.nextUp(random.nextDouble());
    }

    /**
     * With no renewals after {@code now}, the verdict turns to scale-down exactly at the predicted crossing:
     * at that instant, and not one millisecond (or nanosecond) before.
     */
    @Test
    void verdictTurnsToScaleDownExactlyAtThePredictedCrossing() {
        PropertyCheck.forAll(LeaseVerdictPropertyTest::sample, sample -> crossingProperty(sample));
    }

    private static void crossingProperty(Sample sample) {
        var input = allFresh(sample.nanosUntilExpiry(), sample.threshold(), Duration.ofMillis(sample.graceMillis()));

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
    @Test
    void predictionDoesNotMoveAsTimePasses() {
        PropertyCheck.forAll(LeaseVerdictPropertyTest::sample, sample -> {
            var input = allFresh(sample.nanosUntilExpiry(), sample.threshold(), Duration.ofSeconds(40));
            Instant crossing = LeaseVerdicts.decide(input).predictedCrossing().orElseThrow();
            Instant later = NOW.plusNanos(sample.nanosLater());
            var verdict = LeaseVerdicts.decide(input.at(later));
            assertThat(verdict.predictedCrossing()).contains(crossing);
            assertThat(verdict.decision() == Decision.SCALE_DOWN).isEqualTo(!crossing.isAfter(later));
        });
    }

    /** More expired leases among the same candidates never turn a scale-down into anything else. */
    @Test
    void theVerdictIsMonotonicInTheNumberOfExpiredLeases() {
        PropertyCheck.forAll(random -> new int[] {random.nextInt(0, 61)},
                sizes -> {
                    int candidates = sizes[0];
                    double threshold = thresholdIn01(new java.util.SplittableRandom(candidates * 31L + 7));
                    Decision previous = null;
                    for (int expired = 0; expired <= candidates; expired++) {
                        var verdict = LeaseVerdicts.decide(withExpired(candidates, expired, threshold));
                        assertThat(verdict.expired()).isEqualTo(expired);
                        if (previous == Decision.SCALE_DOWN) {
                            assertThat(verdict.decision()).as("%d of %d expired, threshold %s", expired, candidates, threshold)
                                    .isEqualTo(Decision.SCALE_DOWN);
                        }
                        previous = verdict.decision();
                    }
                });
    }

    /** {@code candidates} candidate nodes of which the first {@code expired} have expired leases at NOW. */
    private static LeaseProbeInput withExpired(int candidates, int expired, double threshold) {
        Duration grace = Duration.ofSeconds(40);
        var nodes = new ArrayList<Node>();
        var machines = new ArrayList<Machine>();
        var leases = new ArrayList<NodeLease>();
        for (int i = 0; i < candidates; i++) {
            String name = "node-" + i;
            nodes.add(node(name));
            machines.add(machine(name));
            leases.add(renewedAt(name, i < expired ? NOW.minus(grace) : NOW));
        }
        return new LeaseProbeInput(nodes, machines, leases, Map.of(), grace, threshold, NOW);
    }

    /** Without renewals, the expired count never decreases as time passes. */
    @Test
    void expiredCountGrowsWithTime() {
        PropertyCheck.forAll(LeaseVerdictPropertyTest::sample, sample -> {
            long first = sample.nanosLater() / 2;
            long second = sample.other();
            var input = allFresh(sample.nanosUntilExpiry(), 0.6, Duration.ofSeconds(40));
            var earlier = LeaseVerdicts.decide(input.at(NOW.plusNanos(Math.min(first, second))));
            var later = LeaseVerdicts.decide(input.at(NOW.plusNanos(Math.max(first, second))));
            assertThat(later.expired()).isGreaterThanOrEqualTo(earlier.expired());
            assertThat(later.fraction()).isEqualTo((double) later.expired() / later.candidates());
        });
    }

    /** The order in which the API lists nodes, machines and leases does not matter to the verdict. */
    @Test
    void listOrderDoesNotChangeTheVerdict() {
        PropertyCheck.forAll(LeaseVerdictPropertyTest::sample, LeaseVerdictPropertyTest::orderProperty);
    }

    private static void orderProperty(Sample sample) {
        var random = new Random(sample.seed());
        var input = allFresh(sample.nanosUntilExpiry(), 0.6, Duration.ofSeconds(40)).at(NOW.plusNanos(sample.other()));
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

    /** 2 to 60 offsets; a narrow range as well as a wide one, so that ties and near-ties between expiries are common. */
    private static List<Long> nanosUntilExpiry(RandomGenerator random) {
        int size = random.nextInt(2, 61);
        var offsets = new ArrayList<Long>(size);
        for (int i = 0; i < size; i++) {
            offsets.add(random.nextBoolean() ? random.nextLong(1, 5_000_001) : random.nextLong(1, 100_000_000_001L));
        }
        return offsets;
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
