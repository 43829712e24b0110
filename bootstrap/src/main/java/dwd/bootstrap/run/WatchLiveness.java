package dwd.bootstrap.run;

import dwd.domain.config.GoDuration;
import dwd.application.health.HealthCheck;
import dwd.application.health.HealthCheck.Result;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** Liveness of watches: from a watch's heartbeat (its last list or watch request), or from watches that ended for good. */
final class WatchLiveness {

    private WatchLiveness() {
    }

    /**
     * Fails when the watch, once started, started no list or watch for longer than {@code allowed};
     * before its first request its start counts as one. Both ages are on the monotonic clock, so a step
     * of the wall clock fails nothing.
     *
     * @param sinceStarted         since the watch was started; empty before (a standby)
     * @param sinceLastListOrWatch since its last list or watch request started; empty before the first
     */
    static HealthCheck of(String name, Supplier<Optional<Duration>> sinceStarted,
            Supplier<Optional<Duration>> sinceLastListOrWatch, Duration allowed) {
        return () -> {
            Optional<Duration> started = sinceStarted.get();
            if (started.isEmpty()) {
                return Result.ok(name, "not started (standby)");
            }
            Duration quiet = sinceLastListOrWatch.get().orElse(started.get());
            String quietFor = GoDuration.format(quiet.truncatedTo(ChronoUnit.SECONDS));
            if (quiet.compareTo(allowed) > 0) {
                return Result.failing(name, "no list or watch started for " + quietFor + " (a healthy watch starts one"
                        + " at least every " + GoDuration.format(allowed) + ")");
            }
            return Result.ok(name, "last list or watch started " + quietFor + " ago");
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
