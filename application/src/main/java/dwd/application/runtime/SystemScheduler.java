package dwd.application.runtime;

import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Clock;
import dwd.application.port.out.Scheduler;
import dwd.domain.time.SaturatingTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The production scheduler: one timer thread hands due tasks to virtual threads, so that tasks
 * may block on API calls without holding up the timer or each other. The timer thread is the
 * process's: every scheduler hands its due tasks over through it (it never runs one itself), so a
 * process has one such thread however many schedulers it runs.
 */
public final class SystemScheduler implements Scheduler, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SystemScheduler.class.getName());
    /** The machine's clocks are read in one place. */
    private static final Clock MACHINE = Clock.system();

    private static final ScheduledExecutorService TIMER = timer();

    private final ExecutorService workers;
    private volatile boolean closed;

    /** Runs tasks on virtual threads: for many tasks that mostly wait on API calls (probes, flows). */
    public SystemScheduler() {
        this.workers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("dwd-task-", 0).factory());
    }

    private SystemScheduler(ExecutorService workers) {
        this.workers = workers;
    }

    /**
     * A scheduler whose tasks run on platform threads (reused while busy, ended when idle), for the
     * few tasks that must run on time even while every virtual-thread carrier is busy: virtual
     * threads are not preempted, so a burst of CPU-bound probe runs would delay a task of theirs by
     * as long as the burst lasts. Leader election must not wait behind probes.
     */
    public static SystemScheduler onPlatformThreads(String name) {
        return new SystemScheduler(Executors.newCachedThreadPool(Thread.ofPlatform().name(name + "-", 0).daemon().factory()));
    }

    @Override
    public Instant now() {
        return MACHINE.now();
    }

    @Override
    public long nanoTime() {
        return MACHINE.nanoTime();
    }

    private static ScheduledExecutorService timer() {
        var timer = new java.util.concurrent.ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().name("dwd-timer").daemon().factory());
        timer.setRemoveOnCancelPolicy(true); // a cancelled probe run leaves nothing behind in the queue
        return timer;
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        var running = new AtomicReference<java.util.concurrent.Future<?>>();
        ScheduledFuture<?> due = TIMER.schedule(() -> {
            if (!closed) {
                try {
                    running.set(workers.submit(() -> runLogged(task)));
                } catch (java.util.concurrent.RejectedExecutionException stopped) {
                    // closed meanwhile: the task does not run
                }
            }
        }, Math.max(0, SaturatingTime.nanos(delay)), TimeUnit.NANOSECONDS);
        return () -> due.cancel(false);
    }

    private static void runLogged(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "scheduled task failed", e);
        }
    }

    /** Stops accepting tasks and waits briefly for running ones (in-flight API calls have their own timeouts). */
    @Override
    public void close() {
        closed = true;
        workers.shutdown();
        try {
            if (!workers.awaitTermination(30, TimeUnit.SECONDS)) {
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
