package dwd.application.comparison;

import static dwd.application.testing.ProberFixture.CA;
import static dwd.application.testing.ProberFixture.KCM;
import static dwd.application.testing.ProberFixture.MCM;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ProberObservers;
import dwd.application.port.out.ShadowObserver;
import dwd.application.prober.ProbeSupervisor;
import dwd.application.prober.ProberTuning;
import dwd.application.shadow.ShadowMode;
import dwd.application.testing.InMemoryResources;
import dwd.application.testing.ProberFixture;
import dwd.application.testing.RecordingObserver;
import dwd.application.testing.SimulatedShoot;
import dwd.application.testing.VirtualScheduler;
import dwd.domain.comparison.Act;
import dwd.domain.comparison.Episode;
import dwd.domain.comparison.EpisodeKind;
import dwd.domain.comparison.Outcome;
import dwd.domain.dryrun.DryRunMode;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A shadow-mode prober that compares itself with the original, on virtual time with Gardener's plan: the
 * test plays the original (its writes to the seed and the watch that shows them) and the shoot's kubelets.
 */
class BesideTheOriginalTest {

    private static final String NS = "shoot--dev--beside";
    private static final Duration WINDOW = Duration.ofMinutes(5);

    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final SimulatedShoot shoots = new SimulatedShoot(scheduler);
    private final InMemoryResources seed = new InMemoryResources(scheduler);
    private final RecordingComparisonObserver decided = new RecordingComparisonObserver();
    private final Comparison comparison = new Comparison(
            Comparison.Settings.prober(WINDOW, ProberFixture.gardenerConfig()), scheduler, decided);
    private final OriginalDependents dependents = new OriginalDependents(OriginalAtWork.MANAGER, scheduler, comparison);
    private final OriginalAtWork original = new OriginalAtWork(seed, dependents, scheduler::now);
    private final SimulatedShoot.Shoot shoot;

    BesideTheOriginalTest() {
        seed.put(NS, KCM, 3);
        seed.put(NS, MCM, 2);
        seed.put(NS, CA, 1);
        OriginalAtWork.gardenerDependents().forEach(name -> original.created(NS, name));
        var dwd = new DwdProberActions(scheduler, comparison);
        var ports = new ShadowMode(DryRunMode.CLIENT, dwd).prober(new WithoutOriginalWrites(seed, dependents),
                ProberObservers.of(new RecordingObserver(scheduler), dwd));
        var supervisor = new ProbeSupervisor(ProberFixture.gardenerConfig(), ProberTuning.defaults(), scheduler, shoots,
                shoots, ports.resources(), ports.observer(), new SplittableRandom(1));
        shoot = shoots.addShoot(NS, 5, new SplittableRandom(7));
        supervisor.clusterChanged(NS, ProberFixture.healthyShoot());
        scheduler.advanceBy(Duration.ofSeconds(45));
    }

    @Test
    void aMeltdownAndARecoveryDwdActsOnFirstAreBothEpisodesOfBoth() {
        int writesBefore = seed.writes().size();
        shoot.cutAll();
        scheduler.advanceBy(Duration.ofSeconds(40)); // dwd acts before the grace period ends
        List.of(MCM, CA, KCM).forEach(name -> original.scaleDown(NS, name)); // the original, a probe later
        scheduler.advanceBy(Duration.ofSeconds(90)); // dwd probes on, and reads the dependents the original scaled

        shoot.heal();
        scheduler.advanceBy(Duration.ofSeconds(5)); // dwd hears the renewals on its lease watch
        List.of(KCM, MCM, CA).forEach(name -> original.scaleUp(NS, name)); // the original, at its next probe
        scheduler.advanceBy(Duration.ofMinutes(2)); // MCM's and CA's 30 s delay

        assertThat(decided.episodes).extracting(Episode::kind).containsExactly(EpisodeKind.MELTDOWN, EpisodeKind.RECOVERY);
        Episode meltdown = decided.episodes.get(0);
        assertThat(meltdown.outcome()).as(meltdown.judgement().reason()).isEqualTo(Outcome.BOTH);
        assertThat(meltdown.dwd()).extracting(Act::label).containsExactlyInAnyOrder(MCM, CA, KCM);
        assertThat(meltdown.dwd().getLast().label()).isEqualTo(KCM);
        assertThat(meltdown.judgement().lead().orElseThrow()).isPositive();
        assertThat(meltdown.dwd().getFirst().why()).contains("3 expired");
        Episode recovery = decided.episodes.get(1);
        assertThat(recovery.outcome()).as("dwd decides as if the original had not restored them: "
                + recovery.judgement().reason()).isEqualTo(Outcome.BOTH);
        assertThat(recovery.dwd()).extracting(Act::label, Act::to).containsExactly(
                org.assertj.core.groups.Tuple.tuple(KCM, 3), org.assertj.core.groups.Tuple.tuple(MCM, 2),
                org.assertj.core.groups.Tuple.tuple(CA, 1));
        assertThat(recovery.judgement().lead().orElseThrow()).as("dwd was first, at the crossing back").isPositive();
        assertThat(seed.writes()).as("only the original's writes: dwd runs in shadow mode").hasSize(writesBefore + 12);
    }

