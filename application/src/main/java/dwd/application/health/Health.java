package dwd.application.health;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The checks of {@code /healthz} (liveness: the process and its loops make progress; failing means
 * "restart me") and {@code /readyz} (readiness: caches synced, leading or a healthy standby; failing
 * means "do not count on me now"). Checks are added by whoever owns a loop; evaluation never
 * blocks, so the endpoints answer even while every loop is stuck.
 */
public final class Health {

    /** All results of one evaluation; healthy when every check is. */
    public record Report(boolean healthy, List<HealthCheck.Result> results) {
        public Report {
            results = List.copyOf(results);
        }
    }

    private final List<HealthCheck> liveness = new CopyOnWriteArrayList<>();
    private final List<HealthCheck> readiness = new CopyOnWriteArrayList<>();
    private volatile boolean stopping;

    public Health addLiveness(HealthCheck check) {
        liveness.add(Objects.requireNonNull(check));
        return this;
    }

    public Health addReadiness(HealthCheck check) {
        readiness.add(Objects.requireNonNull(check));
        return this;
    }

    /** From now on the process is not ready: it is shutting down. */
    public void markStopping() {
        stopping = true;
    }

    public Report liveness() {
        return evaluate(liveness, false);
    }

    public Report readiness() {
        return evaluate(readiness, stopping);
    }

    private static Report evaluate(List<HealthCheck> checks, boolean stopping) {
        var results = new java.util.ArrayList<HealthCheck.Result>();
        if (stopping) {
            results.add(HealthCheck.Result.failing("shutdown", "the process is shutting down"));
        }
        for (HealthCheck check : checks) {
            try {
                results.add(check.check());
            } catch (RuntimeException e) {
                results.add(HealthCheck.Result.failing(check.getClass().getSimpleName(), "check failed: " + e));
            }
        }
        return new Report(results.stream().allMatch(HealthCheck.Result::healthy), results);
    }
}
