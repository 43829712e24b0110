package dwd.application.prober;

import static dwd.application.testing.ProberFixture.CA;
import static dwd.application.testing.ProberFixture.KCM;
import static dwd.application.testing.ProberFixture.MCM;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.testing.ProberFixture;
import dwd.application.testing.SimulatedShoot;
import dwd.domain.scaling.Annotations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A clean-up that removes a replica count's record (a leftover one, or a scale-up's after its scale)
 * gets no answer, and lands after a later scale-down wrote its record: it would leave the dependent at
 * 0 with no record, and the next scale-up would bring it back at 1. Clean-ups are made at the version
 * they were decided on, so the late one is refused. Virtual time; kube-controller-manager's count is 3.
 */
class LateCleanUpTest {

    private static final String NS = "shoot--dev--late-clean-up";

    /** Every write that leaves kube-controller-manager at 0 without its count recorded. */
    private static List<String> kcmCountLostAfterEachWrite(ProberFixture fixture) {
        List<String> lost = new ArrayList<>();
        fixture.resources.afterEachWrite(() -> {
            if (fixture.resources.replicas(NS, KCM) == 0
                    && !"3".equals(fixture.resources.annotations(NS, KCM).get(Annotations.REPLICAS))) {
                lost.add(fixture.scheduler.now() + " " + fixture.resources.writes(NS).getLast());
            }
        });
        return lost;
    }

    /** After the scale-down: the late clean-up was refused, the count kept, and the recovery restores it. */
    private static void assertTheLateCleanUpWasRefusedAndKcmCameBackAt3(ProberFixture fixture,
            SimulatedShoot.Shoot shoot, List<String> lost) {
        assertThat(lost).isEmpty();
        assertThat(fixture.resources.writeDescriptions(NS, KCM)).anySatisfy(
                write -> assertThat(write).startsWith("held write refused"));
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
        assertThat(fixture.resources.annotations(NS, KCM)).containsEntry(Annotations.REPLICAS, "3");
        shoot.heal();
        fixture.scheduler.advanceBy(Duration.ofMinutes(2));
        assertThat(fixture.resources.replicas(NS, KCM)).isEqualTo(3);
    }

    @ParameterizedTest(name = "one write per scale: {0}")
    @ValueSource(booleans = {false, true})
    void aLeftoverRecordsRemovalThatLandsAfterALaterScaleDownIsRefused(boolean oneWriteScales) {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(Duration.ZERO), 31);
        if (oneWriteScales) {
            fixture.resources.scaleAndAnnotateInOneWrite();
        }
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 31);
        // Up, with the record of an earlier meltdown left on it (an operator scaled it up meanwhile).
        fixture.resources.putAnnotation(NS, KCM, Annotations.REPLICAS, "3");
        fixture.resources.putAnnotation(NS, KCM, Annotations.MELTDOWN_PROTECTION_ACTIVE, "");
        List<String> lost = kcmCountLostAfterEachWrite(fixture);
        // The first scale-up check removes the record; that request gets no answer, the nodes go away
        // meanwhile, and it reaches the API server two minutes after its deadline.
        fixture.resources.holdNextWrite(NS, KCM, fixture.scheduler, Duration.ofMinutes(2), shoot::cutAll);

        fixture.scheduler.advanceBy(Duration.ofMinutes(4));

        assertTheLateCleanUpWasRefusedAndKcmCameBackAt3(fixture, shoot, lost);
        assertThat(fixture.resources.annotations(NS, KCM)).isEmpty();
    }

    @Test
    void aScaleUpsRecordRemovalThatLandsAfterALaterScaleDownIsRefused() {
        // Two writes per scale (a kind other than Deployment and StatefulSet): the scale, then the removal.
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(Duration.ZERO), 32);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 32);
        fixture.meltdown(shoot);
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
        List<String> lost = kcmCountLostAfterEachWrite(fixture);
        // The scale-up's scale lands; its record's removal gets no answer, the nodes go away again, and it
        // reaches the API server two minutes after its deadline.
        fixture.resources.beforeWrite(NS, KCM, 1, () -> fixture.resources.holdNextWrite(NS, KCM, fixture.scheduler,
                Duration.ofMinutes(2), shoot::cutAll));
        shoot.heal();

        fixture.scheduler.advanceBy(Duration.ofMinutes(4));

        assertTheLateCleanUpWasRefusedAndKcmCameBackAt3(fixture, shoot, lost);
        assertThat(fixture.resources.replicas(NS, MCM)).isEqualTo(2);
        assertThat(fixture.resources.replicas(NS, CA)).isEqualTo(1);
    }
}
