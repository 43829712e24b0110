package dwd.application.shadow;

import static dwd.application.testing.ProberFixture.CA;
import static dwd.application.testing.ProberFixture.KCM;
import static dwd.application.testing.ProberFixture.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ShadowObserver.Answer;
import dwd.application.port.out.ShadowObserver.WouldScale;
import dwd.application.port.out.ShadowObserver.Write;
import dwd.application.prober.ProbeSupervisor;
import dwd.application.prober.ProberTuning;
import dwd.application.testing.InMemoryResources;
import dwd.application.testing.ProberFixture;
import dwd.application.testing.RecordingObserver;
import dwd.application.testing.SimulatedShoot;
import dwd.application.testing.VirtualScheduler;
import dwd.domain.dryrun.DryRunMode;
import dwd.domain.scaling.Annotations;
import dwd.domain.scaling.ScaleDirection;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The prober in shadow mode, on virtual time with Gardener's plan: nothing changes, each would-be step is reported once. */
class ShadowProberTest {

    private static final String NS = "shoot--dev--shadow";
    private static final String REPLICAS = Annotations.REPLICAS;
    private static final String MELTDOWN = Annotations.MELTDOWN_PROTECTION_ACTIVE;

    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final SimulatedShoot shoots = new SimulatedShoot(scheduler);
    private final InMemoryResources seed = new InMemoryResources(scheduler);
    private final DryRunSeed serverSide = new DryRunSeed(seed);
    private final RecordingObserver observer = new RecordingObserver(scheduler);
    private final RecordingShadowObserver reports = new RecordingShadowObserver(scheduler);
    private ShadowScalableResources shadow;

    ShadowProberTest() {
        seed.put(NS, KCM, 3);
        seed.put(NS, MCM, 2);
        seed.put(NS, CA, 1);
    }

    /** Starts probing the shoot in {@code mode}; server mode sends its writes to {@link #serverSide}. */
    private SimulatedShoot.Shoot probe(DryRunMode mode) {
        var ports = new ShadowMode(mode, reports).prober(mode == DryRunMode.SERVER ? serverSide : seed, observer);
        shadow = (ShadowScalableResources) ports.resources();
        var supervisor = new ProbeSupervisor(ProberFixture.gardenerConfig(), ProberTuning.defaults(), scheduler, shoots,
                shoots, ports.resources(), ports.observer(), new SplittableRandom(1));
        var shoot = shoots.addShoot(NS, 5, new SplittableRandom(7));
        supervisor.clusterChanged(NS, ProberFixture.healthyShoot());
        return shoot;
    }

    private void meltdownFor(SimulatedShoot.Shoot shoot, Duration duration) {
        scheduler.advanceBy(Duration.ofSeconds(45));
        shoot.cutAll();
        scheduler.advanceBy(duration);
    }

    private void assertSeedUnchanged() {
        assertThat(seed.writes()).isEmpty();
        assertThat(List.of(seed.replicas(NS, KCM), seed.replicas(NS, MCM), seed.replicas(NS, CA))).containsExactly(3, 2, 1);
        for (String name : List.of(KCM, MCM, CA)) {
            assertThat(seed.annotations(NS, name)).as(name).isEmpty();
        }
    }

    private static List<String> changes(WouldScale scaling) {
        return scaling.writes().stream().map(Write::change).toList();
    }

    private static List<Answer> answers(WouldScale scaling) {
        return scaling.writes().stream().map(Write::answer).toList();
    }

