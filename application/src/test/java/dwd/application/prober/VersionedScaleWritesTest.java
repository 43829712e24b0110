package dwd.application.prober;

import static dwd.application.testing.ProberFixture.CA;
import static dwd.application.testing.ProberFixture.KCM;
import static dwd.application.testing.ProberFixture.MCM;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.testing.ProberFixture;
import dwd.application.testing.SimulatedShoot;
import dwd.domain.config.ResourceRef;
import dwd.domain.scaling.Annotations;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Scale flows decided on the seed's cache, their writes made at the version they were decided on: no
 * read while the cache holds the dependents, and a change landing between a decision and a write
 * (an operator, an HPA, a cache a moment behind) is never lost: the recorded count is always the one
 * the scale to 0 replaced.
 */
class VersionedScaleWritesTest {

    private static final String NS = "shoot--dev--versioned";
    private static final String RECORD_3 = "annotate " + Annotations.MELTDOWN_PROTECTION_ACTIVE + "= " + Annotations.REPLICAS + "=3";
    private static final String RECORD_4 = "annotate " + Annotations.MELTDOWN_PROTECTION_ACTIVE + "= " + Annotations.REPLICAS + "=4";

    private final ProberFixture fixture = new ProberFixture(ProberFixture.gardenerConfig(), 3);
    private final SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 3);

    private void meltdown() {
        fixture.meltdown(shoot);
    }

    private List<String> writes(String name) {
        return fixture.resources.writeDescriptions(NS, name);
    }

    @Test
    void aMeltdownDecidedOnTheCacheReadsNothingAndWritesAsWithoutIt() {
        fixture.resources.keepCache();
        meltdown();

        assertThat(fixture.resources.reads()).as("decisions and readiness waits on the cache, repeated flows too").isZero();
        assertThat(writes(KCM)).containsExactly(RECORD_3, "scale 3->0");
        assertThat(fixture.resources.writesAt()).as("one record and one scale per dependent, no conflict").isEqualTo(6);
        for (String name : List.of(KCM, MCM, CA)) {
            assertThat(fixture.resources.replicas(NS, name)).as(name).isZero();
        }
        assertThat(fixture.observer.count("scaled " + KCM + " 3->0")).isEqualTo(1);
    }

    @Test
    void withoutTheCacheEveryDecisionIsARead() {
        meltdown();
        assertThat(writes(KCM)).containsExactly(RECORD_3, "scale 3->0");
        assertThat(fixture.resources.writesAt()).isEqualTo(6);
        assertThat(fixture.resources.reads()).isPositive();
    }

    @Test
    void replicasChangedBetweenTheDecisionAndTheRecordAreTheOnesRecorded() {
        fixture.resources.keepCache();
        fixture.resources.beforeWrite(NS, KCM, 0, () -> fixture.resources.setReplicas(NS, KCM, 4));
        meltdown();

        assertThat(writes(KCM)).as("the record decided on 3 did not land; decided again on a read")
                .containsExactly(RECORD_4, "scale 4->0");
        assertThat(fixture.resources.annotations(NS, KCM)).containsEntry(Annotations.REPLICAS, "4");
        assertThat(fixture.resources.reads()).isEqualTo(1);
        assertThat(fixture.observer.count("scaled " + KCM + " 4->0")).isEqualTo(1);
    }

    @Test
    void replicasChangedBetweenTheRecordAndTheScaleAreRecordedBeforeTheyAreReplaced() {
        fixture.resources.keepCache();
        fixture.resources.beforeWrite(NS, KCM, 1, () -> fixture.resources.setReplicas(NS, KCM, 4));
        meltdown();

        assertThat(writes(KCM)).as("the scale at the record's version did not land; the new count is recorded first")
                .containsExactly(RECORD_3, RECORD_4, "scale 4->0");
        assertThat(fixture.resources.annotations(NS, KCM)).containsEntry(Annotations.REPLICAS, "4");

        shoot.heal();
        fixture.scheduler.advanceBy(Duration.ofSeconds(120));
        assertThat(fixture.resources.replicas(NS, KCM)).as("the count that was replaced comes back").isEqualTo(4);
    }

    @Test
    void aCacheBehindTheSeedNeverDecidesAWrite() {
        fixture.resources.keepCache();
        fixture.resources.freezeCache(NS, KCM, new ResourceRef("apps/v1", "Deployment", KCM));
        fixture.resources.setReplicas(NS, KCM, 5); // the cache still shows 3
        meltdown();

        assertThat(writes(KCM)).containsExactly(
                "annotate " + Annotations.MELTDOWN_PROTECTION_ACTIVE + "= " + Annotations.REPLICAS + "=5", "scale 5->0");

        fixture.resources.thawCache(NS, KCM);
        fixture.resources.freezeCache(NS, KCM, new ResourceRef("apps/v1", "Deployment", KCM));
        fixture.resources.putAnnotation(NS, KCM, Annotations.REPLICAS, "6"); // an operator corrects the record
        shoot.heal();
        fixture.scheduler.advanceBy(Duration.ofSeconds(120));
        assertThat(fixture.resources.replicas(NS, KCM)).as("the scale-up restores the count on the resource").isEqualTo(6);
        assertThat(fixture.resources.annotations(NS, KCM)).isEmpty();
    }

    @Test
    void aResourceThatKeepsChangingFailsItsStepAfterBoundedRetries() {
        fixture.resources.keepCache();
        int[] count = {3};
        for (int i = 0; i < 3 * DependentStep.DECISIONS_PER_ATTEMPT; i++) {
            fixture.resources.beforeWrite(NS, MCM, 0, () -> fixture.resources.setReplicas(NS, MCM, ++count[0]));
        }
        meltdown();

        assertThat(fixture.observer.events()).anySatisfy(event -> assertThat(event.what())
                .startsWith("failed " + MCM + ":").contains("changed before each of 5 writes"));
        assertThat(writes(MCM)).as("no write landed until the changes stopped; a later flow scaled it down")
                .containsExactly("annotate " + Annotations.MELTDOWN_PROTECTION_ACTIVE + "= " + Annotations.REPLICAS + "="
                        + count[0], "scale " + count[0] + "->0");
    }
}
