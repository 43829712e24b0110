package dwd.domain.cluster;

import dwd.domain.internal.NullSafe;

/**
 * The shoot's {@code status.lastOperation}: what Gardener did last and how far it got.
 *
 * @param type  {@code Create}, {@code Reconcile}, {@code Delete}, {@code Migrate} or {@code Restore}; {@code ""} when unset
 * @param state {@code Processing}, {@code Succeeded}, {@code Error}, {@code Failed}, {@code Pending} or
 *              {@code Aborted}; {@code ""} when unset
 */
public record LastOperation(String type, String state) {

    public LastOperation {
        type = NullSafe.text(type);
        state = NullSafe.text(state);
    }
}
