package dwd.domain.scaling;

import java.util.List;

/**
 * One level of a scale plan: its steps run in parallel, and the level is done when all of them are.
 *
 * @param steps in config order; never empty
 */
public record ScaleLevel(int level, List<ScaleStep> steps) {

    public ScaleLevel {
        steps = List.copyOf(steps);
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("level " + level + " has no steps");
        }
    }
}
