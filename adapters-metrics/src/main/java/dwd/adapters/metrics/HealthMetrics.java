package dwd.adapters.metrics;

import dwd.application.health.Health;
import dwd.application.health.HealthCheck;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.Supplier;

/**
 * {@code dwd_health_check_passing{endpoint,check}}: 1 while a check of {@code /healthz} or
 * {@code /readyz} passes, 0 while it fails, so that a stalled loop pages someone even where the
 * health endpoints only restart the pod. Read at scrape time from the same checks the endpoints
 * evaluate (which never block).
 */
public final class HealthMetrics {

    static final String CHECK_PASSING = "dwd.health.check.passing";

    private HealthMetrics() {
    }

    /** One series per check {@code health} has now; call once every check is added. */
    public static void register(MeterRegistry registry, Health health) {
        register(registry, "healthz", health::liveness);
        register(registry, "readyz", health::readiness);
    }

    private static void register(MeterRegistry registry, String endpoint, Supplier<Health.Report> report) {
        for (HealthCheck.Result result : report.get().results()) {
            String check = result.name();
            Gauge.builder(CHECK_PASSING, report, r -> passing(r.get(), check))
                    .tag("endpoint", endpoint).tag("check", check).strongReference(true)
                    .description("1 while the health check passes, 0 while it fails")
                    .register(registry);
        }
    }

    private static double passing(Health.Report report, String check) {
        return report.results().stream().filter(result -> result.name().equals(check)).findFirst()
                .map(result -> result.healthy() ? 1.0 : 0.0).orElse(Double.NaN);
    }
}
