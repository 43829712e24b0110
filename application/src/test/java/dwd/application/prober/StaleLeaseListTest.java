package dwd.application.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.testing.ProberFixture;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A prober starved of CPU evaluates a lease list long after the server answered it. Lease ages are
 * reckoned at the instant the list was asked for, so renewed leases are never taken for expired
 * ones, however late the evaluation (the scale benchmark saw false scale-downs from such lists).
 */
class StaleLeaseListTest {

    private static final String NS = "shoot--dev--starved";

    @Test
    void aLeaseListEvaluatedLongAfterItsAnswerDoesNotScaleDownAShootWhoseKubeletsRenew() {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 11);
        var shoot = fixture.addShoot(NS, 5, 13); // KCM 3, MCM 2, CA 1
        fixture.scheduler.advanceBy(Duration.ofSeconds(31)); // the initial delay: the first run
        assertThat(fixture.observer.verdicts()).hasSize(1);

        // Every lease is at most one renew interval old when the server answers; the answer reaches
        // the evaluation 45 s later, beyond the 40 s grace period.
        shoot.delayNextLeaseAnswer(Duration.ofSeconds(45));
        fixture.scheduler.advanceBy(Duration.ofSeconds(40));

        assertThat(fixture.observer.verdicts()).hasSizeGreaterThanOrEqualTo(2)
                .extracting(LeaseVerdict::decision).doesNotContain(Decision.SCALE_DOWN);
        assertThat(fixture.resources.replicas(NS, ProberFixture.KCM)).isEqualTo(3);
        assertThat(fixture.resources.replicas(NS, ProberFixture.MCM)).isEqualTo(2);
        fixture.supervisor.close();
    }
}
