package dwd.bootstrap.run;

import dwd.domain.config.GoDuration;
import dwd.application.health.HealthCheck;
import dwd.application.health.HealthCheck.Result;
import dwd.application.port.out.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/** Liveness of a watch from its heartbeat: the last list or watch request it started. */
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
}
