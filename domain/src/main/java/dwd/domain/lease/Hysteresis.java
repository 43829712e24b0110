package dwd.domain.lease;

import dwd.domain.internal.NullSafe;
import java.util.Objects;
import java.util.Optional;

/**
 * Damping over consecutive lease verdicts: act on a scale-down only after {@code failureThreshold} scale-down
 * verdicts in a row, and on a scale-up only after {@code successThreshold} scale-up verdicts in a row.
 *
 * <p>Thresholds of 1 act on every verdict, which is the original's behaviour and the default.
 *
 * <p>A {@link Decision#HOLD} verdict neither counts towards nor breaks a streak: it means "too few candidate leases
 * to judge" (typically one node, e.g. while a pool is being replaced), which is no evidence that the shoot got
 * healthier or sicker. Its action is {@code HOLD}. A scale-down verdict breaks a scale-up streak and vice versa.
 *
 * @param failureThreshold      scale-down verdicts in a row needed to scale down; at least 1
 * @param successThreshold      scale-up verdicts in a row needed to scale up; at least 1
 * @param consecutiveScaleDowns the current scale-down streak, counted up to {@code failureThreshold}
 * @param consecutiveScaleUps   the current scale-up streak, counted up to {@code successThreshold}
 * @param lastVerdict           the latest verdict observed; empty before the first
 */
public record Hysteresis(int failureThreshold, int successThreshold, int consecutiveScaleDowns,
                         int consecutiveScaleUps, Optional<Decision> lastVerdict) {

    public Hysteresis {
        requireAtLeast(1, failureThreshold, "failureThreshold");
        requireAtLeast(1, successThreshold, "successThreshold");
        requireAtLeast(0, consecutiveScaleDowns, "consecutiveScaleDowns");
        requireAtLeast(0, consecutiveScaleUps, "consecutiveScaleUps");
        lastVerdict = NullSafe.optional(lastVerdict);
    }

    /** No verdict seen yet. */
    public static Hysteresis initial(int failureThreshold, int successThreshold) {
        return new Hysteresis(failureThreshold, successThreshold, 0, 0, Optional.empty());
    }

    /** The state after one more verdict. */
    public Hysteresis observe(Decision verdict) {
        Objects.requireNonNull(verdict, "verdict");
        return switch (verdict) {
            case SCALE_DOWN -> new Hysteresis(failureThreshold, successThreshold,
                    Math.min(consecutiveScaleDowns + 1, failureThreshold), 0, Optional.of(verdict));
            case SCALE_UP -> new Hysteresis(failureThreshold, successThreshold,
                    0, Math.min(consecutiveScaleUps + 1, successThreshold), Optional.of(verdict));
            case HOLD -> new Hysteresis(failureThreshold, successThreshold,
                    consecutiveScaleDowns, consecutiveScaleUps, Optional.of(verdict));
        };
    }

    /**
     * What to do after the latest verdict: that verdict once its streak is long enough (or it is {@code HOLD});
     * empty while a scale verdict still awaits confirmation, and before the first verdict.
     */
    public Optional<Decision> action() {
        return lastVerdict.filter(verdict -> switch (verdict) {
            case SCALE_DOWN -> consecutiveScaleDowns >= failureThreshold;
            case SCALE_UP -> consecutiveScaleUps >= successThreshold;
            case HOLD -> true;
        });
    }

    private static void requireAtLeast(int minimum, int value, String name) {
        if (value < minimum) {
            throw new IllegalArgumentException(name + " must be at least " + minimum + ", was " + value);
        }
    }
}
