package dwd.application.prober;

import static dwd.application.testing.ProberFixture.KCM;
import static dwd.application.testing.ProberFixture.MCM;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.testing.ProberFixture;
import dwd.application.testing.RecordingObserver.Event;
import dwd.application.testing.SimulatedShoot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lease ages compare this machine's wall clock with the kubelets' renew times, so a step of the
 * wall clock would make every shoot's leases look expired (forward) or fresh (back) at once. A step
 * noticed between two readings holds lease verdicts for one probe interval, reported once; the
 * schedule, on the monotonic clock, is not moved by it.
 */
class WallClockStepTest {

    private static final String A = "shoot--dev--a";
    private static final String B = "shoot--dev--b";
    private static final Duration INTERVAL = Duration.ofSeconds(30);

    @Test
    void aStepOfPlusOneHourHoldsVerdictsForOneIntervalInsteadOfScalingDown() {
        // The seed's and the shoots' machines share a time source that stepped: every kubelet renews by
        // the new time within 10 s, and until then its lease looks an hour old.
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 41);
        SimulatedShoot.Shoot a = fixture.addShoot(A, 5, 41);
        fixture.addShoot(B, 5, 42);
        fixture.scheduler.advanceBy(Duration.ofSeconds(95));
        fixture.scheduler.advanceTo(nextProbe(fixture, A).minusMillis(100));
        int readsBefore = a.leaseReads().size();

        fixture.scheduler.stepWallClock(Duration.ofHours(1));
        Instant steppedAt = fixture.scheduler.now();
        fixture.scheduler.advanceBy(INTERVAL.multipliedBy(3));

        List<Event> steps = fixture.observer.events().stream()
                .filter(event -> event.what().startsWith("wall clock stepped")).toList();
        assertThat(steps).as("reported once, for every shoot").singleElement()
                .satisfies(step -> assertThat(step.what()).isEqualTo("wall clock stepped PT1H, verdicts held PT30S"));
        Instant heldUntil = steps.getFirst().at().plus(INTERVAL);
        assertThat(verdicts(fixture, steppedAt, heldUntil)).as("verdicts within the hold")
                .startsWith("verdict SCALE_DOWN action HOLD")
                .allSatisfy(verdict -> assertThat(verdict).endsWith("action HOLD"));
        assertThat(fixture.resources.writes(A)).as("nothing scaled").isEmpty();
        assertThat(fixture.resources.writes(B)).isEmpty();
        assertThat(verdicts(fixture, heldUntil, fixture.scheduler.now())).as("after the hold, verdicts count again")
                .isNotEmpty().allSatisfy(verdict -> assertThat(verdict).isEqualTo("verdict SCALE_UP action SCALE_UP"));
        assertThat(a.leaseReads().size() - readsBefore).as("the schedule kept its pace: about one run per interval")
                .isBetween(2, 4);
    }

    @Test
    void aStepOfTheProbersClockAloneIsHeldWhileItLasts() {
        // Only this machine's clock stepped, and was put right 20 s later: the kubelets' renew times
        // never moved, so every lease looked an hour old meanwhile.
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 45);
        SimulatedShoot.Shoot a = fixture.addShoot(A, 5, 45);
        a.kubeletsOnOwnClocks();
        fixture.scheduler.advanceBy(Duration.ofSeconds(95));
        fixture.scheduler.advanceTo(nextProbe(fixture, A).minusSeconds(1));

        fixture.scheduler.stepWallClock(Duration.ofHours(1));
        Instant steppedAt = fixture.scheduler.now();
        fixture.scheduler.advanceBy(Duration.ofSeconds(20));
        fixture.scheduler.stepWallClock(Duration.ofHours(-1));
        fixture.scheduler.advanceBy(INTERVAL.multipliedBy(3));

        assertThat(verdicts(fixture, steppedAt, steppedAt.plusSeconds(20))).as("verdicts while it was an hour ahead")
                .isNotEmpty().allSatisfy(verdict -> assertThat(verdict).isEqualTo("verdict SCALE_DOWN action HOLD"));
        assertThat(fixture.observer.count("wall clock stepped")).as("the step and its correction").isBetween(1L, 2L);
        assertThat(fixture.resources.writes(A)).as("nothing scaled").isEmpty();
        assertThat(fixture.observer.lines(A)).filteredOn(line -> line.startsWith("verdict")).last()
                .isEqualTo("verdict SCALE_UP action SCALE_UP");
    }

    @Test
    void aStepBackHoldsVerdictsTooSoNoExpiredShootIsTakenForHealthy() {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 43);
        SimulatedShoot.Shoot a = fixture.addShoot(A, 5, 43);
        fixture.meltdown(a);
        assertThat(fixture.resources.replicas(A, KCM)).isZero();
        int scaleUps = fixture.observer.lines(A).stream().filter(line -> line.startsWith("flow UP started")).toList().size();

        fixture.scheduler.stepWallClock(Duration.ofHours(-1));
        fixture.scheduler.advanceBy(Duration.ofSeconds(37)); // the next run comes within an interval and its jitter
        Instant held = fixture.observer.events().stream()
                .filter(event -> event.namespace().equals(A) && event.what().equals("verdict SCALE_UP action HOLD"))
                .map(Event::at).findFirst().orElseThrow();
        fixture.scheduler.advanceTo(held.plus(INTERVAL).minusMillis(1));

        assertThat(fixture.observer.count("wall clock stepped")).isOne();
        assertThat(fixture.observer.lines(A).stream().filter(line -> line.startsWith("flow UP started")).toList())
                .as("no scale-up for an interval: expired leases looked renewed in the future").hasSize(scaleUps);
        assertThat(fixture.resources.replicas(A, MCM)).isZero();
    }

    /** When the shoot's last successful run said its next one comes. */
    private static Instant nextProbe(ProberFixture fixture, String ns) {
        return fixture.observer.nextProbes().stream().filter(event -> event.namespace().equals(ns))
                .map(event -> Instant.parse(event.what())).reduce((first, second) -> second).orElseThrow();
    }

    private static List<String> verdicts(ProberFixture fixture, Instant from, Instant until) {
        return fixture.observer.events().stream()
                .filter(event -> event.what().startsWith("verdict") && !event.at().isBefore(from) && event.at().isBefore(until))
                .map(Event::what).toList();
    }

    @Test
    void driftWithinTheToleranceHoldsNothing() {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 44);
        SimulatedShoot.Shoot a = fixture.addShoot(A, 5, 44);
        fixture.scheduler.advanceBy(Duration.ofSeconds(45));
        fixture.scheduler.stepWallClock(Duration.ofMillis(1_900));
        fixture.scheduler.advanceBy(Duration.ofSeconds(31));
        fixture.scheduler.stepWallClock(Duration.ofSeconds(-1)); // a leap second
        a.cutAll();
        fixture.scheduler.advanceBy(Duration.ofSeconds(60));

        assertThat(fixture.observer.count("wall clock stepped")).isZero();
        assertThat(fixture.resources.replicas(A, KCM)).as("the meltdown is acted on as ever").isZero();
    }
}