    @ParameterizedTest
    @EnumSource(names = {"CLIENT", "SERVER"})
    void aMeltdownAndItsRecoveryChangeNothingAndEachDependentIsReportedOnceEachWay(DryRunMode mode) {
        var shoot = probe(mode);
        meltdownFor(shoot, Duration.ofMinutes(10)); // some 20 probes, each confirming the scale-down

        assertSeedUnchanged();
        List<WouldScale> down = reports.scalings();
        assertThat(down).extracting(WouldScale::ref).extracting(ref -> ref.name()).hasSize(3)
                .endsWith(KCM).containsExactlyInAnyOrder(MCM, CA, KCM);
        assertThat(down).allSatisfy(scaling -> {
            assertThat(scaling.direction()).isEqualTo(ScaleDirection.DOWN);
            assertThat(scaling.mode()).isEqualTo(mode);
            assertThat(scaling.to()).isZero();
            assertThat(changes(scaling)).containsExactly(
                    "annotate " + MELTDOWN + "=\"\", " + REPLICAS + "=\"" + scaling.from() + "\"", "scale to 0 replicas");
            assertThat(answers(scaling)).containsOnly(mode == DryRunMode.CLIENT ? new Answer.NotSent() : new Answer.Accepted());
        });
        assertThat(down).extracting(WouldScale::from).containsExactlyInAnyOrder(3, 2, 1);
        assertThat(shadow.divergences()).hasSize(3);

        shoot.heal();
        scheduler.advanceBy(Duration.ofMinutes(10));

        assertSeedUnchanged();
        List<WouldScale> up = reports.scalings().subList(3, reports.scalings().size());
        assertThat(up).extracting(scaling -> scaling.ref().name()).containsExactly(KCM, MCM, CA);
        assertThat(up).extracting(WouldScale::from).containsOnly(0);
        assertThat(up).extracting(WouldScale::to).containsExactly(3, 2, 1);
        assertThat(changes(up.getFirst())).containsExactly("scale to 3 replicas",
                "remove annotations " + MELTDOWN + ", " + REPLICAS);
        assertThat(Duration.between(reports.timeOf(up.get(0)), reports.timeOf(up.get(1))))
                .as("MCM's scale-up delay is waited in shadow mode too").isGreaterThanOrEqualTo(Duration.ofSeconds(30));
        assertThat(shadow.divergences()).as("the shadow is the seed again").isEmpty();
        assertThat(observer.lines(NS)).as("the ordinary observers hear of no scaling").noneMatch(line -> line.startsWith("scaled"));
        if (mode == DryRunMode.SERVER) {
            assertThat(serverSide.sentWrites()).as("two dry-run writes per step, each sent once").hasSize(12);
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"CLIENT", "SERVER"})
    void whereTheSeedScalesInOneWriteEachStepIsOneWouldBeWriteAndStillChangesNothing(DryRunMode mode) {
        seed.scaleAndAnnotateInOneWrite();
        var shoot = probe(mode);
        meltdownFor(shoot, Duration.ofMinutes(10));

        assertSeedUnchanged();
        List<WouldScale> down = reports.scalings();
        assertThat(down).hasSize(3).allSatisfy(scaling -> {
            assertThat(changes(scaling)).containsExactly("scale to 0 replicas and annotate " + MELTDOWN + "=\"\", "
                    + REPLICAS + "=\"" + scaling.from() + "\"");
            assertThat(answers(scaling)).containsOnly(mode == DryRunMode.CLIENT ? new Answer.NotSent() : new Answer.Accepted());
        });
        assertThat(shadow.divergences()).as("the would-be scale and record are both in the shadow").hasSize(3)
                .allSatisfy(divergent -> {
                    assertThat(divergent.replicas()).hasValue(0);
                    assertThat(divergent.annotations()).containsKeys(MELTDOWN, REPLICAS);
                });

        shoot.heal();
        scheduler.advanceBy(Duration.ofMinutes(10));

        assertSeedUnchanged();
        List<WouldScale> up = reports.scalings().subList(3, reports.scalings().size());
        assertThat(up).extracting(WouldScale::to).containsExactly(3, 2, 1);
        assertThat(changes(up.getFirst())).containsExactly("scale to 3 replicas and remove annotations " + MELTDOWN + ", "
                + REPLICAS);
        assertThat(shadow.divergences()).as("the shadow is the seed again").isEmpty();
        if (mode == DryRunMode.SERVER) {
            assertThat(serverSide.sentWrites()).as("one dry-run write per step").hasSize(6);
        }
    }

