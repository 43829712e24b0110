package dwd.application.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ProberObservers;
import dwd.application.testing.ProberFixture;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Every probe run reports how long after its scheduled instant it started (dwd_probe_lateness_seconds). */
class ProbeLatenessTest {

    private static final String NS = "shoot--dev--late";

    /** Records the lateness of each run and the next run each run announced. */
    private static final class Lateness implements ProberObserver {
        final List<Duration> reported = new ArrayList<>();
        final List<Instant> announced = new ArrayList<>();

        @Override
        public void probeRunStarted(String ns, Duration lateness) {
            reported.add(lateness);
        }

        @Override
        public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
            announced.add(nextProbe);
        }
    }

    @Test
    void aRunOnTimeReportsZeroAndALateRunReportsHowLateItStarted() {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 3);
        var lateness = new Lateness();
        var supervisor = new ProbeSupervisor(fixture.config, ProberTuning.defaults(), fixture.scheduler, fixture.shoots,
                fixture.shoots, fixture.resources, ProberObservers.of(fixture.observer, lateness), new SplittableRandom(3));
        fixture.resources.put(NS, ProberFixture.KCM, 3);
        fixture.resources.put(NS, ProberFixture.MCM, 2);
        fixture.resources.put(NS, ProberFixture.CA, 1);
        fixture.shoots.addShoot(NS, 3, new SplittableRandom(5));
        supervisor.clusterChanged(NS, ProberFixture.healthyShoot());

        fixture.scheduler.advanceBy(Duration.ofSeconds(30)); // the initial delay: the first run, on time
        assertThat(lateness.reported).containsExactly(Duration.ZERO);

        Instant due = lateness.announced.getLast();
        fixture.scheduler.advanceTo(due.minusMillis(1));
        fixture.scheduler.elapse(Duration.ofMillis(1_251)); // the clock passes the due instant, the run has not started
        fixture.scheduler.runDue();
        assertThat(lateness.reported).containsExactly(Duration.ZERO, Duration.ofMillis(1_250));
        supervisor.close();
    }
}
