package dwd.application.prober;

import static dwd.application.testing.ProberFixture.CA;
import static dwd.application.testing.ProberFixture.KCM;
import static dwd.application.testing.ProberFixture.MCM;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.testing.InMemoryResources.Write;
import dwd.application.testing.ProberFixture;
import dwd.domain.config.ResourceRef;
import dwd.domain.scaling.Annotations;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A healthy shoot's scale-up after every probe, with a cache of the seed's dependents: it reads
 * nothing while the cache shows every dependent up and clean, and does what it did without the cache
 * whenever there is something to do.
 */
class CachedScaleUpTest {

    private static final String NS = "shoot--dev--cached";
    private static final ResourceRef KCM_REF = new ResourceRef("apps/v1", "Deployment", KCM);

    private final ProberFixture fixture = new ProberFixture(ProberFixture.gardenerConfig(), 7);

    {
        fixture.addShoot(NS, 5, 7);
    }

    private long healthyRuns() {
        return fixture.observer.count("verdict SCALE_UP action SCALE_UP");
    }

    private List<String> writes() {
        return fixture.resources.writes(NS).stream().map(write -> write.name() + " " + write.description()).toList();
    }

    @Test
    void healthyRunsReadNoDependentWhileTheCacheShowsThemUp() {
        fixture.scheduler.advanceBy(Duration.ofSeconds(31));
        assertThat(healthyRuns()).isEqualTo(1);
        assertThat(fixture.resources.reads()).as("without a cache: each dependent read once").isEqualTo(3);

        fixture.resources.keepCache();
        fixture.scheduler.advanceBy(Duration.ofMinutes(5));
        assertThat(healthyRuns()).isGreaterThanOrEqualTo(9);
        assertThat(fixture.resources.reads()).as("no read since the cache is kept").isEqualTo(3);
        assertThat(fixture.resources.writes(NS)).isEmpty();
    }

    @Test
    void aDependentScaledToZeroIsScaledUpAsWithoutTheCache() {
        fixture.resources.keepCache();
        fixture.scheduler.advanceBy(Duration.ofSeconds(31));
        fixture.resources.setReplicas(NS, KCM, 0);
        fixture.scheduler.advanceBy(Duration.ofSeconds(37));
        assertThat(fixture.resources.replicas(NS, KCM)).as("no replicas annotation: the default, 1").isEqualTo(1);
        assertThat(writes()).containsExactly(KCM + " scale 0->1",
                KCM + " annotate " + Annotations.MELTDOWN_PROTECTION_ACTIVE + "- " + Annotations.REPLICAS + "-");
    }

    @Test
    void aLeftoverMeltdownAnnotationIsStillRemoved() {
        fixture.resources.keepCache();
        fixture.resources.putAnnotation(NS, MCM, Annotations.MELTDOWN_PROTECTION_ACTIVE, "");
        fixture.scheduler.advanceBy(Duration.ofSeconds(31));
        assertThat(fixture.resources.annotations(NS, MCM)).isEmpty();
        assertThat(fixture.resources.writes(NS)).extracting(Write::name).containsExactly(MCM);
    }

    @Test
    void anIgnoredDependentIsStillReportedAsSkipped() {
        fixture.resources.keepCache();
        fixture.resources.putAnnotation(NS, CA, Annotations.IGNORE_SCALING, "true");
        fixture.scheduler.advanceBy(Duration.ofSeconds(31));
        assertThat(fixture.observer.count("skipped " + CA)).isEqualTo(1);
    }

    @Test
    void aCacheBehindAnOutsideScaleToZeroDelaysTheScaleUpByOneProbe() {
        fixture.resources.keepCache();
        fixture.scheduler.advanceBy(Duration.ofSeconds(31));
        fixture.resources.freezeCache(NS, KCM, KCM_REF); // still shows 3 replicas
        fixture.resources.setReplicas(NS, KCM, 0);
        advanceToTheNextRun();
        assertThat(fixture.resources.replicas(NS, KCM)).as("the cache said up: nothing done this run").isZero();

        fixture.resources.thawCache(NS, KCM);
        advanceToTheNextRun();
        assertThat(fixture.resources.replicas(NS, KCM)).as("the next run, with the cache caught up").isEqualTo(1);
    }

    /** Until the next healthy run (and the flow it starts) has happened. */
    private void advanceToTheNextRun() {
        long runs = healthyRuns();
        while (healthyRuns() == runs) {
            fixture.scheduler.advanceBy(Duration.ofMillis(100));
        }
        fixture.scheduler.advanceBy(Duration.ofMillis(100));
    }
}
