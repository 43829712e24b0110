package dwd.domain.comparison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JudgementTest {

    private static final Instant T = Instant.parse("2026-11-28T10:00:00Z");
    /** Gardener's scale-down: machine-controller-manager and cluster-autoscaler first, then kube-controller-manager. */
    private static final Map<String, Integer> DOWN = Map.of("kcm", 1, "mcm", 0, "ca", 0);

    private static Act act(String target, int from, int to, int secondsAfterT) {
        return new Act(target, target, from, to, T.plusSeconds(secondsAfterT), "", false);
    }

    @Test
    void sameDependentsSameReplicasSameLevelOrderAreBothWithTheLeadOfTheFirstWrites() {
        var dwd = List.of(act("ca", 1, 0, 0), act("mcm", 2, 0, 0), act("kcm", 3, 0, 1));
        // The original's level 0 in the other order within the level: no difference.
        var original = List.of(act("mcm", 2, 0, 20), act("ca", 1, 0, 20), act("kcm", 3, 0, 26));

        Judgement judgement = Judgement.judge(dwd, original, DOWN);

        assertThat(judgement.outcome()).isEqualTo(Outcome.BOTH);
        assertThat(judgement.lead()).contains(Duration.ofSeconds(20));
        assertThat(judgement.reason()).isEqualTo("same dependents in the same order: ca 1→0, mcm 2→0, kcm 3→0");
    }

    @Test
    void eachSidesOrderIsItsSequenceNotTheTimeItsActionsWereSeen() {
        var dwd = List.of(act("mcm", 2, 0, 0), act("kcm", 3, 0, 1));
        // Watches of different objects delivered the original's kcm before its mcm; the API server stored mcm first.
        var original = List.of(new Act("kcm", "kcm", 3, 0, T.plusMillis(20_874), "", false, 102),
                new Act("mcm", "mcm", 2, 0, T.plusMillis(20_889), "", false, 101));
        var reversed = List.of(new Act("kcm", "kcm", 3, 0, T.plusMillis(20_874), "", false, 101),
                new Act("mcm", "mcm", 2, 0, T.plusMillis(20_889), "", false, 102));

        Judgement judgement = Judgement.judge(dwd, original, DOWN);

        assertThat(judgement.outcome()).isEqualTo(Outcome.BOTH);
        assertThat(judgement.lead()).as("between the earliest times").contains(Duration.ofMillis(20_874));
        assertThat(judgement.reason()).endsWith("mcm 2→0, kcm 3→0");
        assertThat(Judgement.judge(dwd, reversed, DOWN).outcome()).isEqualTo(Outcome.DIFFERENT);
    }

    @Test
    void theOriginalFirstIsANegativeLead() {
        Judgement judgement = Judgement.judge(List.of(act("kcm", 0, 3, 10)), List.of(act("kcm", 0, 3, 4)), Map.of());

        assertThat(judgement.lead()).contains(Duration.ofSeconds(-6));
    }

    @Test
    void otherTargetsOtherReplicasAndAnotherLevelOrderAreDifferent() {
        var dwd = List.of(act("mcm", 2, 0, 0), act("kcm", 3, 0, 1));

        assertThat(Judgement.judge(dwd, List.of(act("mcm", 2, 0, 5)), DOWN).reason())
                .isEqualTo("other targets: dwd mcm 2→0, kcm 3→0, the original mcm 2→0");
        assertThat(Judgement.judge(dwd, List.of(act("mcm", 2, 0, 5), act("kcm", 2, 1, 6)), DOWN).reason())
                .isEqualTo("other replicas for kcm: dwd 0, the original 1");
        Judgement reversed = Judgement.judge(dwd, List.of(act("kcm", 3, 0, 5), act("mcm", 2, 0, 6)), DOWN);
        assertThat(reversed.outcome()).isEqualTo(Outcome.DIFFERENT);
        assertThat(reversed.reason()).startsWith("other level order");
    }

    @Test
    void oneSideAloneIsDwdOnlyOrOriginalOnly() {
        assertThat(Judgement.judge(List.of(act("kcm", 3, 0, 0)), List.of(), DOWN).outcome()).isEqualTo(Outcome.DWD_ONLY);
        Judgement originalOnly = Judgement.judge(List.of(), List.of(act("kcm", 0, 1, 0)), Map.of());
        assertThat(originalOnly.outcome()).isEqualTo(Outcome.ORIGINAL_ONLY);
        assertThat(originalOnly.lead()).isEmpty();
        assertThatThrownBy(() -> Judgement.judge(List.of(), List.of(), Map.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eachSidesFirstActionPerTargetCountsAndPodsHaveNoOrder() {
        var dwd = List.of(act("uid-b", 0, 0, 0), act("uid-a", 0, 0, 0), act("uid-a", 0, 0, 3));
        var original = List.of(act("uid-a", 0, 0, 1), act("uid-b", 0, 0, 2));

        Judgement judgement = Judgement.judge(dwd, original, Map.of());

        assertThat(judgement.outcome()).isEqualTo(Outcome.BOTH);
        assertThat(judgement.reason()).isEqualTo("same pods: uid-b, uid-a");
    }
}
