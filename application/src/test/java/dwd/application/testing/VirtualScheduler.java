package dwd.application.testing;

import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;

/**
 * A scheduler on virtual time: nothing runs until the test advances the clock, and then every
 * task due runs on the test's thread, in time order (ties in scheduling order). Minutes of
 * probing take milliseconds and are fully deterministic.
 */
public final class VirtualScheduler implements Scheduler {

    private record Entry(Instant due, long sequence, Runnable task, boolean[] cancelled) { }

    private final PriorityQueue<Entry> queue = new PriorityQueue<>(
            (a, b) -> a.due.equals(b.due) ? Long.compare(a.sequence, b.sequence) : a.due.compareTo(b.due));
    private Instant now;
    private long sequence;

    public VirtualScheduler(Instant start) {
        this.now = start;
    }

    public VirtualScheduler() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Override
    public synchronized Instant now() {
        return now;
    }

    @Override
    public synchronized Cancellable schedule(Duration delay, Runnable task) {
        Instant due = delay.isNegative() ? now : now.plus(delay);
        boolean[] cancelled = {false};
        queue.add(new Entry(due, sequence++, task, cancelled));
        return () -> cancelled[0] = true;
    }

    /** Runs every task due up to {@code now + duration}, then sets the clock there. */
    public void advanceBy(Duration duration) {
        advanceTo(now().plus(duration));
    }

    /** Runs every task due up to {@code target} (including tasks those tasks schedule), then sets the clock there. */
    public void advanceTo(Instant target) {
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
        advanceTo(now());
    }

    /** The number of tasks waiting (cancelled ones included until their time comes). */
    public synchronized int pendingTasks() {
        return (int) queue.stream().filter(entry -> !entry.cancelled[0]).count();
    }
}
