package dwd.domain.scaling;

import dwd.domain.config.DependentResourceInfo;
import dwd.domain.config.GoDuration;
import dwd.domain.config.ScaleInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The order in which one flow scales the dependent resources: level after level, lowest first, each level starting
 * only when the one before it has finished; within a level, all steps at once.
 *
 * @param levels strictly ascending (any ints: negative levels and gaps are fine); every resource appears once
 */
public record ScalePlan(ScaleDirection direction, List<ScaleLevel> levels) {

    public ScalePlan {
        Objects.requireNonNull(direction, "direction");
        levels = List.copyOf(levels);
        for (int i = 1; i < levels.size(); i++) {
            if (levels.get(i - 1).level() >= levels.get(i).level()) {
                throw new IllegalArgumentException("levels must be strictly ascending, but level "
                        + levels.get(i).level() + " follows level " + levels.get(i - 1).level());
            }
        }
        List<ScaleStep> seen = new ArrayList<>();
        for (ScaleLevel level : levels) {
            for (ScaleStep step : level.steps()) {
                for (ScaleStep earlier : seen) {
                    if (earlier.ref().refersToSameObjectAs(step.ref())) {
                        throw new IllegalArgumentException("each resource may appear once in a plan, but "
                                + earlier.ref() + " and " + step.ref() + " are the same resource");
                    }
                }
                seen.add(step);
            }
        }
    }

    /**
     * The plan for one direction: each resource's {@code scaleUp} or {@code scaleDown} settings, grouped by level,
     * config order kept within a level.
     *
     * @throws IllegalArgumentException when two entries name the same resource (config validation rejects that)
     */
    public static ScalePlan of(List<DependentResourceInfo> resources, ScaleDirection direction) {
        TreeMap<Integer, List<ScaleStep>> stepsByLevel = new TreeMap<>();
        for (DependentResourceInfo resource : resources) {
            ScaleInfo scale = direction == ScaleDirection.UP ? resource.scaleUp() : resource.scaleDown();
            stepsByLevel.computeIfAbsent(scale.level(), level -> new ArrayList<>())
                    .add(new ScaleStep(resource.ref(), resource.optional(), scale.initialDelay(), scale.timeout()));
        }
        List<ScaleLevel> levels = new ArrayList<>();
        stepsByLevel.forEach((level, steps) -> levels.add(new ScaleLevel(level, steps)));
        return new ScalePlan(direction, levels);
    }

    /** Every step, level by level, config order within a level. */
    public List<ScaleStep> steps() {
        return levels.stream().flatMap(level -> level.steps().stream()).toList();
    }

    /**
     * The plan in words, one line per level and per resource, e.g.
     *
     * <pre>
     * scale-down plan: 2 levels, each starts when the one before has finished
     * level 0, 2 resources in parallel:
     *   apps/v1 Deployment machine-controller-manager: initialDelay 0s, timeout 30s
     *   apps/v1 Deployment cluster-autoscaler (optional): initialDelay 0s, timeout 30s
     * level 1:
     *   apps/v1 Deployment kube-controller-manager: initialDelay 0s, timeout 30s
     * </pre>
     */
    public List<String> describe() {
        String name = direction == ScaleDirection.UP ? "scale-up plan" : "scale-down plan";
        List<String> lines = new ArrayList<>();
        if (levels.isEmpty()) {
            lines.add(name + ": nothing to scale");
            return lines;
        }
        lines.add(levels.size() == 1 ? name + ": 1 level"
                : name + ": " + levels.size() + " levels, each starts when the one before has finished");
        for (ScaleLevel level : levels) {
            int count = level.steps().size();
            lines.add("level " + level.level() + (count == 1 ? ":" : ", " + count + " resources in parallel:"));
            for (ScaleStep step : level.steps()) {
                lines.add("  " + step.ref() + (step.optional() ? " (optional)" : "")
                        + ": initialDelay " + GoDuration.format(step.initialDelay())
                        + ", timeout " + GoDuration.format(step.timeout()));
            }
        }
        return lines;
    }
}
