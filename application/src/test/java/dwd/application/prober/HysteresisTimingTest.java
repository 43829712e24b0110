package dwd.application.prober;

import static dwd.application.testing.ProberFixture.KCM;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.testing.ProberFixture;
import dwd.application.testing.RecordingObserver.Event;
import dwd.application.testing.SimulatedShoot;
import dwd.domain.config.ProberConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code failureThreshold} and {@code successThreshold} above 1, where they run: a scale verdict
 * is acted on only after that many verdicts in a row, and each confirming run comes
 * {@link ProberTuning#minProbeSpacing()} (500 ms) after the previous one, not an interval later.
 */
class HysteresisTimingTest {

    private static final String NS = "shoot--dev--damped";

    private static ProberFixture withThresholds(int failureThreshold, int successThreshold, long seed) {
        ProberConfig gardener = ProberFixture.gardenerConfig();
        var config = new ProberConfig(gardener.kubeConfigSecretName(), gardener.probeInterval(),
                gardener.initialDelay(), gardener.probeTimeout(), gardener.backoffJitterFactor(),
                gardener.dependentResourceInfos(), gardener.kcmNodeMonitorGraceDuration(),
                gardener.nodeLeaseFailureFraction(), failureThreshold, successThreshold);
        return new ProberFixture(config, seed);
    }

    @Test
    void aMeltdownIsActedOnAfterThreeScaleDownVerdictsHalfASecondApart() {
        var fixture = withThresholds(3, 2, 51);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 51);

        fixture.meltdown(shoot);

        List<Event> verdicts = events(fixture, "verdict SCALE_DOWN");
        assertThat(verdicts).extracting(Event::what).startsWith(
                "verdict SCALE_DOWN action none", "verdict SCALE_DOWN action none", "verdict SCALE_DOWN action SCALE_DOWN");
        assertThat(Duration.between(verdicts.get(0).at(), verdicts.get(1).at())).isEqualTo(Duration.ofMillis(500));
        assertThat(Duration.between(verdicts.get(1).at(), verdicts.get(2).at())).isEqualTo(Duration.ofMillis(500));
        Instant firstWrite = events(fixture, "scaled").getFirst().at();
        assertThat(firstWrite).as("the scale-down starts with the third verdict").isEqualTo(verdicts.get(2).at());
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
    }

    @Test
    void aScaleUpNeedsTwoVerdictsInARowAndAnOppositeVerdictStartsTheCountAgain() {
        var fixture = withThresholds(3, 2, 52);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 52);
        fixture.meltdown(shoot);
        int scaleUpsBefore = events(fixture, "flow UP started").size();

        shoot.heal();
        Instant healed = fixture.scheduler.now();
        fixture.scheduler.advanceBy(Duration.ofSeconds(40));

        List<Event> upVerdicts = events(fixture, "verdict SCALE_UP").stream()
                .filter(event -> !event.at().isBefore(healed)).toList();
        assertThat(upVerdicts).extracting(Event::what)
                .startsWith("verdict SCALE_UP action none", "verdict SCALE_UP action SCALE_UP");
        assertThat(Duration.between(upVerdicts.get(0).at(), upVerdicts.get(1).at())).isEqualTo(Duration.ofMillis(500));
        assertThat(events(fixture, "flow UP started")).hasSizeGreaterThan(scaleUpsBefore);
        assertThat(events(fixture, "flow UP started").get(scaleUpsBefore).at()).isEqualTo(upVerdicts.get(1).at());
        assertThat(fixture.resources.replicas(NS, KCM)).isEqualTo(3);
    }

    @Test
    void aSingleScaleDownVerdictAmongHealthyOnesScalesNothing() {
        var fixture = withThresholds(2, 1, 53);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 53);
        fixture.scheduler.advanceBy(Duration.ofSeconds(45));
        shoot.cutAll();
        for (int step = 0; step < 600 && events(fixture, "verdict SCALE_DOWN").isEmpty(); step++) {
            fixture.scheduler.advanceBy(Duration.ofMillis(100));
        }
        shoot.heal(); // renewed before the confirming run, 500 ms after the first scale-down verdict
        fixture.scheduler.advanceBy(Duration.ofSeconds(60));

        assertThat(events(fixture, "verdict SCALE_DOWN")).extracting(Event::what)
                .containsExactly("verdict SCALE_DOWN action none");
        assertThat(fixture.resources.writes(NS)).as("one scale-down verdict alone scales nothing").isEmpty();
        assertThat(fixture.resources.replicas(NS, KCM)).isEqualTo(3);
    }

    private static List<Event> events(ProberFixture fixture, String prefix) {
        return fixture.observer.events().stream()
                .filter(event -> event.namespace().equals(NS) && event.what().startsWith(prefix)).toList();
    }
}
