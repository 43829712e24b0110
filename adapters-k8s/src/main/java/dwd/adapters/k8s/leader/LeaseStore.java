package dwd.adapters.k8s.leader;

import java.util.Optional;

/**
 * Where the lock record lives. Each call is bounded by a timeout below the renew deadline and
 * fails with {@code ApiFailure}; a lost race (the record changed since it was read) is
 * {@code CONFLICT}.
 */
public interface LeaseStore {

    /** The record, or empty when the Lease does not exist. */
    Optional<LeaseRecord> get();

    /** Creates the Lease; returns the record as stored (with its version). */
    LeaseRecord create(LeaseRecord record);

    /** Replaces the record read at {@code record.resourceVersion()}; returns it as stored. */
    LeaseRecord update(LeaseRecord record);

    /** What the lock is, for logs: {@code namespace/name}. */
    String describe();
}
