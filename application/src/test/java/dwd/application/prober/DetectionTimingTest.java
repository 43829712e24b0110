package dwd.application.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.testing.InMemoryResources.Write;
import dwd.application.testing.ProberFixture;
import dwd.application.testing.SimulatedShoot;
import dwd.domain.lease.LeaseExpiry;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Design §3.1: scale-down starts within a second of the threshold crossing, before the node
 * monitor grace period ends — under Gardener's settings (grace 40 s, interval 30 s, jitter 0.2),
 * where the original acts only on its next 30–36 s probe.
 */
class DetectionTimingTest {

    private static final String NS = "shoot--dev--timing";
    private static final Duration GRACE = Duration.ofSeconds(40);

    @Test
    void firstScaleDownWriteFollowsTheThresholdCrossingWithinOneSecondInEveryOf1000SeededRuns() {
        Duration worstDelay = Duration.ZERO;
        for (long seed = 0; seed < 1000; seed++) {
            var fixture = new ProberFixture(ProberFixture.gardenerConfig(), seed);
            SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, seed);
            var random = new SplittableRandom(seed);
            // Healthy for a random while (the probe loop is somewhere in its jittered cycle), then the network breaks.
            fixture.scheduler.advanceBy(Duration.ofSeconds(60).plusMillis(random.nextLong(240_000)));
            assertThat(fixture.resources.writes(NS)).as("seed %d: no writes while healthy", seed).isEmpty();
            shoot.cutAll();

            // 3 of 5 expired reaches 0.6: the crossing is the third-earliest expiry.
            List<Instant> expiries = shoot.nodeNames().stream()
                    .map(node -> LeaseExpiry.expiresAt(shoot.lastRenewal(node), GRACE))
                    .sorted().toList();
            Instant crossing = expiries.get(2);
            Instant thirdRenewal = shoot.nodeNames().stream().map(shoot::lastRenewal)
                    .sorted().toList().get(2);

            fixture.scheduler.advanceBy(Duration.ofSeconds(60));

            Write first = fixture.resources.writes(NS).stream().min(Comparator.comparing(Write::at)).orElseThrow(
                    () -> new AssertionError("seed " + fixture + ": no scale-down at all"));
            Duration delay = Duration.between(crossing, first.at());
            assertThat(delay).as("seed %d: first write %s vs crossing %s", seed, first.at(), crossing)
                    .isGreaterThanOrEqualTo(Duration.ZERO)
                    .isLessThanOrEqualTo(Duration.ofSeconds(1));
            assertThat(first.at()).as("seed %d: before the grace period ends", seed)
                    .isBefore(thirdRenewal.plus(GRACE));
            assertThat(first.description()).as("the scale-down records the replicas first").startsWith("annotate");
            if (delay.compareTo(worstDelay) > 0) {
                worstDelay = delay;
            }
        }
        assertThat(worstDelay).isLessThanOrEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aHealthyShootIsProbedAtLeastEveryIntervalPlusJitterEvenWhileAScaleUpWaitsOnItsDelay() {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(Duration.ofMinutes(5)), 7);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 7);
        fixture.scheduler.advanceBy(Duration.ofSeconds(90));
        shoot.cutAll();
        fixture.scheduler.advanceBy(Duration.ofSeconds(60));
        assertThat(fixture.resources.replicas(NS, ProberFixture.MCM)).isZero();
        shoot.heal();
        Instant healed = fixture.scheduler.now();
        fixture.scheduler.advanceBy(Duration.ofMinutes(4)); // MCM's scale-up delay (5 min) is still running

        assertThat(fixture.resources.replicas(NS, ProberFixture.KCM)).isEqualTo(3);
        assertThat(fixture.resources.replicas(NS, ProberFixture.MCM)).as("still waiting on its delay").isZero();
        List<Instant> reads = shoot.leaseReads().stream().filter(t -> t.isAfter(healed)).toList();
        assertThat(reads).hasSizeGreaterThanOrEqualTo(6);
        for (int i = 1; i < reads.size(); i++) {
            assertThat(Duration.between(reads.get(i - 1), reads.get(i)))
                    .as("gap between lease checks").isLessThanOrEqualTo(Duration.ofSeconds(36));
        }
    }
}
