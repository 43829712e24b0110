package dwd.application.archfixture;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

import java.time.Duration;
import java.util.Date;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

/**
 * A deliberate violation: a use case that waits by the machine's clock instead of through the
 * Scheduler, one way per method. Analysed only in isolation; never run.
 */
public final class WaitsByTheMachinesClock {

    public void objectWait(Object lock) throws InterruptedException {
        synchronized (lock) {
            lock.wait(10);
            lock.wait(10, 0);
        }
    }

    public void threadWaits(Thread thread) throws InterruptedException {
        Thread.sleep(Duration.ofMillis(10));
        thread.join(10);
        thread.join(Duration.ofMillis(10));
    }

    public void timeUnitWaits(Object lock, Thread thread) throws InterruptedException {
        TimeUnit.MILLISECONDS.timedWait(lock, 10);
        TimeUnit.MILLISECONDS.timedJoin(thread, 10);
    }

    public void parks() {
        LockSupport.parkNanos(10);
        LockSupport.parkUntil(this, 10);
    }

    public void timedAwaits(CountDownLatch latch, Condition condition, Date deadline) throws InterruptedException {
        latch.await(10, MILLISECONDS);
        condition.await(10, MILLISECONDS);
        condition.awaitNanos(10);
        condition.awaitUntil(deadline);
    }

    public void timedPolls(BlockingQueue<Object> queue) throws InterruptedException {
        queue.poll(10, MILLISECONDS);
        queue.offer(this, 10, MILLISECONDS);
    }

    public Object timedGet(Future<Object> future) throws Exception {
        return future.get(10, MILLISECONDS);
    }

    public void timedAcquires(Semaphore semaphore, Lock lock) throws InterruptedException {
        semaphore.tryAcquire(10, MILLISECONDS);
        lock.tryLock(10, MILLISECONDS);
    }

    public void futureTimeouts(CompletableFuture<String> future) {
        future.orTimeout(10, MILLISECONDS);
        future.completeOnTimeout("late", 10, MILLISECONDS);
        CompletableFuture.delayedExecutor(10, MILLISECONDS);
    }

    public void schedules(ScheduledExecutorService executor, Runnable task) throws InterruptedException {
        executor.schedule(task, 10, MILLISECONDS);
        executor.scheduleAtFixedRate(task, 10, 10, MILLISECONDS);
        executor.scheduleWithFixedDelay(task, 10, 10, MILLISECONDS);
        executor.awaitTermination(10, MILLISECONDS);
    }

    public long delayLeft(ScheduledFuture<?> due) {
        return due.getDelay(MILLISECONDS);
    }

    public void processWaits(Process process) throws InterruptedException {
        process.waitFor(10, MILLISECONDS);
        process.waitFor(Duration.ofMillis(10));
    }

    public void timer(TimerTask task) {
        new Timer().schedule(task, 10);
    }

    public DelayQueue<Delayed> delayQueue() {
        return new DelayQueue<>();
    }
}
