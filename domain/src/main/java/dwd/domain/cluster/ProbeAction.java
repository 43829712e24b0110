package dwd.domain.cluster;

/** What the cluster controller does with a shoot's prober after looking at the shoot. */
public enum ProbeAction {
    /** Remove the prober if one runs. */
    STOP,
    /** Make sure a prober runs (start one, or restart it when its worker node conditions changed). */
    START,
    /** Neither start nor stop: an existing prober keeps running, a missing one is not started. */
    LEAVE_AS_IS
}
