package dwd.application.comparison;

import dwd.application.port.out.PodWatches;
import dwd.application.port.out.ScalableResources;
import java.util.Optional;

/**
 * Whether a shadow-mode role compares itself with the original, and the view of the seed it then decides on:
 * the seed as it would be without the original's writes (the prober's dependents) and deletions (the
 * weeder's pods). Off: the ports are returned as they are.
 */
public final class ComparisonMode {

    private static final ComparisonMode OFF = new ComparisonMode(Optional.empty(), Optional.empty());

    private final Optional<OriginalDependents> dependents;
    private final Optional<OriginalDeletions> deletions;

    private ComparisonMode(Optional<OriginalDependents> dependents, Optional<OriginalDeletions> deletions) {
        this.dependents = dependents;
        this.deletions = deletions;
    }

    /** Not comparing. */
    public static ComparisonMode off() {
        return OFF;
    }

    /** A prober comparing its scalings with the original's. */
    public static ComparisonMode prober(OriginalDependents dependents) {
        return new ComparisonMode(Optional.of(dependents), Optional.empty());
    }

    /** A weeder comparing its deletions with the original's. */
    public static ComparisonMode weeder(OriginalDeletions deletions) {
        return new ComparisonMode(Optional.empty(), Optional.of(deletions));
    }

    /** The dependents the prober decides on; put beneath the shadow decorator, over the adapter. */
    public ScalableResources resources(ScalableResources seed) {
        return dependents.<ScalableResources>map(view -> new WithoutOriginalWrites(seed, view)).orElse(seed);
    }

    /** The pods the weeder watches; put beneath the shadow decorator, over the adapter. */
    public PodWatches podWatches(PodWatches seed) {
        return deletions.<PodWatches>map(view -> new WithoutOriginalDeletions(seed, view)).orElse(seed);
    }
}
