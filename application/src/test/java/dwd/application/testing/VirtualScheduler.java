package dwd.application.testing;

import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Scheduler;
import dwd.domain.time.SaturatingTime;
import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;

/**
 * A scheduler on virtual time: nothing runs until the test advances the clock, and then every
 * task due runs on the test's thread, in time order (ties in scheduling order). Minutes of
 * probing take milliseconds and are fully deterministic.
 *
 * <p>Its monotonic clock is the virtual time itself; its wall clock is that plus an offset that
 * {@link #stepWallClock} changes, as an NTP correction or {@code date -s} would, without moving
 * anything scheduled.
 */
public final class VirtualScheduler implements Scheduler {

    private record Entry(Instant due, long sequence, Runnable task, boolean[] cancelled) { }

    private final PriorityQueue<Entry> queue = new PriorityQueue<>(
            (a, b) -> a.due.equals(b.due) ? Long.compare(a.sequence, b.sequence) : a.due.compareTo(b.due));
    private final Instant start;
    /** The virtual time: what tasks are due by, and the monotonic clock. */
    private Instant now;
    private Duration wallOffset = Duration.ZERO;
    private long sequence;

    public VirtualScheduler(Instant start) {
        this.start = start;
        this.now = start;
    }

    public VirtualScheduler() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Override
    public synchronized Instant now() {
        return SaturatingTime.plus(now, wallOffset);
    }

    @Override
    public synchronized long nanoTime() {
        return SaturatingTime.nanos(Duration.between(start, now));
    }

    /** The time other machines' clocks show: the virtual time without this machine's wall-clock steps. */
    public synchronized Instant unsteppedNow() {
        return now;
    }

    /** The wall clock jumps by {@code step} (negative: back); the monotonic clock and every schedule stay. */
    public synchronized void stepWallClock(Duration step) {
        wallOffset = wallOffset.plus(step);
    }

    @Override
    public synchronized Cancellable schedule(Duration delay, Runnable task) {
        Instant due = delay.isNegative() ? now : SaturatingTime.plus(now, delay);
        boolean[] cancelled = {false};
        queue.add(new Entry(due, sequence++, task, cancelled));
        return () -> cancelled[0] = true;
    }

    /** Runs every task due up to {@code now + duration}, then sets the clock there. */
    public void advanceBy(Duration duration) {
        Instant target;
        synchronized (this) {
            target = now.plus(duration);
        }
        advanceVirtualTo(target);
    }

    /**
     * Runs every task due up to the wall-clock instant {@code target} (including tasks those tasks
     * schedule), then sets the clock there.
     */
    public void advanceTo(Instant target) {
        Instant virtual;
        synchronized (this) {
            virtual = target.minus(wallOffset);
        }
        advanceVirtualTo(virtual);
    }

    private void advanceVirtualTo(Instant target) {
        while (true) {
            Entry next;
            synchronized (this) {
                next = queue.peek();
                if (next == null || next.due.isAfter(target)) {
                    if (target.isAfter(now)) {
                        now = target;
                    }
                    return;
                }
                queue.poll();
                if (next.due.isAfter(now)) {
                    now = next.due;
                }
            }
            if (!next.cancelled[0]) {
                next.task.run();
            }
        }
    }

    /**
     * Called from a running task that takes this long (a call that times out, say): the clock moves
     * on without running anything; tasks that came due meanwhile run when the test advances.
     */
    public synchronized void elapse(Duration duration) {
        now = now.plus(duration);
    }

    /** Runs what is due now without moving the clock. */
    public void runDue() {
        advanceBy(Duration.ZERO);
    }

    /** The number of tasks waiting (cancelled ones included until their time comes). */
    public synchronized int pendingTasks() {
        return (int) queue.stream().filter(entry -> !entry.cancelled[0]).count();
    }
}
