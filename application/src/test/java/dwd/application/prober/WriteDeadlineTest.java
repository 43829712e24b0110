package dwd.application.prober;

import static dwd.application.testing.ProberFixture.CA;
import static dwd.application.testing.ProberFixture.KCM;
import static dwd.application.testing.ProberFixture.MCM;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.testing.InMemoryResources.Write;
import dwd.application.testing.ProberFixture;
import dwd.application.testing.RecordingObserver.Event;
import dwd.application.testing.SimulatedShoot;
import dwd.domain.config.DependentResourceInfo;
import dwd.domain.config.ProberConfig;
import dwd.domain.config.ScaleInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Scale writes end before a newer verdict can come, and a write that got no answer is in doubt: it
 * may still land, so no decision to send nothing is taken on the version it was made at until the
 * dependent is seen past it. The case: a scale-down PATCH the network held for 18 s landed 10 s after
 * the verdict had turned to scale-up, which had found kube-controller-manager up and scaled
 * machine-controller-manager up: KCM at 0 while MCM ran. Virtual time, one write per dependent (as
 * Deployments), dependents cached.
 */
class WriteDeadlineTest {

    private static final String NS = "shoot--dev--deadlines";

    @Test
    void everyWriteIsGivenUpByTheShootsNextProbeRun() {
        var fixture = deploymentsWithMinuteLongWrites(21);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 21);
        fixture.resources.fixReadyReplicas(NS, MCM, 2); // MCM's pods take their time: KCM's write comes 5 s later

        fixture.meltdown(shoot);

