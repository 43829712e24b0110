package dwd.bootstrap.run;

import dwd.domain.config.GoDuration;
import dwd.application.port.out.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;

/** Waits at start-up for caches to sync, polling through the scheduler. */
public final class Readiness {

    private Readiness() {
    }

    /**
     * Returns when {@code condition} holds.
     *
     * @throws IllegalStateException naming {@code what} if it does not hold within {@code timeout}
     */
    public static void await(Scheduler scheduler, String what, Duration timeout, BooleanSupplier condition) {
        Instant deadline = scheduler.now().plus(timeout);
        var done = new CompletableFuture<Void>();
        poll(scheduler, condition, deadline, done);
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure && !"timed out".equals(failure.getMessage())) {
                throw failure;
            }
            throw new IllegalStateException(what + " did not become ready within " + GoDuration.format(timeout), e.getCause());
        }
    }

    private static void poll(Scheduler scheduler, BooleanSupplier condition, Instant deadline,
            CompletableFuture<Void> done) {
        boolean ready;
        try {
            ready = condition.getAsBoolean();
        } catch (RuntimeException failure) {
            done.completeExceptionally(failure);
            return;
        }
        if (ready) {
            done.complete(null);
        } else if (scheduler.now().isAfter(deadline)) {
            done.completeExceptionally(new IllegalStateException("timed out"));
        } else {
            scheduler.schedule(Duration.ofMillis(100), () -> poll(scheduler, condition, deadline, done));
        }
    }
}
