package dwd.adapters.k8s.leader;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The elector's attempts on its Lease, with client-go's algorithm ({@code tryAcquireOrRenew}), and what it
 * observed of the Lease: a holder's record counts as expired only {@code leaseDurationSeconds} after this
 * process last <em>saw it change</em>, on the local monotonic clock; every write is an optimistic update on
 * the version just read, so two candidates can never both win.
 */
final class LeaseAttempts {

    private static final Logger LOG = LogManager.getLogger();

    private final LeaseStore store;
    private final String identity;
    private final LeaderElectionTimings timings;
    private final LongSupplier nanoTime;

    // Guarded by this.
    private LeaseRecord observed;
    private long observedAtNanos;
    private String knownLeader = "";

    LeaseAttempts(LeaseStore store, String identity, LeaderElectionTimings timings, LongSupplier nanoTime) {
        this.store = Objects.requireNonNull(store, "store");
        this.identity = Objects.requireNonNull(identity, "identity");
        this.timings = Objects.requireNonNull(timings, "timings");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /**
     * client-go's tryAcquireOrRenew: true when this process holds the lock afterwards.
     *
     * @param now      the wall-clock time written as the Lease's renewTime (and acquireTime)
     * @param nowNanos the same moment on the monotonic clock, against which the observed record expires
     */
    boolean acquireOrRenew(Instant now, long nowNanos) {
        int durationSeconds = (int) timings.leaseDuration().toSeconds();
        Optional<LeaseRecord> current = store.get();
        long readAt = nanoTime.getAsLong();
        if (current.isEmpty()) {
            LeaseRecord created = store.create(new LeaseRecord(identity, durationSeconds, Optional.of(now),
                    Optional.of(now), 0, Optional.empty()));
            observe(created, nanoTime.getAsLong());
            return true;
        }
        LeaseRecord old = current.get();
        synchronized (this) {
            if (!old.sameContentAs(observed)) {
                observe(old, readAt);
            }
            boolean heldByOther = !old.holderIdentity().isEmpty() && !old.holderIdentity().equals(identity);
            if (heldByOther && observedAtNanos + Duration.ofSeconds(old.leaseDurationSeconds()).toNanos() - nowNanos > 0) {
                return false;
            }
        }
        boolean renewal = old.holderIdentity().equals(identity);
        LeaseRecord desired = new LeaseRecord(identity, durationSeconds,
                renewal ? old.acquireTime().or(() -> Optional.of(now)) : Optional.of(now), Optional.of(now),
                renewal ? old.leaseTransitions() : old.leaseTransitions() + 1, old.resourceVersion());
        LeaseRecord stored = store.update(desired);
        observe(stored, nanoTime.getAsLong());
        return true;
    }

    /** How long until the record of another holder, as observed, expires (a millisecond after); empty when none is held. */
    synchronized Optional<Duration> untilObservedHolderExpires() {
        if (observed == null || observed.holderIdentity().isEmpty()) {
            return Optional.empty();
        }
        long since = Math.max(0, nanoTime.getAsLong() - observedAtNanos);
        return Optional.of(Duration.ofSeconds(observed.leaseDurationSeconds()).minusNanos(since).plusMillis(1));
    }

    /**
     * Releases the lock (empty holder, 1 s duration, as client-go's ReleaseOnCancel does) so that a standby
     * takes over at its next look instead of after the lease duration; nothing when nothing was observed.
     */
    void release(Instant now) {
        LeaseRecord release;
        synchronized (this) {
            if (observed == null) {
                return;
            }
            release = new LeaseRecord("", 1, Optional.of(now), Optional.of(now), observed.leaseTransitions(),
                    observed.resourceVersion());
        }
        try {
            store.update(release);
            LOG.info("leader election: {} released Lease {}", identity, store.describe());
        } catch (RuntimeException e) {
            LOG.warn("leader election: could not release Lease {} (a standby takes over when it expires): {}",
                    store.describe(), e.getMessage());
        }
    }

    private synchronized void observe(LeaseRecord record, long atNanos) {
        observed = record;
        observedAtNanos = atNanos;
        if (!record.holderIdentity().equals(knownLeader)) {
            knownLeader = record.holderIdentity();
            if (!knownLeader.isEmpty() && !knownLeader.equals(identity)) {
                LOG.info("leader election: the leader of Lease {} is {}", store.describe(), knownLeader);
            }
        }
    }
}
