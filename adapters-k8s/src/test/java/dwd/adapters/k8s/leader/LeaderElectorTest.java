package dwd.adapters.k8s.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Scheduler;
import dwd.application.testing.VirtualScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The election algorithm on virtual time, against an in-memory Lease with optimistic concurrency.
 * Virtual time is every candidate's monotonic clock; a candidate's wall clock can be stepped.
 */
class LeaderElectorTest {

    static final LeaderElectionTimings TIMINGS = new LeaderElectionTimings(
            Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));

    /** One Lease in memory: versions as the API server keeps them; a stale update is a conflict. */
    static final class InMemoryLease {
        private LeaseRecord stored;
        private long version;
        final List<String> writers = new ArrayList<>();

        synchronized Optional<LeaseRecord> get() {
            return Optional.ofNullable(stored);
        }

        synchronized LeaseRecord write(LeaseRecord record, boolean create) {
            if (create ? stored != null : stored == null || !record.resourceVersion().equals(stored.resourceVersion())) {
                throw new ApiFailure(ApiFailure.Kind.CONFLICT, "conflict");
            }
            stored = new LeaseRecord(record.holderIdentity(), record.leaseDurationSeconds(), record.acquireTime(),
                    record.renewTime(), record.leaseTransitions(), Optional.of(Long.toString(++version)));
            writers.add(record.holderIdentity());
            return stored;
        }
    }

    /** A candidate's view of the Lease; {@link #dead} makes every call fail, like a process that is gone. */
    static final class Store implements LeaseStore {
        private final InMemoryLease lease;
        volatile boolean dead;

        Store(InMemoryLease lease) {
            this.lease = lease;
        }

        private void check() {
            if (dead) {
                throw new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "gone");
            }
        }

        @Override
        public Optional<LeaseRecord> get() {
            check();
            return lease.get();
        }

        @Override
        public LeaseRecord create(LeaseRecord record) {
            check();
            return lease.write(record, true);
        }

        @Override
        public LeaseRecord update(LeaseRecord record) {
            check();
            return lease.write(record, false);
        }

        @Override
        public String describe() {
            return "test/lock";
        }
    }

    static final class Events implements LeaderElector.Listener {
        Instant started;
        Instant stopped;
        private final VirtualScheduler clock;

        Events(VirtualScheduler clock) {
            this.clock = clock;
        }

        @Override
        public void startedLeading() {
            started = clock.now();
        }

        @Override
        public void stoppedLeading() {
            stopped = clock.now();
        }
    }

    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final InMemoryLease lease = new InMemoryLease();

    private LeaderElector candidate(String id, Store store, Events events, long seed) {
        return candidate(id, store, events, seed, new NodeClock(scheduler));
    }

    private LeaderElector candidate(String id, Store store, Events events, long seed, NodeClock clock) {
        return elector(id, store, events, seed, clock);
    }

    static LeaderElector elector(String id, Store store, Events events, long seed, NodeClock clock) {
        return new LeaderElector(store, id, TIMINGS, clock, clock::nanoTime, events, new SplittableRandom(seed), null);
    }

    /**
     * One node's clocks over the shared virtual time: its monotonic clock is virtual time itself, its wall
     * clock is virtual time plus a step that the test can change (an NTP correction, {@code date -s}).
     */
    static final class NodeClock implements Scheduler {
        private final VirtualScheduler time;
        private volatile Duration step = Duration.ZERO;

        NodeClock(VirtualScheduler time) {
            this.time = time;
        }

        void stepWallClock(Duration by) {
            step = step.plus(by);
        }

        @Override
        public Instant now() {
            return time.now().plus(step);
        }

        /** The monotonic clock: virtual time in nanoseconds, which no step moves. */
        public long nanoTime() {
            return Duration.between(Instant.EPOCH, time.now()).toNanos();
        }

        @Override
        public Cancellable schedule(Duration delay, Runnable task) {
            return time.schedule(delay, task);
        }
    }

    @Test
    void aLoneCandidateAcquiresAtOnceAndRenewsEveryRetryPeriod() {
        var events = new Events(scheduler);
        var elector = candidate("a", new Store(lease), events, 1);
        elector.start();
        scheduler.runDue();
        assertThat(elector.isLeading()).isTrue();
        assertThat(events.started).isEqualTo(scheduler.now());
        scheduler.advanceBy(Duration.ofSeconds(61));
        assertThat(lease.writers).hasSize(1 + 30).containsOnly("a");
        assertThat(lease.get().orElseThrow().leaseTransitions()).isZero();
        assertThat(events.stopped).isNull();
    }

    @Test
    void aLeaderThatCannotRenewStopsLeadingAtTheRenewDeadlineBeforeAnyoneCanTakeOver() {
        var storeA = new Store(lease);
        var eventsA = new Events(scheduler);
        var eventsB = new Events(scheduler);
        var a = candidate("a", storeA, eventsA, 1);
        a.start();
        scheduler.runDue();
        var b = candidate("b", new Store(lease), eventsB, 2);
        b.start();
        scheduler.advanceBy(Duration.ofSeconds(30));
        assertThat(b.isLeading()).isFalse();
        assertThat(b.role()).isEqualTo(LeaderElector.Role.STANDBY);
        assertThat(b.lastContact()).isPresent();

        Instant lastRenew = lease.get().orElseThrow().renewTime().orElseThrow();
        storeA.dead = true;
        scheduler.advanceTo(lastRenew.plus(TIMINGS.renewDeadline()).minusMillis(1));
        assertThat(a.isLeading()).isTrue();
        assertThat(a.leadingFor()).as("what a write may still take").isEqualTo(Duration.ofMillis(1));
        assertThat(b.leadingFor()).isZero();
        scheduler.advanceBy(Duration.ofMillis(1));
        assertThat(a.isLeading()).as("fenced at the renew deadline").isFalse();
        assertThat(a.leadingFor()).isZero();
        assertThat(eventsA.stopped).isEqualTo(lastRenew.plus(TIMINGS.renewDeadline()));
        assertThat(a.role()).isEqualTo(LeaderElector.Role.LOST);

        scheduler.advanceBy(Duration.ofSeconds(20));
        assertThat(eventsB.started).as("b takes over only after the lease duration")
                .isAfterOrEqualTo(lastRenew.plus(TIMINGS.leaseDuration()))
                .isBeforeOrEqualTo(lastRenew.plus(TIMINGS.leaseDuration()).plus(TIMINGS.retryPeriod()));
        assertThat(lease.get().orElseThrow().holderIdentity()).isEqualTo("b");
        assertThat(lease.get().orElseThrow().leaseTransitions()).isEqualTo(1);
        assertThat(eventsA.stopped).isBefore(eventsB.started);
    }

    @Test
    void takeoverAfterALeaderDiesIsWithinLeaseDurationPlusRetryPeriodOfItsLastRenewal() {
        var random = new SplittableRandom(42);
        for (int run = 0; run < 200; run++) {
            var scheduler = new VirtualScheduler();
            var lease = new InMemoryLease();
            var storeA = new Store(lease);
            var a = elector("a", storeA, new Events(scheduler), run, new NodeClock(scheduler));
            var eventsB = new Events(scheduler);
            var b = elector("b", new Store(lease), eventsB, run + 1000, new NodeClock(scheduler));
            a.start();
            scheduler.runDue();
            scheduler.advanceBy(Duration.ofMillis(random.nextLong(0, 5_000)));
            b.start();
            scheduler.advanceBy(Duration.ofMillis(random.nextLong(1_000, 30_000)));
            storeA.dead = true; // killed: no more renewals, no release
            Instant lastRenew = lease.get().orElseThrow().renewTime().orElseThrow();
            scheduler.advanceBy(Duration.ofSeconds(40));
            assertThat(eventsB.started).as("run %d", run)
                    .isAfterOrEqualTo(lastRenew.plus(TIMINGS.leaseDuration()))
                    .isBeforeOrEqualTo(lastRenew.plus(TIMINGS.leaseDuration()).plus(TIMINGS.retryPeriod()));
            assertThat(b.isLeading()).isTrue();
            assertThat(a.isLeading()).isFalse();
        }
    }

    @Test
    void closingALeaderReleasesTheLeaseSoAStandbyTakesOverAtItsNextLook() {
        var a = candidate("a", new Store(lease), new Events(scheduler), 1);
        var eventsB = new Events(scheduler);
        var b = candidate("b", new Store(lease), eventsB, 2);
        a.start();
        scheduler.runDue();
        b.start();
        scheduler.advanceBy(Duration.ofSeconds(7));
        Instant closedAt = scheduler.now();
        a.close();
        assertThat(lease.get().orElseThrow().holderIdentity()).isEmpty();
        scheduler.advanceBy(Duration.ofSeconds(5));
        assertThat(eventsB.started).isBeforeOrEqualTo(closedAt.plus(TIMINGS.retryPeriod()));
        assertThat(b.isLeading()).isTrue();
    }

    @Test
    void aStandbyThatGetsNoAnswerHasNoContact() {
        var store = new Store(lease);
        store.dead = true;
        var elector = candidate("a", store, new Events(scheduler), 1);
        elector.start();
        scheduler.advanceBy(Duration.ofSeconds(10));
        assertThat(elector.role()).isEqualTo(LeaderElector.Role.STANDBY);
        assertThat(elector.lastContact()).isEmpty();
        assertThat(elector.lastAttempt()).isPresent();
    }

    @Test
    void aStandbyWhoseWallClockJumpsAnHourAheadDoesNotTakeOverFromALeaderThatRenews() {
        var a = candidate("a", new Store(lease), new Events(scheduler), 1);
        a.start();
        scheduler.runDue();
        var clockB = new NodeClock(scheduler);
        var eventsB = new Events(scheduler);
        var b = candidate("b", new Store(lease), eventsB, 2, clockB);
        b.start();
        scheduler.advanceBy(Duration.ofSeconds(5));

        clockB.stepWallClock(Duration.ofHours(1));
        scheduler.advanceBy(Duration.ofMinutes(2));

        assertThat(eventsB.started).as("b never took over").isNull();
        assertThat(b.role()).isEqualTo(LeaderElector.Role.STANDBY);
        assertThat(a.isLeading()).isTrue();
        assertThat(lease.writers).containsOnly("a");
        assertThat(b.sinceLastContact()).hasValueSatisfying(age -> assertThat(age).isLessThan(TIMINGS.retryPeriod()));
    }

    @Test
    void aLeaderWhoseWallClockJumpsBackStillStopsAtItsRenewDeadlineBeforeTheStandbyTakesOver() {
        var storeA = new Store(lease);
        var clockA = new NodeClock(scheduler);
        var eventsA = new Events(scheduler);
        var a = candidate("a", storeA, eventsA, 1, clockA);
        a.start();
        scheduler.runDue();
        var eventsB = new Events(scheduler);
        var b = candidate("b", new Store(lease), eventsB, 2);
        b.start();
        scheduler.advanceBy(Duration.ofSeconds(7));
        Instant lastRenew = scheduler.now().minus(Duration.ofSeconds(1)); // renewals every 2 s from 0: the last at 6 s

        storeA.dead = true; // a cannot renew any more...
        clockA.stepWallClock(Duration.ofHours(-1)); // ...and its wall clock goes back an hour
        List<String> bothLeading = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            scheduler.advanceBy(Duration.ofMillis(100));
            if (a.isLeading() && b.isLeading()) {
                bothLeading.add(scheduler.now().toString());
            }
        }

        assertThat(bothLeading).isEmpty();
        assertThat(eventsA.stopped).as("a stops at its renew deadline, on the monotonic clock")
                .isEqualTo(lastRenew.plus(TIMINGS.renewDeadline()));
        assertThat(eventsB.started).isAfterOrEqualTo(lastRenew.plus(TIMINGS.leaseDuration()));
        assertThat(b.isLeading()).isTrue();
    }

    @Test
    void aLeaderPausedLongerThanItsRenewDeadlineIsNoLeaderTheMomentItResumes() {
        var a = candidate("a", new Store(lease), new Events(scheduler), 1);
        a.start();
        scheduler.runDue();
        assertThat(a.isLeading()).isTrue();

        scheduler.elapse(Duration.ofSeconds(20)); // SIGSTOP for 20 s: nothing ran, the monotonic clock went on

        assertThat(a.isLeading()).as("before any of its timers has run").isFalse();
    }

    @Test
    void timingsMustNest() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new LeaderElectionTimings(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(2)))
                .withMessageContaining("--leader-elect-lease-duration");
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new LeaderElectionTimings(Duration.ofSeconds(15), Duration.ofSeconds(2), Duration.ofSeconds(2)))
                .withMessageContaining("--leader-elect-renew-deadline");
        assertThat(LeaderElectionTimings.defaults().callTimeout()).isEqualTo(Duration.ofSeconds(5));
    }
}
