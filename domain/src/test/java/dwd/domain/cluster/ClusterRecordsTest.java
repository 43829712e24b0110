package dwd.domain.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterRecordsTest {

    @Test
    void absentFieldsBecomeEmpty() {
        assertThat(new LastOperation(null, null)).isEqualTo(new LastOperation("", ""));
        var worker = new Worker(null, true, null);
        assertThat(worker.name()).isEmpty();
        assertThat(worker.nodeConditions()).isEmpty();
        var shoot = new Shoot(false, null, false, null, null, null);
        assertThat(shoot.hibernationEnabled()).isEmpty();
        assertThat(shoot.lastOperation()).isEmpty();
        assertThat(shoot.workers()).isEmpty();
        assertThat(shoot.nodeMonitorGracePeriod()).isEmpty();
        assertThat(new ClusterShoot.Undecodable(null).reason()).isEmpty();
        assertThat(new Eligibility(ProbeAction.STOP, null).reason()).isEmpty();
    }

    @Test
    void hibernationIsEnabledOnlyWhenTheFlagIsTrue() {
        assertThat(new Shoot(false, Optional.of(true), false, null, null, null).isHibernationEnabled()).isTrue();
        assertThat(new Shoot(false, Optional.of(false), true, null, null, null).isHibernationEnabled()).isFalse();
        assertThat(new Shoot(false, Optional.empty(), true, null, null, null).isHibernationEnabled()).isFalse();
    }

    @Test
    void presentNeedsAShootAndEligibilityAnAction() {
        assertThatThrownBy(() -> new ClusterShoot.Present(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new Eligibility(null, "x")).isInstanceOf(NullPointerException.class);
    }
}
