package dwd.adapters.k8s.leader;

import dwd.adapters.k8s.watch.OutageLog;
import dwd.domain.config.GoDuration;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Leader election on a coordination.k8s.io Lease, with client-go's algorithm:
 * <ul>
 * <li>a holder's record counts as expired only {@code leaseDurationSeconds} after this process
 *     last <em>saw it change</em>, on the local monotonic clock (no trust in other nodes' clocks,
 *     nor in this node's wall clock, which an NTP correction or an operator may step);</li>
 * <li>every write is an optimistic update on the version just read, so two candidates can never
 *     both win;</li>
 * <li>the leader renews every retry period and stops leading when it has not renewed for the
 *     renew deadline, which is shorter than the lease duration: it stops before anyone can take over.</li>
 * </ul>
 * Every local deadline (renew deadline, takeover, the watchdog, the health checks' ages) is measured on
 * the monotonic clock, as client-go's (Go's {@code time.Now()} carries a monotonic reading that its
 * comparisons use); only the Lease's {@code acquireTime} and {@code renewTime} are wall-clock times.
 * Two deliberate differences, both to bound the takeover time by {@code leaseDuration +
 * retryPeriod} after the leader's last renewal: a standby looks at the record every half retry
 * period (client-go: every 1 to 2.2 retry periods), and it tries again at the very instant the
 * record it observed expires.
 *
 * <p>Leadership lost is final: {@link Listener#stoppedLeading()} is called once and the process
 * is expected to exit (its caches and flows cannot be trusted to restart cleanly). From the moment
 * the renew deadline passes, {@link #isLeading()} is false, so fenced writes stop at once, also in a
 * process that was paused (SIGSTOP) and resumes: the monotonic clock went on meanwhile.
 */
public final class LeaderElector implements Leadership, AutoCloseable {

    private static final Logger LOG = LogManager.getLogger();

    /** What the process is told. Both calls come from the elector's thread and must return quickly. */
    public interface Listener {
        /** This process now holds the lock: start working (asynchronously). */
        void startedLeading();

        /** The lock was lost (or could not be renewed in time): stop writing and exit. Called at most once. */
        void stoppedLeading();
    }

    /** Where the elector stands. */
    public enum Role { NOT_STARTED, STANDBY, LEADING, LOST, CLOSED }

    private final LeaseStore store;
    private final String identity;
    private final LeaderElectionTimings timings;
    private final Scheduler scheduler;
    private final Listener listener;
    private final RandomGenerator random;
    private final LongSupplier nanoTime;
    private final LeaseAttempts attempts;
    private final AttemptFailures failures;

    // Guarded by this. Monotonic readings in nanoseconds (*Nanos), wall-clock instants for display.
    private Role role = Role.NOT_STARTED;
    /** When the last successful renewal's attempt began; meaningful while leading. */
    private long lastRenewNanos;
    private Instant lastContact;
    private long lastContactNanos;
    private Instant lastAttempt;
    private long lastAttemptNanos;
    private Cancellable nextTick = () -> { };
    private Cancellable watchdog = () -> { };

    /**
     * @param scheduler its waits must be monotonic (a production scheduler's are); its {@code now()} dates
     *     the Lease's {@code acquireTime} and {@code renewTime}
     * @param nanoTime  the monotonic clock ({@code System::nanoTime}), for every local deadline
     * @param outages   where an unreachable API server is reported (shared with the process's watches, so that
     *     an outage is one warning); null: such failures are reported like any other
     */
    public LeaderElector(LeaseStore store, String identity, LeaderElectionTimings timings, Scheduler scheduler,
            LongSupplier nanoTime, Listener listener, RandomGenerator random, OutageLog outages) {
        this.store = Objects.requireNonNull(store, "store");
        this.identity = Objects.requireNonNull(identity, "identity");
        this.timings = Objects.requireNonNull(timings, "timings");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.random = Objects.requireNonNull(random, "random");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        if (identity.isBlank()) {
            throw new IllegalArgumentException("the leader-election identity must not be empty");
        }
        this.attempts = new LeaseAttempts(store, identity, timings, nanoTime);
        this.failures = new AttemptFailures(store.describe(), timings.retryPeriod(), outages);
    }

    /** Starts competing for the lock. */
    public synchronized void start() {
        if (role != Role.NOT_STARTED) {
            return;
        }
        role = Role.STANDBY;
        LOG.info("leader election: competing for Lease {} as {}", store.describe(), identity);
        nextTick = scheduler.execute(this::tick);
    }

    /**
     * Whether this process may write: it holds the lock and its last successful renewal began less
     * than the renew deadline ago on the monotonic clock (the renew deadline is shorter than the
     * lease, so no standby can have taken over meanwhile).
     */
    @Override
    public synchronized boolean isLeading() {
        return role == Role.LEADING && withinRenewDeadline(nanoTime.getAsLong());
    }

    @Override
    public synchronized Duration leadingFor() {
        Duration left = role == Role.LEADING ? timings.renewDeadline().minus(since(lastRenewNanos)) : Duration.ZERO;
        return left.isNegative() ? Duration.ZERO : left;
    }

    private boolean withinRenewDeadline(long now) {
        return now - lastRenewNanos < timings.renewDeadline().toNanos();
    }

    public synchronized Role role() {
        return role;
    }

    public String identity() {
        return identity;
    }

    /**
     * When an attempt last ended conclusively (acquired, renewed, held by another, lost a race), if
     * ever: a standby whose attempts fail (no answer, forbidden, namespace missing) cannot take over.
     */
    public synchronized Optional<Instant> lastContact() {
        return Optional.ofNullable(lastContact);
    }

    /** How long ago {@link #lastContact()} was, on the monotonic clock. */
    public synchronized Optional<Duration> sinceLastContact() {
        return lastContact == null ? Optional.empty() : Optional.of(since(lastContactNanos));
    }

    /** When the elector last tried to acquire or renew, if ever: the loop's own liveness. */
    public synchronized Optional<Instant> lastAttempt() {
        return Optional.ofNullable(lastAttempt);
    }

    /** How long ago {@link #lastAttempt()} was, on the monotonic clock. */
    public synchronized Optional<Duration> sinceLastAttempt() {
        return lastAttempt == null ? Optional.empty() : Optional.of(since(lastAttemptNanos));
    }

    private Duration since(long nanos) {
        return Duration.ofNanos(Math.max(0, nanoTime.getAsLong() - nanos));
    }

    public LeaderElectionTimings timings() {
        return timings;
    }

    private void tick() {
        Instant attemptAt = scheduler.now();
        long attemptAtNanos = nanoTime.getAsLong();
        synchronized (this) {
            if (role != Role.STANDBY && role != Role.LEADING) {
                return;
            }
            lastAttempt = attemptAt;
            lastAttemptNanos = attemptAtNanos;
        }
        boolean succeeded;
        try {
            succeeded = attempts.acquireOrRenew(attemptAt, attemptAtNanos);
            contact(); // acquired, renewed, or held by another: a conclusive answer
        } catch (ApiFailure failure) {
            succeeded = false;
            if (failure.is(ApiFailure.Kind.CONFLICT)) {
                contact(); // another candidate won the race: conclusive too
            }
            failures.failed(failure);
        } catch (RuntimeException unexpected) {
            succeeded = false;
            LOG.error("leader election: unexpected failure on Lease {}", store.describe(), unexpected);
        }
        boolean becameLeader = false;
        boolean lost = false;
        Duration delay;
        synchronized (this) {
            if (role != Role.STANDBY && role != Role.LEADING) {
                return;
            }
            if (succeeded) {
                failures.succeeded();
                // The write went out after the attempt began: counting the renewal from there errs on the safe side.
                lastRenewNanos = attemptAtNanos;
                if (role == Role.STANDBY) {
                    role = Role.LEADING;
                    becameLeader = true;
                }
                watchdog.cancel();
                long renewed = lastRenewNanos;
                Duration left = timings.renewDeadline().minus(since(renewed));
                watchdog = scheduler.schedule(left, () -> deadlinePassed(renewed));
                delay = timings.retryPeriod();
            } else if (role == Role.LEADING) {
                lost = !withinRenewDeadline(nanoTime.getAsLong());
                delay = timings.retryPeriod();
            } else {
                delay = standbyDelay();
            }
            if (!lost) {
                nextTick = scheduler.schedule(delay, this::tick);
            }
        }
        if (becameLeader) {
            LOG.info("leader election: {} became leader of Lease {}", identity, store.describe());
            listener.startedLeading();
        }
        if (lost) {
            lose("the Lease could not be renewed within the renew deadline of " + GoDuration.format(timings.renewDeadline()));
        }
    }

    /** Half a retry period (plus up to 10 % jitter), or less if the observed holder's lease expires sooner. */
    private Duration standbyDelay() {
        Duration half = timings.retryPeriod().dividedBy(2);
        Duration delay = half.plusNanos((long) (half.toNanos() * 0.1 * random.nextDouble()));
        Optional<Duration> untilExpiry = attempts.untilObservedHolderExpires();
        if (untilExpiry.isPresent() && untilExpiry.get().isPositive() && untilExpiry.get().compareTo(delay) < 0) {
            delay = untilExpiry.get();
        }
        return delay;
    }

    private void deadlinePassed(long renewSeen) {
        synchronized (this) {
            if (role != Role.LEADING || lastRenewNanos != renewSeen) {
                return;
            }
            if (withinRenewDeadline(nanoTime.getAsLong())) {
                // Woken early (a scheduler's timer is not this clock): look again when the deadline is due.
                watchdog = scheduler.schedule(timings.renewDeadline().minus(since(renewSeen)), () -> deadlinePassed(renewSeen));
                return;
            }
        }
        lose("no renewal of the Lease for the renew deadline of " + GoDuration.format(timings.renewDeadline()));
    }

    private void lose(String why) {
        synchronized (this) {
            if (role != Role.LEADING) {
                return;
            }
            role = Role.LOST;
            nextTick.cancel();
            watchdog.cancel();
        }
        LOG.error("leader election: {} lost leadership of Lease {}: {}; stopping all writes", identity,
                store.describe(), why);
        listener.stoppedLeading();
    }

    private synchronized void contact() {
        lastContact = scheduler.now();
        lastContactNanos = nanoTime.getAsLong();
    }

    /**
     * Stops competing. A leader releases the lock (empty holder, 1 s duration, as client-go's
     * ReleaseOnCancel does) so that a standby takes over at its next look instead of after the
     * lease duration; call this only once nothing writes any more.
     */
    @Override
    public void close() {
        synchronized (this) {
            boolean wasLeading = role == Role.LEADING;
            role = Role.CLOSED;
            nextTick.cancel();
            watchdog.cancel();
            if (!wasLeading) {
                return;
            }
        }
        attempts.release(scheduler.now());
    }
}
