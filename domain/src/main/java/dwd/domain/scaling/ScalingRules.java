package dwd.domain.scaling;

import dwd.domain.gosyntax.GoBool;
import java.math.BigInteger;
import java.util.Map;

/** The per-resource decisions of a scale flow: skip it, whether it needs scaling, and to how many replicas. */
public final class ScalingRules {

    /** A scale-up without a replicas annotation restores this many replicas, as the original does. */
    public static final int DEFAULT_SCALE_UP_REPLICAS = 1;

    private ScalingRules() {
    }

    /**
     * Whether an operator asked dwd to leave the resource alone: the ignore-scaling annotation is one of Go's
     * {@code strconv.ParseBool} true values ({@code 1}, {@code t}, {@code T}, {@code TRUE}, {@code true},
     * {@code True}). Anything else, including no annotation, means scale as usual.
     */
    public static boolean ignoreScaling(Map<String, String> annotations) {
        return annotations != null && GoBool.parse(annotations.get(Annotations.IGNORE_SCALING)).orElse(false);
    }

    /**
     * The replica count to scale a resource up to: the replicas annotation written at scale-down, or 1 when it is
     * absent.
     *
     * <p>The annotation is read as Go's {@code strconv.Atoi} reads it: base-10 digits with an optional {@code +} or
     * {@code -}, nothing else (no spaces). Unlike the original, a value of zero or below is unusable rather than
     * sent to the API server: scaling "up" to 0 leaves the resource down and the original then fails after three
     * attempts, and a negative count is rejected by the API server. Values beyond an int are unusable too, since
     * {@code spec.replicas} is a 32-bit integer.
     */
    public static ScaleUpTarget scaleUpTarget(Map<String, String> annotations, String resourceName) {
        String value = annotations == null ? null : annotations.get(Annotations.REPLICAS);
        if (value == null) {
            return new ScaleUpTarget.Replicas(DEFAULT_SCALE_UP_REPLICAS, false);
        }
        String problem;
        if (!isGoInt(value)) {
            problem = "is not a whole number";
        } else {
            BigInteger replicas = new BigInteger(value);
            if (replicas.signum() < 1) {
                problem = "is not a positive replica count";
            } else if (replicas.bitLength() >= Integer.SIZE) {
                problem = "is larger than the largest replica count, " + Integer.MAX_VALUE;
            } else {
                return new ScaleUpTarget.Replicas(replicas.intValueExact(), true);
            }
        }
        return new ScaleUpTarget.UnusableAnnotation(resourceName, value, "cannot scale up " + resourceName
                + ": annotation " + Annotations.REPLICAS + " has the value \"" + value + "\", which " + problem
                + "; set it to the replica count to restore (e.g. \"2\"), or remove it to restore "
                + DEFAULT_SCALE_UP_REPLICAS + " replica");
    }

    /**
     * Whether a resource with this {@code spec.replicas} needs scaling: a scale-up only acts on a resource at 0
     * (one scaled up by someone else is left as it is), a scale-down only on one above 0.
     */
    public static boolean needsAction(ScaleDirection direction, int currentSpecReplicas) {
        return switch (direction) {
            case UP -> currentSpecReplicas == 0;
            case DOWN -> currentSpecReplicas > 0;
        };
    }

    /** The syntax Go's {@code strconv.Atoi} accepts: an optional sign, then ASCII digits only. */
    private static boolean isGoInt(String text) {
        int start = text.startsWith("+") || text.startsWith("-") ? 1 : 0;
        return text.length() > start && text.chars().skip(start).allMatch(c -> c >= '0' && c <= '9');
    }
}