    @Test
    void aRefusedWriteIsAFindingReportedOnceAndTheFlowAndTheProbesGoOn() {
        serverSide.refuse(MCM, "scale", ApiFailure.Kind.FORBIDDEN);
        var shoot = probe(DryRunMode.SERVER);
        meltdownFor(shoot, Duration.ofMinutes(10));

        assertSeedUnchanged();
        List<WouldScale> down = reports.scalings();
        assertThat(down).extracting(scaling -> scaling.ref().name()).containsExactlyInAnyOrder(MCM, CA, KCM);
        WouldScale mcm = down.stream().filter(scaling -> scaling.ref().name().equals(MCM)).findFirst().orElseThrow();
        assertThat(mcm.findings()).containsExactly(
                new Answer.Refused(ApiFailure.Kind.FORBIDDEN, "scale of " + MCM + ": simulated FORBIDDEN"));
        assertThat(answers(mcm).getFirst()).as("its annotation patch would work").isEqualTo(new Answer.Accepted());
        assertThat(down.getLast().ref().name()).as("the next level is checked too").isEqualTo(KCM);
        assertThat(down.getLast().findings()).isEmpty();
        assertThat(serverSide.sentWrites()).filteredOn(write -> write.startsWith("scale " + MCM)).hasSize(1);
        assertThat(observer.lines(NS)).as("no failed step").noneMatch(line -> line.startsWith("failed"));
        assertThat(observer.verdicts()).as("probing goes on").hasSizeGreaterThan(15);
    }

    @Test
    void aWriteThatGetsNoAnswerIsRetriedLikeARealWriteAndReportedOnceItIsAnswered() {
        var shoot = probe(DryRunMode.SERVER);
        scheduler.advanceBy(Duration.ofSeconds(45));
        serverSide.unreachableFor(1);
        shoot.cutAll();
        scheduler.advanceBy(Duration.ofMinutes(5));

        assertThat(reports.scalings()).hasSize(3).allSatisfy(scaling ->
                assertThat(answers(scaling)).containsExactly(new Answer.Accepted(), new Answer.Accepted()));
        assertSeedUnchanged();
    }

    @Test
    void whenSomeoneElseScalesADependentTheShadowFollowsTheSeed() {
        var shoot = probe(DryRunMode.CLIENT);
        meltdownFor(shoot, Duration.ofMinutes(2));
        assertThat(reports.scalings()).hasSize(3);

        seed.setReplicas(NS, KCM, 5); // an operator scales kube-controller-manager up during the meltdown
        scheduler.advanceBy(Duration.ofMinutes(2));

        assertThat(reports.scalings()).hasSize(4);
        WouldScale again = reports.scalings().getLast();
        assertThat(again.ref().name()).isEqualTo(KCM);
        assertThat(again.from()).isEqualTo(5);
        assertThat(changes(again)).containsExactly(
                "annotate " + MELTDOWN + "=\"\", " + REPLICAS + "=\"5\"", "scale to 0 replicas");
    }

    @Test
    void aLeftoverMeltdownAnnotationOnAnIgnoredDependentIsReportedOnceAsAnAnnotationChange() {
        seed.putAnnotation(NS, MCM, Annotations.IGNORE_SCALING, "true");
        seed.putAnnotation(NS, MCM, MELTDOWN, "");
        var shoot = probe(DryRunMode.CLIENT);
        meltdownFor(shoot, Duration.ofMinutes(5));

        assertThat(reports.annotations()).singleElement().satisfies(annotation -> {
            assertThat(annotation.ref().name()).isEqualTo(MCM);
            assertThat(annotation.writes()).containsExactly(new Write("remove annotation " + MELTDOWN, new Answer.NotSent()));
        });
        assertThat(reports.scalings()).extracting(scaling -> scaling.ref().name()).containsExactlyInAnyOrder(CA, KCM);
        assertThat(seed.annotations(NS, MCM)).containsEntry(MELTDOWN, "");
        assertThat(seed.writes()).isEmpty();
    }