    @Test
    void aMeltdownTheOriginalActsOnFirstIsStillOneDwdWouldHaveActedOn() {
        shoot.cutAll();
        scheduler.advanceBy(Duration.ofSeconds(5));
        List.of(MCM, CA, KCM).forEach(name -> original.scaleDown(NS, name));
        scheduler.advanceBy(Duration.ofSeconds(60));

        assertThat(decided.episodes).singleElement().satisfies(episode -> {
            assertThat(episode.outcome()).as(episode.judgement().reason()).isEqualTo(Outcome.BOTH);
            assertThat(episode.dwd()).extracting(Act::from).containsExactlyInAnyOrder(3, 2, 1);
            assertThat(episode.judgement().lead().orElseThrow()).isNegative();
        });
    }

    @Test
    void aMeltdownTheOriginalSleepsThroughIsDwdOnlyOnceTheWindowIsOver() {
        shoot.cutAll();
        scheduler.advanceBy(Duration.ofSeconds(40));
        assertThat(decided.episodes).as("within the window the original may still act").isEmpty();

        scheduler.advanceBy(WINDOW);

        assertThat(decided.episodes).singleElement().satisfies(episode -> {
            assertThat(episode.outcome()).isEqualTo(Outcome.DWD_ONLY);
            assertThat(episode.original()).isEmpty();
            assertThat(episode.dwd()).hasSize(3);
        });
    }

    @Test
    void aDependentScaledByHandIsNotTheOriginalsActionAndDwdSeesTheNewCount() {
        original.kubectlScale(NS, KCM, 2);
        scheduler.advanceBy(WINDOW);

        assertThat(decided.episodes).isEmpty();
        assertThat(decided.otherChanges).singleElement().satisfies(change -> {
            assertThat(change.target()).isEqualTo(KCM);
            assertThat(change.change()).isEqualTo("replicas 3→2");
            assertThat(change.writer()).isEqualTo("kubectl");
        });
        assertThat(dependents.view(NS, OriginalAtWork.ref(KCM)).orElseThrow().specReplicas()).isEqualTo(2);

        shoot.cutAll();
        scheduler.advanceBy(Duration.ofSeconds(40));
        assertThat(comparison.report().open()).singleElement().satisfies(episode -> assertThat(episode.dwd())
                .filteredOn(act -> act.label().equals(KCM)).extracting(Act::from).containsExactly(2));
    }

    @Test
    void whileTheOriginalHoldsADependentDownDwdSeesItAsItWasAndAHandsScaleAsItIs() {
        shoot.cutAll();
        scheduler.advanceBy(Duration.ofSeconds(40));
        long before = Long.parseLong(dependents.view(NS, OriginalAtWork.ref(KCM)).orElseThrow().version());
        original.scaleDown(NS, KCM);
        assertThat(dependents.view(NS, OriginalAtWork.ref(KCM)).orElseThrow())
                .satisfies(view -> {
                    assertThat(view.specReplicas()).isEqualTo(3);
                    assertThat(view.annotations()).isEmpty();
                    assertThat(Long.parseLong(view.version())).as("the version of the original's write, to write at")
                            .isGreaterThan(before);
                });

        original.kubectlScale(NS, KCM, 5);

        assertThat(dependents.view(NS, OriginalAtWork.ref(KCM)).orElseThrow().specReplicas()).isEqualTo(5);
        assertThat(dependents.view(NS, OriginalAtWork.ref(KCM)).orElseThrow().annotations())
                .as("the original's record stays out of dwd's view").isEmpty();
    }
}
