package dwd.application.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.domain.comparison.Act;
import dwd.domain.comparison.Episode;
import dwd.domain.comparison.EpisodeKind;
import dwd.domain.comparison.Judgement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one log line of a decided episode: each side's actions with their times and reasons, dwd's lead. */
class LoggingComparisonObserverTest {

    private static final Instant T = Instant.parse("2026-11-28T10:00:00Z");

    private static Episode episode(List<Act> dwd, List<Act> original, String subject, EpisodeKind kind) {
        Map<String, Integer> levels = kind == EpisodeKind.WEEDING ? Map.of() : Map.of("kcm", 1);
        return new Episode("shoot--dev--a", kind, subject, T, T.plusSeconds(60), dwd, original,
                Judgement.judge(dwd, original, levels), false);
    }

    @Test
    void anAgreementSaysHowFarAheadDwdWasToTheMillisecond() {
        var dwd = new Act("kcm", "kube-controller-manager", 3, 0, T, "5 candidates, 3 expired", false);
        var original = new Act("kcm", "kube-controller-manager", 3, 0, T.plusNanos(18_881_094_000L),
                "spec.replicas written by dependency-watchdog", false);

        assertThat(LoggingComparisonObserver.line(episode(List.of(dwd), List.of(original), "", EpisodeKind.MELTDOWN),
                Duration.ofMinutes(5))).isEqualTo("shoot--dev--a: comparison: meltdown: both, dwd 18.881s ahead (same"
                + " dependents in the same order: kube-controller-manager 3→0); dwd would have: kube-controller-manager"
                + " 3→0 at 2026-11-28T10:00:00Z (5 candidates, 3 expired); the original: kube-controller-manager 3→0 at"
                + " 2026-11-28T10:00:18.881094Z (spec.replicas written by dependency-watchdog)");
    }

    @Test
    void aDisagreementSaysWhatTheOtherSideDidNotDoWithinTheWindow() {
        var dwd = new Act("uid-0", "kube-apiserver-0", 0, 0, T, "CrashLoopBackOff after etcd-main-client turned ready",
                false);

        assertThat(LoggingComparisonObserver.line(episode(List.of(dwd), List.of(), "etcd-main-client", EpisodeKind.WEEDING),
                Duration.ofMinutes(5))).isEqualTo("shoot--dev--a: comparison: weeding of etcd-main-client: dwd only (the"
                + " original did not act on kube-apiserver-0); dwd would have: kube-apiserver-0 at 2026-11-28T10:00:00Z"
                + " (CrashLoopBackOff after etcd-main-client turned ready); the original: nothing within 5m0s");
    }
}
