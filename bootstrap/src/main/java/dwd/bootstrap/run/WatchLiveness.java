package dwd.bootstrap.run;

import dwd.domain.config.GoDuration;
import dwd.application.health.HealthCheck;
import dwd.application.health.HealthCheck.Result;
import dwd.application.port.out.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** Liveness of watches: from a watch's heartbeat (its last list or watch request), or from watches that ended for good. */
final class WatchLiveness {

    private WatchLiveness() {
    }

    /**
     * Fails when the watch, once started, started no list or watch for longer than {@code allowed};
     * before its first request its start counts as one.
     */
    static HealthCheck of(String name, Clock clock, Supplier<Instant> startedAt,
            Supplier<Optional<Instant>> lastListOrWatch, Duration allowed) {
        return () -> {
            Instant started = startedAt.get();
            if (started == null) {
                return Result.ok(name, "not started (standby)");
            }
            Instant last = lastListOrWatch.get().orElse(started);
            if (clock.now().isAfter(last.plus(allowed))) {
                return Result.failing(name, "no list or watch started since " + last + " (a healthy watch starts one"
                        + " at least every " + GoDuration.format(allowed) + ")");
            }
            return Result.ok(name, "last list or watch started at " + last);
        };
    }

    /**
     * Fails while any watch's loop has ended without being closed (an error it cannot go on from): its
     * cache will not fill again and only a restart brings it back. A watch that went silent or failed
     * restarts by itself and keeps this check passing.
     */
    static HealthCheck dead(String name, Supplier<List<String>> deadWatches) {
        return () -> {
            List<String> dead = deadWatches.get();
            return dead.isEmpty() ? Result.ok(name, "every watch of the seed runs")
                    : Result.failing(name, (dead.size() == 1 ? "the watch of " : "the watches of ")
                            + String.join(", ", dead) + " stopped for good and cannot restart: "
                            + (dead.size() == 1 ? "its cache is" : "their caches are")
                            + " not trusted any more; restarting dwd brings them back");
        };
    }
}
