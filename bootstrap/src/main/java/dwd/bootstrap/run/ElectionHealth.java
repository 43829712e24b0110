package dwd.bootstrap.run;

import dwd.adapters.k8s.leader.LeaderElector;
import dwd.application.health.HealthCheck;
import dwd.application.health.HealthCheck.Result;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/** The health checks of a role with leader election (reused by the weeder). */
public final class ElectionHealth {

    private ElectionHealth() {
    }

    /**
     * Ready when leading and {@code workReady} (caches synced), or when a healthy standby: its last
     * conclusive Lease round trip is less than a lease duration old, so this replica can take over.
     */
    public static HealthCheck readiness(LeaderElector elector, BooleanSupplier workReady) {
        return () -> switch (elector.role()) {
            case NOT_STARTED -> Result.failing("leader-election", "not started yet");
            case LOST, CLOSED -> Result.failing("leader-election", "leadership lost or given up: the process is exiting");
            case LEADING -> workReady.getAsBoolean()
                    ? Result.ok("leader-election", "leading; caches synced")
                    : Result.failing("leader-election", "leading; caches not synced yet");
            case STANDBY -> {
                Optional<Instant> contact = elector.lastContact();
                Duration allowed = elector.timings().leaseDuration();
                // Ages on the monotonic clock: a step of the wall clock must not fail a healthy standby.
                if (elector.sinceLastContact().filter(age -> age.compareTo(allowed) <= 0).isPresent()) {
                    yield Result.ok("leader-election", "standby: another replica holds the Lease; ready to take over");
                }
                yield Result.failing("leader-election", contact
                        .map(at -> "standby: no successful Lease round trip since " + at)
                        .orElse("standby: no successful Lease round trip yet"));
            }
        };
    }

    /** Alive while the election loop keeps trying (it tries every retry period, each try bounded by the call timeout). */
    public static HealthCheck liveness(LeaderElector elector) {
        Duration allowed = elector.timings().retryPeriod().plus(elector.timings().callTimeout()).multipliedBy(3);
        return () -> {
            Optional<Instant> attempt = elector.lastAttempt();
            boolean running = elector.role() == LeaderElector.Role.STANDBY || elector.role() == LeaderElector.Role.LEADING;
            if (running && elector.sinceLastAttempt().filter(age -> age.compareTo(allowed) > 0).isPresent()) {
                return Result.failing("leader-election-loop", "no acquire or renew attempt since " + attempt.orElseThrow());
            }
            return Result.ok("leader-election-loop", "attempting every " + elector.timings().retryPeriod().toMillis() + "ms");
        };
    }
}
