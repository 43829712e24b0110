package dwd.application.prober;

import static dwd.application.testing.ProberFixture.KCM;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ApiFailure;
import dwd.application.testing.ProberFixture;
import dwd.application.testing.RecordingObserver.Event;
import dwd.application.testing.SimulatedShoot;
import dwd.domain.config.ProberConfig;
import dwd.domain.time.SaturatingTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Values a shoot's API server or the config supplies can delay a shoot's probing by a bounded time,
 * never end it: a Retry-After of any size, the largest interval, an exception no port promises.
 */
class HostileShootValuesTest {

    private static final String NS = "shoot--dev--hostile";
    private static final String OTHER = "shoot--dev--neighbour";
    /** Gardener's probe interval is 30 s: a Retry-After holds a probe back by at most two of them. */
    private static final Duration CAP = Duration.ofSeconds(60);

    @ParameterizedTest(name = "Retry-After: {0} s")
    @ValueSource(longs = {Long.MAX_VALUE, 3_155_760_000L /* 100 years */, 61})
    void aRetryAfterHoldsTheNextProbeBackAtMostTwoIntervalsAndAMeltdownBehindItIsActedOn(long seconds) {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 31);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 31);
        SimulatedShoot.Shoot neighbour = fixture.addShoot(OTHER, 5, 32);
        fixture.scheduler.advanceBy(Duration.ofSeconds(45));
        shoot.failNext(SimulatedShoot.Call.VERSION, new ApiFailure(ApiFailure.Kind.THROTTLED, "429",
                Optional.of(Duration.ofSeconds(seconds)), null));
        fixture.scheduler.advanceBy(Duration.ofSeconds(40));
        Instant throttledAt = at(fixture, NS, "probe failed API_SERVER THROTTLED");
        int neighbourRuns = fixture.observer.lines(OTHER).size();

        shoot.cutAll(); // a meltdown just after the 429
        fixture.scheduler.advanceBy(Duration.ofSeconds(90));

        Instant nextRun = shoot.leaseReads().stream().filter(read -> read.isAfter(throttledAt)).findFirst().orElseThrow();
        assertThat(Duration.between(throttledAt, nextRun)).as("the next probe after the 429")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(Math.min(seconds, CAP.toSeconds())))
                .isLessThanOrEqualTo(CAP.plusSeconds(1));
        assertThat(fixture.resources.replicas(NS, KCM)).as("the meltdown behind the Retry-After is acted on").isZero();
        assertThat(fixture.observer.lines(OTHER).size()).as("the neighbour kept being probed")
                .isGreaterThan(neighbourRuns);
        assertThat(neighbour.leaseReads()).isNotEmpty();
    }

    @Test
    void theLargestGoDurationAsProbeIntervalParksTheLoopFarAwayWithoutEndingIt() {
        ProberConfig gardener = ProberFixture.gardenerConfig();
        var config = new ProberConfig(gardener.kubeConfigSecretName(), SaturatingTime.MAX, Duration.ofSeconds(1),
                gardener.probeTimeout(), 0.2, gardener.dependentResourceInfos(), gardener.kcmNodeMonitorGraceDuration(),
                gardener.nodeLeaseFailureFraction(), 1, 1);
        var fixture = new ProberFixture(config, 33);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 33);

        fixture.scheduler.advanceBy(Duration.ofSeconds(2));

        assertThat(shoot.leaseReads()).as("the first run").hasSize(1);
        assertThat(fixture.scheduler.pendingTasks()).as("the next run is scheduled (kubelets' renewals aside)")
                .isGreaterThan(5);
        assertThat(fixture.observer.lines(NS)).contains("verdict SCALE_UP action SCALE_UP");
    }

    @Test
    void aRetryAfterBeyondEveryDurationIsCappedWhateverTheInterval() {
        ProberConfig gardener = ProberFixture.gardenerConfig();
        var config = new ProberConfig(gardener.kubeConfigSecretName(), SaturatingTime.MAX, Duration.ZERO,
                gardener.probeTimeout(), 1.0, gardener.dependentResourceInfos(), gardener.kcmNodeMonitorGraceDuration(),
                gardener.nodeLeaseFailureFraction(), 1, 1);
        var fixture = new ProberFixture(config, 34);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 34);
        shoot.failNext(SimulatedShoot.Call.VERSION, new ApiFailure(ApiFailure.Kind.THROTTLED, "429",
                Optional.of(Duration.ofSeconds(Long.MAX_VALUE)), null));

        fixture.scheduler.advanceBy(Duration.ofSeconds(1));

        assertThat(fixture.observer.lines(NS)).contains("probe failed API_SERVER THROTTLED");
        assertThat(fixture.scheduler.pendingTasks()).as("the loop goes on, far away").isGreaterThan(5);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"IllegalStateException", "StackOverflowError"})
    void anExceptionNoPortPromisesEndsNeitherTheRunsOfTheShootNorItsProtection(String thrown) {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 35);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 35);
        fixture.scheduler.advanceBy(Duration.ofSeconds(45));
        Throwable unexpected = thrown.equals("StackOverflowError") ? new StackOverflowError("deep")
                : new IllegalStateException("a bug");
        shoot.throwNext(SimulatedShoot.Call.NODES, unexpected);
        int readsBefore = shoot.leaseReads().size();

        try {
            fixture.scheduler.advanceBy(Duration.ofSeconds(40));
        } catch (StackOverflowError error) {
            // The virtual scheduler runs tasks on the test's thread, so an Error reaches the test
            // (the production scheduler logs it); the run scheduled its successor before it left.
            fixture.scheduler.advanceBy(Duration.ofSeconds(40));
        }
        shoot.cutAll();
        fixture.scheduler.advanceBy(Duration.ofSeconds(90));

        assertThat(shoot.leaseReads().size()).as("probing went on").isGreaterThan(readsBefore);
        assertThat(fixture.resources.replicas(NS, KCM)).as("a later meltdown is acted on").isZero();
    }

    private static Instant at(ProberFixture fixture, String ns, String what) {
        List<Event> matching = fixture.observer.events().stream()
                .filter(event -> event.namespace().equals(ns) && event.what().equals(what)).toList();
        assertThat(matching).as(what).hasSize(1);
        return matching.getFirst().at();
    }
}
