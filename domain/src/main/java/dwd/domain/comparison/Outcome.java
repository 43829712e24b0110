package dwd.domain.comparison;

/** How dwd's would-be actions of an episode compare with the original's. */
public enum Outcome {
    /** Both acted on the same dependents (pods), in the same level order, to the same replicas. */
    BOTH,
    /** dwd would have acted; the original did not within the window. */
    DWD_ONLY,
    /** The original acted; dwd would not have within the window. */
    ORIGINAL_ONLY,
    /** Both acted, but on other dependents (pods), to other replicas, or in another level order. */
    DIFFERENT
}
