package dwd.application.prober;

import static dwd.application.testing.ProberFixture.CA;
import static dwd.application.testing.ProberFixture.KCM;
import static dwd.application.testing.ProberFixture.MCM;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ApiFailure;
import dwd.application.testing.ProberFixture;
import dwd.application.testing.SimulatedShoot;
import dwd.domain.scaling.Annotations;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where the kind allows (Deployments, StatefulSets), a scale and its record are one write at the
 * version decided on: a meltdown sends one write per dependent, a change between the decision and
 * the write is decided again and recorded, and a failed write leaves neither half behind.
 */
class OneWriteScalesTest {

    private static final String NS = "shoot--dev--onewrite";
    private static final String SCALE_DOWN_3 = "scale 3->0 and annotate " + Annotations.MELTDOWN_PROTECTION_ACTIVE
            + "= " + Annotations.REPLICAS + "=3";

    private final ProberFixture fixture = new ProberFixture(ProberFixture.gardenerConfig(), 3);
    private final SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 3);

    OneWriteScalesTest() {
        fixture.resources.scaleAndAnnotateInOneWrite();
        fixture.resources.keepCache();
    }

    private void meltdown() {
        fixture.meltdown(shoot);
    }

    private List<String> writes(String name) {
        return fixture.resources.writeDescriptions(NS, name);
    }

    @Test
    void aMeltdownSendsOneWritePerDependentAndARecoveryOneMore() {
        var before = new HashMap<String, Integer>();
        for (String name : List.of(KCM, MCM, CA)) {
            before.put(name, fixture.resources.replicas(NS, name));
        }
        meltdown();

        assertThat(writes(KCM)).containsExactly(SCALE_DOWN_3);
        assertThat(fixture.resources.writesAt()).as("one write per dependent, no conflict").isEqualTo(3);
        for (String name : List.of(KCM, MCM, CA)) {
            assertThat(fixture.resources.replicas(NS, name)).as(name).isZero();
            assertThat(fixture.resources.annotations(NS, name)).as(name)
                    .containsEntry(Annotations.REPLICAS, Integer.toString(before.get(name)))
                    .containsKey(Annotations.MELTDOWN_PROTECTION_ACTIVE);
        }
        assertThat(fixture.resources.reads()).as("decided on the cache").isZero();
        assertThat(fixture.observer.count("scaled " + KCM + " 3->0")).isEqualTo(1);

        shoot.heal();
        fixture.scheduler.advanceBy(Duration.ofSeconds(120));
        assertThat(writes(KCM)).containsExactly(SCALE_DOWN_3, "scale 0->3 and annotate "
                + Annotations.MELTDOWN_PROTECTION_ACTIVE + "- " + Annotations.REPLICAS + "-");
        for (String name : List.of(KCM, MCM, CA)) {
            assertThat(fixture.resources.replicas(NS, name)).as(name).isEqualTo(before.get(name));
            assertThat(fixture.resources.annotations(NS, name)).as(name).isEmpty();
        }
    }

    @Test
    void replicasChangedBeforeTheWriteAreDecidedAgainAndRecorded() {
        fixture.resources.beforeWrite(NS, KCM, 0, () -> fixture.resources.setReplicas(NS, KCM, 4));
        meltdown();

        assertThat(writes(KCM)).as("the write decided on 3 did not land; decided again on a read").containsExactly(
                "scale 4->0 and annotate " + Annotations.MELTDOWN_PROTECTION_ACTIVE + "= " + Annotations.REPLICAS + "=4");
        assertThat(fixture.resources.reads()).isEqualTo(1);

        shoot.heal();
        fixture.scheduler.advanceBy(Duration.ofSeconds(120));
        assertThat(fixture.resources.replicas(NS, KCM)).as("the count that was replaced comes back").isEqualTo(4);
    }

    @Test
    void aFailedWriteLeavesTheResourceAsItWasAndIsRetried() {
        int replicas = fixture.resources.replicas(NS, MCM);
        fixture.resources.failNext(NS, MCM, new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "seed unreachable"));
        meltdown();

        assertThat(writes(MCM)).as("the failed write changed nothing; the retry wrote both halves")
                .containsExactly("scale " + replicas + "->0 and annotate " + Annotations.MELTDOWN_PROTECTION_ACTIVE + "= "
                        + Annotations.REPLICAS + "=" + replicas);
        assertThat(fixture.resources.replicas(NS, MCM)).isZero();
        assertThat(fixture.resources.annotations(NS, MCM)).containsEntry(Annotations.REPLICAS, Integer.toString(replicas));
    }
}
