package dwd.domain.lease;

import static dwd.domain.lease.Decision.HOLD;
import static dwd.domain.lease.Decision.SCALE_DOWN;
import static dwd.domain.lease.Decision.SCALE_UP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import dwd.domain.testing.PropertyCheck;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class HysteresisTest {

    private static Hysteresis after(Hysteresis state, Decision... verdicts) {
        for (Decision verdict : verdicts) {
            state = state.observe(verdict);
        }
        return state;
    }

    @Test
    void nothingToDoBeforeTheFirstVerdict() {
        var initial = Hysteresis.initial(3, 2);
        assertThat(initial.action()).isEmpty();
        assertThat(initial).isEqualTo(new Hysteresis(3, 2, 0, 0, Optional.empty()));
    }

    @Test
    void scaleDownWaitsForFailureThresholdVerdictsInARow() {
        var state = Hysteresis.initial(3, 1);
        assertThat(after(state, SCALE_DOWN).action()).isEmpty();
        assertThat(after(state, SCALE_DOWN, SCALE_DOWN).action()).isEmpty();
        assertThat(after(state, SCALE_DOWN, SCALE_DOWN, SCALE_DOWN).action()).contains(SCALE_DOWN);
        assertThat(after(state, SCALE_DOWN, SCALE_DOWN, SCALE_DOWN, SCALE_DOWN).action()).contains(SCALE_DOWN);
    }

    @Test
    void scaleUpWaitsForSuccessThresholdVerdictsInARow() {
        var state = Hysteresis.initial(1, 2);
        assertThat(after(state, SCALE_UP).action()).isEmpty();
        assertThat(after(state, SCALE_UP, SCALE_UP).action()).contains(SCALE_UP);
        assertThat(after(state, SCALE_UP, SCALE_UP, SCALE_UP).action()).contains(SCALE_UP);
    }

    @Test
    void anOppositeVerdictBreaksTheStreak() {
        var state = Hysteresis.initial(2, 2);
        assertThat(after(state, SCALE_DOWN, SCALE_UP, SCALE_DOWN).action()).isEmpty();
        assertThat(after(state, SCALE_UP, SCALE_DOWN, SCALE_UP).action()).isEmpty();
        assertThat(after(state, SCALE_DOWN, SCALE_UP, SCALE_DOWN, SCALE_DOWN).action()).contains(SCALE_DOWN);
    }

    @Test
    void holdNeitherCountsNorBreaksAStreak() {
        var state = Hysteresis.initial(2, 2);
        var downHold = after(state, SCALE_DOWN, HOLD);
        assertThat(downHold.action()).contains(HOLD);
        assertThat(downHold.consecutiveScaleDowns()).isEqualTo(1);
        assertThat(after(downHold, HOLD, HOLD).consecutiveScaleDowns()).isEqualTo(1);
        assertThat(after(downHold, SCALE_DOWN).action()).contains(SCALE_DOWN);

        var upHold = after(state, SCALE_UP, HOLD);
        assertThat(upHold.consecutiveScaleUps()).isEqualTo(1);
        assertThat(after(upHold, SCALE_UP).action()).contains(SCALE_UP);
        assertThat(after(state, HOLD, HOLD).action()).contains(HOLD);
        assertThat(after(state, HOLD).consecutiveScaleDowns()).isZero();
    }

    @Test
    void streaksAreCountedUpToTheirThreshold() {
        var state = after(Hysteresis.initial(3, 2), SCALE_DOWN, SCALE_DOWN, SCALE_DOWN, SCALE_DOWN, SCALE_DOWN);
        assertThat(state).isEqualTo(new Hysteresis(3, 2, 3, 0, Optional.of(SCALE_DOWN)));
        var up = after(state, SCALE_UP, SCALE_UP, SCALE_UP);
        assertThat(up).isEqualTo(new Hysteresis(3, 2, 0, 2, Optional.of(SCALE_UP)));
        assertThat(after(up, SCALE_DOWN)).isEqualTo(new Hysteresis(3, 2, 1, 0, Optional.of(SCALE_DOWN)));
        assertThat(after(up, HOLD)).isEqualTo(new Hysteresis(3, 2, 0, 2, Optional.of(HOLD)));
    }

    @Test
    void thresholdsBelowOneAndNegativeStreaksAreRejected() {
        assertThatThrownBy(() -> Hysteresis.initial(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("failureThreshold must be at least 1, was 0");
        assertThatThrownBy(() -> Hysteresis.initial(1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("successThreshold must be at least 1, was 0");
        assertThatThrownBy(() -> new Hysteresis(1, 1, -1, 0, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("consecutiveScaleDowns must be at least 0, was -1");
        assertThatThrownBy(() -> new Hysteresis(1, 1, 0, -1, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("consecutiveScaleUps must be at least 0, was -1");
        assertThat(new Hysteresis(1, 1, 0, 0, null).lastVerdict()).isEmpty();
        assertThatThrownBy(() -> Hysteresis.initial(1, 1).observe(null)).isInstanceOf(NullPointerException.class);
    }

    /** Thresholds of 1 are the original: every verdict is acted on as it comes. */
    @Test
    void thresholdsOfOneActOnEveryVerdict() {
        PropertyCheck.forAll(HysteresisTest::verdicts, verdicts -> {
            var state = Hysteresis.initial(1, 1);
            for (Decision verdict : verdicts) {
                state = state.observe(verdict);
                assertThat(state.action()).contains(verdict);
            }
        });
    }

    /** Up to 30 verdicts, with long runs as likely as alternations. */
    private static List<Decision> verdicts(RandomGenerator random) {
        var verdicts = new ArrayList<Decision>();
        Decision[] all = Decision.values();
        int length = random.nextInt(31);
        while (verdicts.size() < length) {
            Decision next = all[random.nextInt(all.length)];
            int run = random.nextBoolean() ? 1 : random.nextInt(1, 6);
            for (int i = 0; i < run; i++) {
                verdicts.add(next);
            }
        }
        return verdicts;
    }

    record Run(List<Decision> verdicts, int failureThreshold, int successThreshold) { }

    /** Against a model: drop the HOLDs, then a scale verdict is acted on when the last threshold verdicts all agree. */
    @Test
    void actsExactlyWhenTheLastNonHoldVerdictsAgree() {
        PropertyCheck.forAll(random -> new Run(verdicts(random), random.nextInt(1, 5), random.nextInt(1, 5)),
                run -> modelCheck(run.verdicts(), run.failureThreshold(), run.successThreshold()));
    }

    private static void modelCheck(List<Decision> verdicts, int failureThreshold, int successThreshold) {
        var state = Hysteresis.initial(failureThreshold, successThreshold);
        var withoutHolds = new ArrayList<Decision>();
        for (Decision verdict : verdicts) {
            state = state.observe(verdict);
            if (verdict == HOLD) {
                assertThat(state.action()).contains(HOLD);
                continue;
            }
            withoutHolds.add(verdict);
            int needed = verdict == SCALE_DOWN ? failureThreshold : successThreshold;
            boolean confirmed = withoutHolds.size() >= needed
                    && withoutHolds.subList(withoutHolds.size() - needed, withoutHolds.size()).stream()
                            .allMatch(verdict::equals);
            assertThat(state.action()).isEqualTo(confirmed ? Optional.of(verdict) : Optional.empty());
        }
    }
}
