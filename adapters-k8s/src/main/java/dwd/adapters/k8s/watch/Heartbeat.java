package dwd.adapters.k8s.watch;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * When a list-watch last heard from its server (a listed object, a watch event, a bookmark, the
 * headers of an answer, the end of a watch), on the monotonic clock, and the check that cuts a
 * request that stays silent for longer than the bound. Every watch asks the server to end it within
 * a shorter time ({@code timeoutSeconds}), which kube-apiserver does whether or not anything changed:
 * a request that hears nothing for longer is on a connection that died without closing.
 */
final class Heartbeat {

    /** One daemon thread for every watch's silence checks: a check only reads a clock and may cancel a call. */
    private static final ScheduledExecutorService CHECKS = checks();

    private final Duration bound;
    private final LongSupplier nanoTime;
    private final long createdAt;
    private volatile long lastHeard;
    private volatile boolean heardOnce;

    Heartbeat(Duration bound, LongSupplier nanoTime) {
        this.bound = bound;
        this.nanoTime = nanoTime;
        this.createdAt = nanoTime.getAsLong();
    }

    Duration bound() {
        return bound;
    }

    /** The server said something. */
    void heard() {
        lastHeard = nanoTime.getAsLong();
        heardOnce = true;
    }

    /** Since the server last said something; before it ever did, since this watch was made. */
    Duration age() {
        return Duration.ofNanos(Math.max(0, nanoTime.getAsLong() - (heardOnce ? lastHeard : createdAt)));
    }

    /** Whether the server has said nothing for longer than the bound. */
    boolean silentBeyondBound() {
        return age().compareTo(bound) > 0;
    }

    /**
     * Runs {@code onSilence} once if nothing is heard for longer than the bound from now on (the
     * request just sent counts as the start of the silence), until the returned check is disarmed
     * (when the request has ended).
     */
    SilenceCheck afterSilence(Runnable onSilence) {
        var check = new SilenceCheck(nanoTime.getAsLong(), onSilence);
        check.scheduleIn(bound.toNanos());
        return check;
    }

    private static ScheduledExecutorService checks() {
        var executor = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().name("dwd-watch-silence").daemon().factory());
        executor.setRemoveOnCancelPolicy(true);
        return Executors.unconfigurableScheduledExecutorService(executor);
    }

    /** The check of one request; a check that finds no silence yet schedules the next at the earliest it could. */
    final class SilenceCheck {
        private final long armedAt;
        private final Runnable onSilence;
        private volatile boolean disarmed;
        private volatile ScheduledFuture<?> next;

        private SilenceCheck(long armedAt, Runnable onSilence) {
            this.armedAt = armedAt;
            this.onSilence = onSilence;
        }

        /** The request ended: nothing more is checked. */
        void disarm() {
            disarmed = true;
            ScheduledFuture<?> scheduled = next;
            if (scheduled != null) {
                scheduled.cancel(false);
            }
        }

        private void scheduleIn(long nanos) {
            if (!disarmed) {
                next = CHECKS.schedule(this::check, nanos, TimeUnit.NANOSECONDS);
            }
        }

        private void check() {
            if (disarmed) {
                return;
            }
            long quietSince = heardOnce ? Math.max(lastHeard, armedAt) : armedAt;
            long left = quietSince + bound.toNanos() - nanoTime.getAsLong();
            if (left <= 0) {
                onSilence.run();
            } else {
                scheduleIn(left);
            }
        }
    }
}