    @Test
    void serverModeRefusesResourcesThatWouldWriteForReal() {
        assertThatThrownBy(() -> new ShadowMode(DryRunMode.SERVER, reports).prober(seed, observer))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dryRun=All");
    }

    @Test
    void withoutShadowModeThePortsAreTheSeedsOwn() {
        var ports = ShadowMode.off().prober(seed, observer);
        assertThat(ports.resources()).isSameAs(seed);
        assertThat(ports.observer()).isSameAs(observer);
    }

    @Test
    void theShadowObserverPassesOnEveryProberEventItDoesNotTurnIntoAReport() throws Exception {
        for (Method method : ProberObserver.class.getMethods()) {
            if (Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            assertThat(ShadowProberObserver.class.getMethod(method.getName(), method.getParameterTypes()).getDeclaringClass())
                    .as("ShadowProberObserver decides what to do with %s%s", method.getName(),
                            Arrays.toString(method.getParameterTypes()))
                    .isEqualTo(ShadowProberObserver.class);
        }
    }

    @Test
    void aWriteWithoutARecentReadIsBasedOnTheSeedReadThen() {
        var resources = new ShadowScalableResources(DryRunMode.CLIENT, seed);
        var kcm = ProberFixture.deployment(KCM, false, 0, Duration.ZERO, 0).ref();
        resources.scaleAt(NS, kcm, seed.version(NS, KCM), 0, Duration.ofSeconds(1));
        assertThat(resources.read(NS, kcm, Duration.ofSeconds(1)).orElseThrow().specReplicas()).isZero();
        assertThat(resources.takeUnreported(NS, kcm)).containsExactly(new Write("scale to 0 replicas", new Answer.NotSent()));
        assertThat(resources.takeUnreported(NS)).isEmpty();
        assertThat(seed.replicas(NS, KCM)).isEqualTo(3);
    }

    @Test
    void answersAreWordedForTheLog() {
        assertThat(LoggingShadowObserver.answer(new Answer.NotSent())).isEqualTo("not sent");
        assertThat(LoggingShadowObserver.answer(new Answer.Accepted())).isEqualTo("would succeed");
        assertThat(LoggingShadowObserver.answer(new Answer.Refused(ApiFailure.Kind.FORBIDDEN, "403 Forbidden: no")))
                .isEqualTo("FINDING: would be forbidden: 403 Forbidden: no");
        assertThat(LoggingShadowObserver.answer(new Answer.Refused(ApiFailure.Kind.CONFLICT, "409")))
                .isEqualTo("FINDING: would conflict: 409");
        assertThat(ShadowScalableResources.describe(Map.of("b", Optional.empty(), "a", Optional.of("1"))))
                .isEqualTo("annotate a=\"1\"; remove annotation b");
    }

    @Test
    void onlyAnswersAboutTheWriteAreFindings() {
        for (ApiFailure.Kind kind : ApiFailure.Kind.values()) {
            boolean finding = ServerAnswers.isAnswerAboutTheWrite(new ApiFailure(kind, "x"));
            assertThat(finding).as("%s", kind).isEqualTo(List.of(ApiFailure.Kind.FORBIDDEN, ApiFailure.Kind.UNAUTHORIZED,
                    ApiFailure.Kind.CONFLICT, ApiFailure.Kind.NOT_FOUND, ApiFailure.Kind.INVALID).contains(kind));
        }
        assertThat(ServerAnswers.send(DryRunMode.CLIENT, () -> { throw new AssertionError("sent"); }))
                .isEqualTo(new Answer.NotSent());
    }

}