        List<Write> scaleDowns = fixture.resources.writes(NS);
        assertThat(scaleDowns).extracting(Write::name).containsExactlyInAnyOrder(MCM, CA, KCM);
        for (Write write : scaleDowns) {
            Instant nextProbe = nextProbeAnnouncedBy(fixture, write.at());
            assertThat(write.deadline()).as("%s's deadline", write.name())
                    .isEqualTo(Duration.between(write.at(), nextProbe)).isLessThan(Duration.ofSeconds(60));
        }
        Write kcm = scaleDowns.stream().filter(write -> write.name().equals(KCM)).findFirst().orElseThrow();
        assertThat(kcm.deadline()).as("KCM's write, 5 s into the flow").isLessThanOrEqualTo(Duration.ofSeconds(31));
    }

    @Test
    void aScaleDownHeldByTheNetworkThatLandsAfterTheVerdictTurnedNeverLeavesKcmDownWhileMcmRuns() {
        // KCM's write is given up when the next probe is due, which finds the nodes back.
        var fixture = deploymentsWithMinuteLongWrites(22);
        fixture.resources.keepCache();
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 22);
        List<String> kcmDownWhileMcmRuns = kcmDownWhileMcmRuns(fixture);
        // KCM's scale-down gets no answer; meanwhile the nodes come back; it lands 10 s after its deadline.
        fixture.resources.holdNextWrite(NS, KCM, fixture.scheduler, Duration.ofSeconds(10), shoot::heal);

        fixture.meltdown(shoot);
        fixture.scheduler.advanceBy(Duration.ofMinutes(2));

        assertThat(kcmDownWhileMcmRuns).isEmpty();
        assertTheLateWriteLandedThenKcmWasScaledUp(fixture);
        List<String> order = fixture.resources.writes(NS).stream().map(write -> write.name() + " " + write.description())
                .filter(write -> write.contains("scale 0->")).map(write -> write.substring(0, write.indexOf(" scale"))).toList();
        assertThat(order).as("scale-ups, in order").containsExactly(KCM, MCM, CA);
        assertThat(fixture.resources.replicas(NS, KCM)).isEqualTo(3);
        assertThat(fixture.resources.replicas(NS, MCM)).isEqualTo(2);
        assertThat(fixture.resources.replicas(NS, CA)).isEqualTo(1);
    }

    @Test
    void aHeldScaleDownRetriedBeforeAnyNewVerdictLandsOnceAndTheLateCopyIsRefused() {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(Duration.ZERO), 23);
        fixture.resources.scaleAndAnnotateInOneWrite();
        fixture.resources.keepCache();
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 23);
        // The answer is lost, but the probe interval has time left: the retry writes at the same version.
        fixture.resources.holdNextWrite(NS, KCM, fixture.scheduler, Duration.ofSeconds(10), () -> { });

        fixture.meltdown(shoot);
        fixture.scheduler.advanceBy(Duration.ofMinutes(1));

        assertThat(fixture.resources.writeDescriptions(NS, KCM)).satisfiesExactly(
                retried -> assertThat(retried).startsWith("scale 3->0 and annotate"),
                late -> assertThat(late).startsWith("held write refused"));
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
        assertThat(fixture.resources.annotations(NS, KCM)).containsEntry("dependency-watchdog.gardener.cloud/replicas", "3");
    }

    @Test
    void aStepOfTheWallClockNeitherStretchesNorCutsAWritesDeadline() {
        for (Duration step : List.of(Duration.ofHours(1), Duration.ofHours(-1))) {
            var fixture = deploymentsWithMinuteLongWrites(24);
            SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 24);
            fixture.resources.fixReadyReplicas(NS, MCM, 2); // KCM's write comes 5 s after MCM's
            // The wall clock steps as MCM's write goes out, before KCM's deadline is set.
            fixture.resources.beforeWrite(NS, MCM, 0, () -> fixture.scheduler.stepWallClock(step));

            fixture.meltdown(shoot);

            Write mcm = firstWriteOf(fixture, MCM);
            Write kcm = firstWriteOf(fixture, KCM);
            assertThat(Duration.between(mcm.at(), kcm.at())).isEqualTo(Duration.ofSeconds(5));
            assertThat(kcm.deadline()).as("a step of %s: KCM's write still ends when the next probe is due", step)
                    .isEqualTo(mcm.deadline().minusSeconds(5));
        }
    }

    @Test
    void aStepForwardOfTheWallClockDoesNotEndADoubt() {
        var fixture = deploymentsWithMinuteLongWrites(25);
        fixture.resources.keepCache();
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 25);
        List<String> kcmDownWhileMcmRuns = kcmDownWhileMcmRuns(fixture);
        // KCM's scale-down gets no answer and lands 10 s after its deadline, when the nodes are back; 2 s
        // after that deadline, while the scale-up waits on the doubt, the wall clock jumps an hour ahead.
        fixture.resources.holdNextWrite(NS, KCM, fixture.scheduler, Duration.ofSeconds(10), () -> {
            shoot.heal();
            stepTheWallClockAfterTheNextProbe(fixture, Duration.ofHours(1));
        });

        fixture.meltdown(shoot);
        fixture.scheduler.advanceBy(Duration.ofMinutes(2));

        assertThat(kcmDownWhileMcmRuns).isEmpty();
        assertTheLateWriteLandedThenKcmWasScaledUp(fixture);
        assertThat(fixture.resources.replicas(NS, MCM)).isEqualTo(2);
    }

    @Test
    void aStepBackOfTheWallClockDoesNotStretchADoubt() {
        var fixture = deploymentsWithMinuteLongWrites(26);
        fixture.resources.keepCache();
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 26);
        Instant[] timedOut = new Instant[1];
        Duration[] deadline = new Duration[1];
        // KCM's scale-down gets no answer and does not land within the test; 2 s after its deadline the
        // wall clock jumps an hour back.
        fixture.resources.holdNextWrite(NS, KCM, fixture.scheduler, Duration.ofMinutes(10), () -> {
            shoot.heal();
            deadline[0] = stepTheWallClockAfterTheNextProbe(fixture, Duration.ofHours(-1)); // the write's deadline
            timedOut[0] = fixture.scheduler.unsteppedNow().plus(deadline[0]);
        });

        fixture.meltdown(shoot);
        fixture.scheduler.advanceBy(Duration.ofMinutes(2));

        assertThat(fixture.resources.replicas(NS, KCM)).as("the held write has not landed").isEqualTo(3);
        Instant mcmUp = fixture.resources.writes(NS).stream()
                .filter(write -> write.name().equals(MCM) && write.description().startsWith("scale 0->"))
                .map(Write::at).findFirst().orElseThrow(() -> new AssertionError("MCM was not scaled up"))
                .plus(Duration.ofHours(1));
        assertThat(mcmUp).as("the scale-up waited on the doubt for the write's deadline again, not an hour more")
                .isBetween(timedOut[0].plus(deadline[0]), timedOut[0].plus(deadline[0]).plusSeconds(2));
    }

    /**
     * The wall clock steps by {@code step} 2 s after the shoot's next probe run is due, when a write held
     * now has timed out and is in doubt.
     *
     * @return how long until that probe run: the held write's deadline
     */
    private static Duration stepTheWallClockAfterTheNextProbe(ProberFixture fixture, Duration step) {
        Duration untilNextProbe = Duration.between(fixture.scheduler.now(),
                nextProbeAnnouncedBy(fixture, fixture.scheduler.now()));
        fixture.scheduler.schedule(untilNextProbe.plusSeconds(2), () -> fixture.scheduler.stepWallClock(step));
        return untilNextProbe;
    }

    private static void assertTheLateWriteLandedThenKcmWasScaledUp(ProberFixture fixture) {
        assertThat(fixture.resources.writeDescriptions(NS, KCM)).as("the late write landed, then KCM was scaled up")
                .satisfiesExactly(
                        landed -> assertThat(landed).startsWith("scale 3->0 and annotate"),
                        up -> assertThat(up).startsWith("scale 0->3 and annotate"));
    }

    private static Write firstWriteOf(ProberFixture fixture, String name) {
        return fixture.resources.writes(NS).stream().filter(write -> write.name().equals(name)).findFirst().orElseThrow();
    }

    private static List<String> kcmDownWhileMcmRuns(ProberFixture fixture) {
        List<String> seen = new ArrayList<>();
        fixture.resources.afterEachWrite(() -> {
            if (fixture.resources.replicas(NS, KCM) == 0 && fixture.resources.replicas(NS, MCM) > 0) {
                seen.add(fixture.scheduler.now() + " " + fixture.resources.writes(NS).getLast());
            }
        });
        return seen;
    }

    private static Instant nextProbeAnnouncedBy(ProberFixture fixture, Instant at) {
        return fixture.observer.nextProbes().stream()
                .filter(event -> event.namespace().equals(NS) && !event.at().isAfter(at))
                .map(Event::what).map(Instant::parse).reduce((earlier, later) -> later).orElseThrow();
    }

    /**
     * Gardener's config (machine-controller-manager's scale-up delay at 0) with writes that may take a
     * minute, against a probe every 30 s (plus up to 20 % jitter); one write per dependent, as Deployments.
     */
    private static ProberFixture deploymentsWithMinuteLongWrites(long seed) {
        var fixture = new ProberFixture(withScaleTimeouts(ProberFixture.gardenerConfig(Duration.ZERO),
                Duration.ofSeconds(60)), seed);
        fixture.resources.scaleAndAnnotateInOneWrite();
        return fixture;
    }

    private static ProberConfig withScaleTimeouts(ProberConfig config, Duration timeout) {
        List<DependentResourceInfo> dependents = config.dependentResourceInfos().stream()
                .map(info -> new DependentResourceInfo(info.ref(), info.optional(),
                        new ScaleInfo(info.scaleUp().level(), info.scaleUp().initialDelay(), timeout),
                        new ScaleInfo(info.scaleDown().level(), info.scaleDown().initialDelay(), timeout)))
                .toList();
        return new ProberConfig(config.kubeConfigSecretName(), config.probeInterval(), config.initialDelay(),
                config.probeTimeout(), config.backoffJitterFactor(), dependents, config.kcmNodeMonitorGraceDuration(),
                config.nodeLeaseFailureFraction(), config.failureThreshold(), config.successThreshold());
    }
}
