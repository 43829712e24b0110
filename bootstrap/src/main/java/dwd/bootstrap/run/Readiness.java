package dwd.bootstrap.run;

import dwd.application.port.out.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;

/** Waits at start-up for caches to sync, polling through the scheduler. */
final class Readiness {

    private Readiness() {
    }

    /**
     * Returns when {@code condition} holds.
     *
     * @throws IllegalStateException naming {@code what} if it does not hold within {@code timeout}
     */
    static void await(Scheduler scheduler, String what, Duration timeout, BooleanSupplier condition) {
        Instant deadline = scheduler.now().plus(timeout);
        var done = new CompletableFuture<Void>();
        poll(scheduler, condition, deadline, done);
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + " did not become ready within " + timeout
                    + "; check the seed connection and the RBAC of dwd's service account", e.getCause());
        }
    }

    private static void poll(Scheduler scheduler, BooleanSupplier condition, Instant deadline,
            CompletableFuture<Void> done) {
        if (condition.getAsBoolean()) {
            done.complete(null);
        } else if (scheduler.now().isAfter(deadline)) {
            done.completeExceptionally(new IllegalStateException("timed out"));
        } else {
            scheduler.schedule(Duration.ofMillis(100), () -> poll(scheduler, condition, deadline, done));
        }
    }
}
