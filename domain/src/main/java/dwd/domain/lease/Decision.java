package dwd.domain.lease;

/** What a lease probe concludes for the shoot's dependents. */
public enum Decision {
    /** Enough candidate leases have expired: protect the shoot by scaling its controllers down. */
    SCALE_DOWN,
    /** The nodes are reachable (or there are none to judge): scale the controllers back up if needed. */
    SCALE_UP,
    /** Too little evidence either way: change nothing. */
    HOLD
}
