package dwd.domain.lease;

/** Why a node's lease does not count towards the expired fraction: the four candidacy rules of the original. */
public enum Exclusion {
    /** The node carries the annotation {@code node.machine.sapcloud.io/not-managed-by-mcm} (any value). */
    NOT_MANAGED_BY_MCM,
    /** One of the unhealthy condition types of the node's worker pool has status {@code True}. */
    UNHEALTHY_CONDITION,
    /** No machine labelled with the node's name is in a phase other than {@code Failed} or {@code Terminating}. */
    NO_LIVE_MACHINE,
    /** An {@code InPlaceUpdate} condition with reason {@code ReadyForUpdate} or {@code UpdateFailed}: the node restarts on purpose. */
    IN_PLACE_UPDATE
}
