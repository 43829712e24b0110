package dwd.domain.lease;

import dwd.domain.internal.NullSafe;

/**
 * One entry of a node's {@code status.conditions}: what the candidacy rules read of it.
 *
 * @param type   the condition type, e.g. {@code DiskPressure} or {@code InPlaceUpdate}
 * @param status {@code True}, {@code False} or {@code Unknown}; {@code ""} when unset
 * @param reason the machine-readable reason; {@code ""} when unset
 */
public record NodeCondition(String type, String status, String reason) {

    public NodeCondition {
        type = NullSafe.text(type);
        status = NullSafe.text(status);
        reason = NullSafe.text(reason);
    }
}
