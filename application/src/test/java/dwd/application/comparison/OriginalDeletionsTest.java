package dwd.application.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.PodWatch;
import dwd.application.port.out.Pods;
import dwd.application.port.out.ShadowObserver;
import dwd.application.testing.VirtualScheduler;
import dwd.domain.comparison.Act;
import dwd.domain.comparison.Outcome;
import dwd.domain.config.WeederConfig;
import dwd.domain.dryrun.DryRunMode;
import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.ContainerState;
import dwd.domain.weeding.PodState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The original weeder's deletions, attributed by window, and the pods it deleted kept in dwd's view. */
class OriginalDeletionsTest {

    private static final String NS = "shoot--dev--weeding";
    private static final String ETCD = "etcd-main-client";
    private static final LabelSelector APISERVER = new LabelSelector(Map.of("role", "apiserver"), List.of());
    private static final Duration WATCH = Duration.ofMinutes(5);

    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final RecordingComparisonObserver decided = new RecordingComparisonObserver();
    private final Comparison comparison = new Comparison(Comparison.Settings.weeder(WATCH), scheduler, decided);
    private final OriginalDeletions deletions = new OriginalDeletions(
            new WeederConfig(WATCH, Map.of(ETCD, List.of(APISERVER))), scheduler, comparison);
    private final DwdWeederActions dwd = new DwdWeederActions(scheduler, comparison, deletions);

    private static PodState crashLooping(String name) {
        return new PodState(NS, name, "uid-" + name, false,
                List.of(new ContainerState("kube-apiserver", Optional.of("CrashLoopBackOff"))), List.of());
    }

    @Test
    void aCrashLoopingPodDeletedInTheWindowIsTheOriginalsAndPairsWithDwdsDecisionEvenIfDwdFoundItGone() {
        PodState pod = crashLooping("kube-apiserver-0");
        deletions.podChanged(APISERVER, pod);
        dwd.serviceReadinessChanged(NS, ETCD, true);
        scheduler.advanceBy(Duration.ofMillis(35));
        deletions.podDeleted(APISERVER, pod);
        scheduler.advanceBy(Duration.ofMillis(5));
        dwd.podLeftAlone(NS, ETCD, pod, Pods.Deletion.ALREADY_GONE);
        scheduler.advanceBy(Comparison.SETTLE);

        assertThat(decided.episodes).singleElement().satisfies(episode -> {
            assertThat(episode.outcome()).isEqualTo(Outcome.BOTH);
            assertThat(episode.subject()).isEqualTo(ETCD);
            assertThat(episode.judgement().lead()).contains(Duration.ofMillis(-5));
            assertThat(episode.dwd()).extracting(Act::why)
                    .containsExactly("CrashLoopBackOff after etcd-main-client turned ready (gone by then)");
        });
    }

    @Test
    void aDeletionAMomentBeforeDwdSawTheServiceTurnReadyIsTheOriginalsAndOneOutsideAnyWindowIsNot() {
        PodState early = crashLooping("kube-apiserver-0");
        PodState unrelated = crashLooping("kube-apiserver-1");
        deletions.podChanged(APISERVER, early);
        deletions.podChanged(APISERVER, unrelated);
        deletions.podDeleted(APISERVER, early);
        scheduler.advanceBy(Duration.ofSeconds(1));
        dwd.serviceReadinessChanged(NS, ETCD, true);
        dwd.wouldDelete(new ShadowObserver.WouldDelete(DryRunMode.SERVER, NS, ETCD, early, new ShadowObserver.Answer.Accepted()));
        scheduler.advanceBy(WATCH.plusSeconds(1));
        deletions.podDeleted(APISERVER, unrelated);
        scheduler.advanceBy(OriginalDeletions.READINESS_GRACE);

        assertThat(decided.episodes).singleElement().satisfies(episode -> assertThat(episode.outcome()).isEqualTo(Outcome.BOTH));
        assertThat(decided.otherChanges).singleElement().satisfies(change -> {
            assertThat(change.target()).isEqualTo("kube-apiserver-1");
            assertThat(change.change()).isEqualTo("deleted in CrashLoopBackOff outside any weeder window");
        });
    }

    @Test
    void aPodTheOriginalDeletedBeforeDwdsWatchOpenedIsHandedToThatWatchOnceUntilDwdDecidedOnIt() {
        PodState pod = crashLooping("kube-apiserver-0");
        deletions.podChanged(APISERVER, pod);
        dwd.serviceReadinessChanged(NS, ETCD, true);
        deletions.podDeleted(APISERVER, pod);
        var seen = new ArrayList<PodState>();
        var watches = new WithoutOriginalDeletions((namespace, selector, listener) -> () -> { }, deletions);

        PodWatch watch = watches.watch(NS, APISERVER, seen::add);
        scheduler.runDue();
        assertThat(seen).containsExactly(pod);
        watch.close();

        dwd.podLeftAlone(NS, ETCD, pod, Pods.Deletion.ALREADY_GONE);
        watches.watch(NS, APISERVER, seen::add);
        scheduler.runDue();
        assertThat(seen).as("dwd decided on it").hasSize(1);
    }

    @Test
    void aPodTheOriginalDeletesWhileDwdsWatchIsOpenIsHandedToItAndNothingAfterItClosed() {
        PodState pod = crashLooping("kube-apiserver-0");
        deletions.podChanged(APISERVER, pod);
        dwd.serviceReadinessChanged(NS, ETCD, true);
        var seen = new ArrayList<PodState>();
        var watches = new WithoutOriginalDeletions((namespace, selector, listener) -> () -> { }, deletions);
        PodWatch watch = watches.watch(NS, APISERVER, seen::add);

        deletions.podDeleted(APISERVER, pod);
        watch.close();
        scheduler.runDue();

        assertThat(seen).as("closed before the delivery ran").isEmpty();
    }
}
