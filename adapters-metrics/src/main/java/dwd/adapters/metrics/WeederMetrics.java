package dwd.adapters.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The weeder's metrics: {@code dwd_weeders_active} and {@code dwd_pods_deleted_total{namespace,service}}.
 * Hook for the weeder: its observer calls these three methods (as {@link ProberMetrics} does for
 * the prober's events).
 */
public final class WeederMetrics {

    static final String WEEDERS_ACTIVE = "dwd.weeders.active";
    static final String PODS_DELETED = "dwd.pods.deleted";

    private final MeterRegistry registry;
    private final Set<String> active = ConcurrentHashMap.newKeySet();

    public WeederMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder(WEEDERS_ACTIVE, active, Set::size).strongReference(true)
                .description("Weeders watching a namespace's pods after their service turned ready").register(registry);
    }

    /** A weeder started for {@code service} in {@code namespace}. */
    public void weederStarted(String namespace, String service) {
        active.add(namespace + "/" + service);
    }

    /** That weeder ended (its watch duration passed, or it was cancelled). */
    public void weederStopped(String namespace, String service) {
        active.remove(namespace + "/" + service);
    }

    /** A crash-looping pod was deleted because {@code service} turned ready. */
    public void podDeleted(String namespace, String service) {
        Counter.builder(PODS_DELETED).tag("namespace", namespace).tag("service", service)
                .description("Crash-looping pods deleted by weeders, by the service whose readiness triggered them")
                .register(registry).increment();
    }
}
