package dwd.domain.scaling;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.domain.config.ResourceRef;
import dwd.domain.scaling.StepDecision.Missing;
import dwd.domain.scaling.StepDecision.NothingToDo;
import dwd.domain.scaling.StepDecision.Scale;
import dwd.domain.scaling.StepDecision.Skip;
import dwd.domain.scaling.StepDecision.UnusableRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a scale step decides on the dependent as seen: the whole rule set in one function. */
class StepDecisionTest {

    private static final ScaleStep KCM = step(false);
    private static final String MELTDOWN = Annotations.MELTDOWN_PROTECTION_ACTIVE;
    private static final String REPLICAS = Annotations.REPLICAS;

    private static ScaleStep step(boolean optional) {
        return new ScaleStep(new ResourceRef("apps/v1", "Deployment", "kcm"), optional, Duration.ZERO,
                Duration.ofSeconds(30));
    }

    private record Seen(Map<String, String> annotations, int specReplicas) implements SeenDependent { }

    private static StepDecision decide(ScaleDirection direction, Map<String, String> annotations, int replicas) {
        return StepDecision.decide(direction, KCM, Optional.of(new Seen(annotations, replicas)));
    }

    @Test
    void aMissingDependentIsSkippedWhenOptionalAndMissingOtherwise() {
        assertThat(StepDecision.decide(ScaleDirection.DOWN, step(true), Optional.empty()))
                .isEqualTo(new Skip("not found; it is optional", Map.of()));
        assertThat(StepDecision.decide(ScaleDirection.UP, KCM, Optional.empty())).isInstanceOf(Missing.class);
    }

    @Test
    void scaleDownGoesToZeroRecordingTheCountItReplacesFirst() {
        StepDecision decided = decide(ScaleDirection.DOWN, Map.of(), 3);
        assertThat(decided).isInstanceOfSatisfying(Scale.class, scale -> {
            assertThat(scale.from()).isEqualTo(3);
            assertThat(scale.to()).isZero();
            assertThat(scale.annotations()).containsExactly(Map.entry(REPLICAS, Optional.of("3")),
                    Map.entry(MELTDOWN, Optional.of("")));
            assertThat(scale.annotationsFirst()).isTrue();
            assertThat(scale.reachedBy(0)).isTrue();
            assertThat(scale.reachedBy(1)).isFalse();
        });
        assertThat(decided.needsScaling()).isTrue();
    }

    @Test
    void scaleUpRestoresTheRecordedCountAndRemovesTheRecordAfterwards() {
        StepDecision decided = decide(ScaleDirection.UP, Map.of(REPLICAS, "2", MELTDOWN, ""), 0);
        assertThat(decided).isInstanceOfSatisfying(Scale.class, scale -> {
            assertThat(scale.from()).isZero();
            assertThat(scale.to()).isEqualTo(2);
            assertThat(scale.annotations()).containsExactly(Map.entry(REPLICAS, Optional.empty()),
                    Map.entry(MELTDOWN, Optional.empty()));
            assertThat(scale.annotationsFirst()).isFalse();
            assertThat(scale.reachedBy(1)).isTrue();
            assertThat(scale.reachedBy(0)).isFalse();
        });
        assertThat(decide(ScaleDirection.UP, Map.of(), 0)).extracting(d -> ((Scale) d).to())
                .as("no record: the default, 1").isEqualTo(1);
    }

    @Test
    void anUnusableRecordIsAScaleUpThatCannotBeMade() {
        StepDecision decided = decide(ScaleDirection.UP, Map.of(REPLICAS, "three"), 0);
        assertThat(decided).isInstanceOfSatisfying(UnusableRecord.class,
                unusable -> assertThat(unusable.message()).contains("\"three\"", "kcm"));
        assertThat(decided.needsScaling()).isTrue();
    }

    @Test
    void ignoreScalingSkipsAndRemovesOnlyAMeltdownAnnotationDwdLeft() {
        assertThat(decide(ScaleDirection.DOWN, Map.of(Annotations.IGNORE_SCALING, "true", MELTDOWN, ""), 3))
                .isEqualTo(new Skip(Annotations.IGNORE_SCALING + " is true", Map.of(MELTDOWN, Optional.empty())));
        for (ScaleDirection direction : List.of(ScaleDirection.UP, ScaleDirection.DOWN)) {
            assertThat(decide(direction, Map.of(Annotations.IGNORE_SCALING, "1", REPLICAS, "2"), 0))
                    .isEqualTo(new Skip(Annotations.IGNORE_SCALING + " is true", Map.of()));
        }
    }

    @Test
    void aDependentAlreadyThereNeedsNothingButAScaleUpClearsALeftoverRecord() {
        assertThat(decide(ScaleDirection.DOWN, Map.of(REPLICAS, "3", MELTDOWN, ""), 0))
                .isEqualTo(new NothingToDo(Map.of()));
        assertThat(decide(ScaleDirection.UP, Map.of(), 2)).isEqualTo(new NothingToDo(Map.of()));
        StepDecision leftover = decide(ScaleDirection.UP, Map.of(REPLICAS, "3", MELTDOWN, ""), 3);
        assertThat(leftover).isInstanceOfSatisfying(NothingToDo.class, nothing -> {
            assertThat(nothing.sendsNothing()).isFalse();
            assertThat(nothing.cleanUp()).containsExactly(Map.entry(REPLICAS, Optional.empty()),
                    Map.entry(MELTDOWN, Optional.empty()));
        });
        assertThat(leftover.needsScaling()).isFalse();
    }
}
