package dwd.application.prober;

import static dwd.application.testing.ProberFixture.CA;
import static dwd.application.testing.ProberFixture.KCM;
import static dwd.application.testing.ProberFixture.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.application.port.out.ApiFailure;
import dwd.application.testing.InMemoryResources.Write;
import dwd.application.testing.ProberFixture;
import dwd.application.testing.SimulatedShoot;
import dwd.domain.scaling.Annotations;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Scale flows of the prober on virtual time, with Gardener's plan (original-dwd §5, design §3.1, §3.5). */
class ScaleFlowTest {

    private static final String NS = "shoot--dev--flows";

    private final ProberFixture fixture = new ProberFixture(ProberFixture.gardenerConfig(), 1);
    private final SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 1);

    private Instant firstWrite(String name, String prefix) {
        return fixture.resources.writes(NS).stream()
                .filter(w -> w.name().equals(name) && w.description().startsWith(prefix))
                .map(Write::at).findFirst().orElseThrow(() -> new AssertionError("no " + prefix + " of " + name));
    }

    @Test
    void meltdownScalesMcmAndCaTogetherThenKcmRecordingTheirReplicas() {
        fixture.meltdown(shoot);

        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
        assertThat(fixture.resources.replicas(NS, MCM)).isZero();
        assertThat(fixture.resources.replicas(NS, CA)).isZero();
        assertThat(fixture.resources.annotations(NS, KCM)).isEqualTo(Map.of(
                Annotations.REPLICAS, "3", Annotations.MELTDOWN_PROTECTION_ACTIVE, ""));
        assertThat(fixture.resources.annotations(NS, MCM)).containsEntry(Annotations.REPLICAS, "2");
        assertThat(fixture.resources.annotations(NS, CA)).containsEntry(Annotations.REPLICAS, "1");
        assertThat(firstWrite(MCM, "scale")).isEqualTo(firstWrite(CA, "scale"));
        assertThat(firstWrite(KCM, "annotate")).isAfterOrEqualTo(firstWrite(MCM, "scale"));
        List<String> kcmWrites = fixture.resources.writes(NS).stream()
                .filter(w -> w.name().equals(KCM)).map(Write::description).toList();
        assertThat(kcmWrites).as("replicas recorded before the scale, once").containsExactly(
                "annotate " + Annotations.MELTDOWN_PROTECTION_ACTIVE + "= " + Annotations.REPLICAS + "=3",
                "scale 3->0");
    }

    /** What a bug or an exhausted JVM throws in a step. */
    private static final class StepError extends Error {
        StepError() {
            super("injected");
        }
    }

    @Test
    void anErrorInAStepFailsItsFlowAndTheShootsNextFlowRunsAllTheSame() {
        fixture.resources.throwNext(NS, MCM, new StepError()); // in the healthy shoot's first scale-up check

        assertThatThrownBy(() -> fixture.scheduler.advanceBy(Duration.ofSeconds(45)))
                .as("the Error goes on to the scheduler").isInstanceOf(StepError.class);
        fixture.meltdown(shoot);

        assertThat(fixture.observer.lines(NS)).contains("failed " + MCM + ": unexpected error: " + new StepError(),
                "flow UP FAILED");
        assertThat(fixture.resources.replicas(NS, MCM)).as("the meltdown's flow ran").isZero();
        assertThat(fixture.resources.replicas(NS, CA)).isZero();
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
    }

    @Test
    void recoveryScalesKcmFirstThenMcmAfterItsDelayThenCaRestoringCountsAndRemovingAnnotations() {
        fixture.meltdown(shoot);
        shoot.heal();
        Instant healed = fixture.scheduler.now();
        fixture.scheduler.advanceBy(Duration.ofSeconds(120));

        assertThat(fixture.resources.replicas(NS, KCM)).isEqualTo(3);
        assertThat(fixture.resources.replicas(NS, MCM)).isEqualTo(2);
        assertThat(fixture.resources.replicas(NS, CA)).isEqualTo(1);
        for (String name : List.of(KCM, MCM, CA)) {
            assertThat(fixture.resources.annotations(NS, name)).as(name).isEmpty();
        }
        Instant kcmUp = firstWrite(KCM, "scale 0->3");
        Instant mcmUp = firstWrite(MCM, "scale 0->2");
        Instant caUp = firstWrite(CA, "scale 0->1");
        assertThat(kcmUp).isAfterOrEqualTo(healed).isBefore(healed.plusSeconds(37));
        assertThat(Duration.between(kcmUp, mcmUp)).isGreaterThanOrEqualTo(Duration.ofSeconds(30));
        assertThat(caUp).isAfterOrEqualTo(mcmUp);
        List<String> upScales = fixture.resources.writes(NS).stream()
                .filter(w -> w.description().startsWith("scale 0->")).map(Write::name).toList();
        assertThat(upScales).containsExactly(KCM, MCM, CA);
    }

    @Test
    void aMissingMandatoryResourceStopsLaterLevelsAndAMissingOptionalOneIsSkipped() {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 2);
        var shoot = fixture.shoots.addShoot(NS, 5, new java.util.SplittableRandom(2));
        fixture.resources.put(NS, KCM, 3);
        fixture.resources.put(NS, MCM, 2); // no cluster-autoscaler: it is optional
        fixture.supervisor.clusterChanged(NS, ProberFixture.healthyShoot());
        fixture.meltdown(shoot);
        assertThat(fixture.resources.replicas(NS, MCM)).isZero();
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
        assertThat(fixture.observer.lines(NS)).contains("skipped " + CA + ": not found; it is optional");

        // Now kube-controller-manager (level 0 of the scale-up) is missing: nothing later may move.
        var broken = new ProberFixture(ProberFixture.gardenerConfig(), 3);
        var shoot2 = broken.shoots.addShoot(NS, 5, new java.util.SplittableRandom(3));
        broken.resources.put(NS, MCM, 0);
        broken.resources.put(NS, CA, 0);
        broken.supervisor.clusterChanged(NS, ProberFixture.healthyShoot());
        broken.scheduler.advanceBy(Duration.ofMinutes(3));
        assertThat(broken.resources.replicas(NS, MCM)).isZero();
        assertThat(broken.resources.replicas(NS, CA)).isZero();
        assertThat(broken.resources.writes(NS)).isEmpty();
        assertThat(broken.observer.lines(NS)).anyMatch(line -> line.startsWith("failed " + KCM + ":") && line.contains("not found"));
        assertThat(broken.observer.lines(NS)).contains("flow UP FAILED");
        assertThat(shoot2.nodeNames()).hasSize(5);
    }

    @Test
    void ignoreScalingSkipsTheResourceAndClearsALeftoverMeltdownAnnotation() {
        fixture.resources.putAnnotation(NS, MCM, Annotations.IGNORE_SCALING, "True");
        fixture.resources.putAnnotation(NS, MCM, Annotations.MELTDOWN_PROTECTION_ACTIVE, "");
        fixture.meltdown(shoot);
        assertThat(fixture.resources.replicas(NS, MCM)).isEqualTo(2);
        assertThat(fixture.resources.annotations(NS, MCM)).isEqualTo(Map.of(Annotations.IGNORE_SCALING, "True"));
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
    }

    @Test
    void aNewScaleDownVerdictCancelsAScaleUpWaitingOnItsDelayBeforeItWritesAnything() {
        // MCM's scale-up delay is 2 minutes here, so the network breaks again while it waits.
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(Duration.ofMinutes(2)), 5);
        var shoot = fixture.addShoot(NS, 5, 5);
        fixture.meltdown(shoot);
        shoot.heal();
        fixture.scheduler.advanceBy(Duration.ofSeconds(40)); // KCM is back; MCM waits on its delay
        assertThat(fixture.resources.replicas(NS, KCM)).isEqualTo(3);
        assertThat(fixture.resources.replicas(NS, MCM)).isZero();
        shoot.cutAll(); // the network breaks again during MCM's delay
        fixture.scheduler.advanceBy(Duration.ofSeconds(90));

        assertThat(fixture.resources.replicas(NS, MCM)).as("never scaled up by the cancelled flow").isZero();
        assertThat(fixture.resources.writes(NS).stream().filter(w -> w.name().equals(MCM)).map(Write::description))
                .noneMatch(d -> d.startsWith("scale 0->"));
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
        assertThat(fixture.resources.annotations(NS, MCM)).containsEntry(Annotations.REPLICAS, "2");
        assertThat(fixture.resources.annotations(NS, KCM)).containsEntry(Annotations.REPLICAS, "3");
        assertThat(fixture.observer.lines(NS)).contains("flow UP CANCELLED");
    }

    @Test
    void aTransientFailureIsRetriedWithinItsFlowAfterTheBackOffAndAReadFailureOfTheShootScalesNothing() {
        // The healthy checks before the meltdown decide on the cache and send nothing: the meltdown's write is
        // the first call on MCM, and the one that fails.
        fixture.resources.keepCache();
        fixture.scheduler.advanceBy(Duration.ofSeconds(45));
        fixture.resources.failNext(NS, MCM, new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "connection reset"));
        shoot.cutAll();
        fixture.scheduler.advanceBy(Duration.ofSeconds(60));
        assertThat(fixture.resources.replicas(NS, MCM)).isZero();
        assertThat(fixture.observer.lines(NS)).as("the meltdown's first flow, retried, not a later one")
                .noneMatch(line -> line.startsWith("failed " + MCM))
                .filteredOn(line -> line.startsWith("flow DOWN")).startsWith("flow DOWN started", "flow DOWN COMPLETED");
        assertThat(Duration.between(firstWrite(CA, "annotate"), firstWrite(MCM, "annotate")))
                .as("MCM's second attempt, the back-off after its first, beside CA of the same level")
                .isEqualTo(ProberTuning.defaults().retryBackoff());

        var other = new ProberFixture(ProberFixture.gardenerConfig(), 4);
        var otherShoot = other.addShoot(NS, 5, 4);
        other.scheduler.advanceBy(Duration.ofSeconds(45));
        otherShoot.cutAll();
        for (int i = 0; i < 20; i++) {
            otherShoot.failNext(SimulatedShoot.Call.LEASES, new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "read timeout"));
        }
        other.scheduler.advanceBy(Duration.ofMinutes(3));
        assertThat(other.resources.writes(NS)).as("no verdict, no scaling").isEmpty();
        assertThat(other.observer.lines(NS)).contains("probe failed LEASES UNAVAILABLE");
    }
}
