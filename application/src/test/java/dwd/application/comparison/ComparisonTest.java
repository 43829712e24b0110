package dwd.application.comparison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.application.testing.ProberFixture;
import dwd.application.testing.VirtualScheduler;
import dwd.domain.comparison.Act;
import dwd.domain.comparison.Episode;
import dwd.domain.comparison.EpisodeKind;
import dwd.domain.comparison.OtherChange;
import dwd.domain.comparison.Outcome;
import dwd.domain.comparison.Side;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The book of episodes on virtual time: when an episode is decided, and what it keeps. */
class ComparisonTest {

    private static final String NS = "shoot--dev--book";
    private static final Duration WINDOW = Duration.ofMinutes(1);

    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final RecordingComparisonObserver decided = new RecordingComparisonObserver();
    private final Comparison comparison = new Comparison(Comparison.Settings.prober(WINDOW, ProberFixture.gardenerConfig()),
            scheduler, decided);

    private Act act(String name, int from, int to) {
        return new Act(name, name, from, to, scheduler.now(), "", false);
    }

    @Test
    void aRecoveryIsDecidedOnlyOnceDwdsFlowFinishedAndTheOriginalCoveredItsDependents() {
        comparison.acted(Side.DWD, EpisodeKind.RECOVERY, NS, "", act(ProberFixture.KCM, 0, 3));
        comparison.acted(Side.ORIGINAL, EpisodeKind.RECOVERY, NS, "", act(ProberFixture.KCM, 0, 3));
        scheduler.advanceBy(Duration.ofSeconds(10));
        assertThat(decided.episodes).as("dwd's flow goes on: machine-controller-manager after its delay").isEmpty();

        comparison.acted(Side.DWD, EpisodeKind.RECOVERY, NS, "", act(ProberFixture.MCM, 0, 2));
        comparison.dwdFlowFinished(NS, EpisodeKind.RECOVERY);
        scheduler.advanceBy(Duration.ofSeconds(10));
        assertThat(decided.episodes).as("the original has not restored machine-controller-manager yet").isEmpty();

        comparison.acted(Side.ORIGINAL, EpisodeKind.RECOVERY, NS, "", act(ProberFixture.MCM, 0, 2));
        scheduler.advanceBy(Comparison.SETTLE.minusMillis(1));
        assertThat(decided.episodes).isEmpty();
        scheduler.advanceBy(Duration.ofMillis(1));

        assertThat(decided.episodes).singleElement().satisfies(episode -> {
            assertThat(episode.outcome()).isEqualTo(Outcome.BOTH);
            assertThat(episode.decidedAt()).isBefore(episode.openedAt().plus(WINDOW));
        });
    }

    @Test
    void theOriginalAloneIsOriginalOnlyAtTheEndOfTheWindowAndALaterActionOpensTheNextEpisode() {
        comparison.acted(Side.ORIGINAL, EpisodeKind.RECOVERY, NS, "", act(ProberFixture.KCM, 0, 1));
        scheduler.advanceBy(WINDOW.minusMillis(1));
        assertThat(decided.episodes).isEmpty();
        scheduler.advanceBy(Duration.ofMillis(1));
        comparison.acted(Side.ORIGINAL, EpisodeKind.RECOVERY, NS, "", act(ProberFixture.KCM, 0, 1));
        scheduler.advanceBy(WINDOW);

        assertThat(decided.episodes).extracting(Episode::outcome).containsExactly(Outcome.ORIGINAL_ONLY, Outcome.ORIGINAL_ONLY);
        assertThat(comparison.report().totals()).containsEntry(Outcome.ORIGINAL_ONLY, 2L).containsEntry(Outcome.BOTH, 0L);
    }

    @Test
    void aWeedingEpisodeIsDecidedOnceBothDeletedTheSamePodsAndTwoServicesAreTwoEpisodes() {
        var pod = new Act("uid-0", "kube-apiserver-0", 0, 0, scheduler.now(), "", false);
        comparison.acted(Side.DWD, EpisodeKind.WEEDING, NS, "etcd-main-client", pod);
        comparison.acted(Side.ORIGINAL, EpisodeKind.WEEDING, NS, "kube-apiserver", pod);
        scheduler.advanceBy(Comparison.SETTLE);
        assertThat(decided.episodes).isEmpty();
        comparison.acted(Side.ORIGINAL, EpisodeKind.WEEDING, NS, "etcd-main-client", pod);
        scheduler.advanceBy(Comparison.SETTLE);

        assertThat(decided.episodes).singleElement().satisfies(episode -> {
            assertThat(episode.subject()).isEqualTo("etcd-main-client");
            assertThat(episode.outcome()).isEqualTo(Outcome.BOTH);
        });
        assertThat(comparison.report().open()).singleElement()
                .satisfies(open -> assertThat(open.outcome()).isEqualTo(Outcome.ORIGINAL_ONLY));
    }

    @Test
    void itKeepsTheLastEpisodesAndOtherChangesAndCountsThemAll() {
        for (int i = 0; i < Comparison.KEPT_EPISODES + 5; i++) {
            comparison.acted(Side.DWD, EpisodeKind.MELTDOWN, "shoot--dev--" + i, "", act(ProberFixture.KCM, 3, 0));
        }
        for (int i = 0; i < Comparison.KEPT_OTHER_CHANGES + 5; i++) {
            comparison.otherChange(new OtherChange(NS, ProberFixture.KCM, "replicas 3→" + i, "kubectl", scheduler.now()));
        }
        scheduler.advanceBy(WINDOW);

        Comparison.Report report = comparison.report();
        assertThat(report.decided()).hasSize(Comparison.KEPT_EPISODES);
        assertThat(report.decided().getFirst().namespace()).isEqualTo("shoot--dev--5");
        assertThat(report.totals()).containsEntry(Outcome.DWD_ONLY, (long) Comparison.KEPT_EPISODES + 5);
        assertThat(report.otherChanges()).hasSize(Comparison.KEPT_OTHER_CHANGES);
        assertThat(report.otherChanges().getLast().change()).isEqualTo("replicas 3→" + (Comparison.KEPT_OTHER_CHANGES + 4));
    }

    @Test
    void aWindowMustBePositive() {
        assertThatThrownBy(() -> new Comparison.Settings(Duration.ZERO, Map.of()))
                .hasMessage("the comparison window must be positive, was PT0S");
    }
}
