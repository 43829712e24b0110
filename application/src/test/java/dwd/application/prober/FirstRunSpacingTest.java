package dwd.application.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.health.LoopProgress;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ProberObservers;
import dwd.application.testing.ProberFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Shoots that arrive together (a prober starting on a large seed) get their first runs spread out. */
class FirstRunSpacingTest {

    /** The instant of each shoot's first run. */
    private static final class FirstRuns implements ProberObserver {
        final Map<String, Instant> at = new LinkedHashMap<>();
        private final ProberFixture fixture;

        FirstRuns(ProberFixture fixture) {
            this.fixture = fixture;
        }

        @Override
        public void probeRunStarted(String ns, Duration lateness) {
            at.putIfAbsent(ns, fixture.scheduler.now());
        }
    }

    @Test
    void shootsArrivingTogetherStartOneSpacingApartAndALaterShootAfterTheInitialDelayAlone() {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 3);
        var firstRuns = new FirstRuns(fixture);
        var supervisor = new ProbeSupervisor(fixture.config, ProberTuning.defaults(), fixture.scheduler, fixture.shoots,
                fixture.shoots, fixture.resources, ProberObservers.of(fixture.observer, firstRuns),
                new SplittableRandom(3));
        Instant start = fixture.scheduler.now();
        for (String ns : new String[] {"shoot--a", "shoot--b", "shoot--c"}) {
            addHealthyShoot(fixture, ns);
            supervisor.clusterChanged(ns, ProberFixture.healthyShoot());
        }
        fixture.scheduler.advanceBy(Duration.ofMinutes(1));

        Duration spacing = ProberTuning.defaults().firstRunSpacing();
        Duration initialDelay = fixture.config.initialDelay();
        assertThat(firstRuns.at).containsExactly(
                Map.entry("shoot--a", start.plus(initialDelay)),
                Map.entry("shoot--b", start.plus(initialDelay).plus(spacing)),
                Map.entry("shoot--c", start.plus(initialDelay).plus(spacing.multipliedBy(2))));

        Instant later = fixture.scheduler.now();
        addHealthyShoot(fixture, "shoot--d");
        supervisor.clusterChanged("shoot--d", ProberFixture.healthyShoot());
        fixture.scheduler.advanceBy(Duration.ofMinutes(1));
        assertThat(firstRuns.at).containsEntry("shoot--d", later.plus(initialDelay));
        supervisor.close();
    }

    @Test
    void aProbeWaitingItsTurnForItsFirstRunIsNotStalled() {
        // First runs 1 s apart, a stall tolerance of 2 s: the tenth shoot's first run comes 9 s after the initial delay.
        var tuning = new ProberTuning(3, Duration.ofMillis(100), Optional.empty(), Duration.ofSeconds(1),
                Duration.ofSeconds(10), Duration.ofMillis(500), Duration.ofSeconds(1));
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 4, tuning);
        var loops = LoopProgress.failingWhenMostStall("probe-loops", fixture.scheduler, Duration.ofSeconds(2));
        var supervisor = new ProbeSupervisor(fixture.config, tuning, fixture.scheduler, fixture.shoots, fixture.shoots,
                fixture.resources, new ProbeProgress(loops), new SplittableRandom(4));
        for (int i = 0; i < 10; i++) {
            addHealthyShoot(fixture, "shoot--" + i);
            supervisor.clusterChanged("shoot--" + i, ProberFixture.healthyShoot());
        }

        for (int second = 0; second < 45; second++) {
            fixture.scheduler.advanceBy(Duration.ofSeconds(1));
            assertThat(loops.stalled()).as("%d s after the start", second + 1).isEmpty();
        }
        supervisor.close();
    }

    private static void addHealthyShoot(ProberFixture fixture, String ns) {
        fixture.resources.put(ns, ProberFixture.KCM, 3);
        fixture.resources.put(ns, ProberFixture.MCM, 2);
        fixture.resources.put(ns, ProberFixture.CA, 1);
        fixture.shoots.addShoot(ns, 3, new SplittableRandom(5));
    }
}
