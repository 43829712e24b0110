package dwd.domain.comparison;

/** What an episode is about: one meltdown or one recovery of one shoot, or one service's return to ready. */
public enum EpisodeKind {
    /** A shoot's dependents scaled down. */
    MELTDOWN,
    /** A shoot's dependents scaled back up. */
    RECOVERY,
    /** Crash-looping pods deleted after a service they depend on turned ready. */
    WEEDING
}
