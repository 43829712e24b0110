package dwd.adapters.metrics;

import dwd.application.port.out.WeederObserver;
import dwd.domain.weeding.PodState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The weeder's metrics, from its events: {@code dwd_weeders_active} and
 * {@code dwd_pods_deleted_total{shoot,service,owner}}: the shoot namespace, the service whose
 * readiness triggered the deletion and the pod's controller ({@code Kind/name}, {@code none} for a
 * bare pod). The controller, not the pod, so that "the same pods deleted again and again" is one
 * series that grows, while pod names (new with every replacement) never become labels. Each event
 * costs a set or counter update, so observing never slows a weeder.
 */
public final class WeederMetrics implements WeederObserver {

    static final String WEEDERS_ACTIVE = "dwd.weeders.active";
    static final String PODS_DELETED = "dwd.pods.deleted";

    private final MeterRegistry registry;
    private final Set<String> active = ConcurrentHashMap.newKeySet();

    public WeederMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder(WEEDERS_ACTIVE, active, Set::size).strongReference(true)
                .description("Weeders watching a namespace's pods after their service turned ready").register(registry);
    }

    @Override
    public void weederStarted(String namespace, String service, Instant until) {
        active.add(namespace + "/" + service);
    }

    @Override
    public void weederStopped(String namespace, String service, StopReason reason) {
        active.remove(namespace + "/" + service);
    }

    @Override
    public void podDeleted(String namespace, String service, PodState pod) {
        String owner = pod.controller().map(controller -> controller.kind() + "/" + controller.name()).orElse("none");
        Counter.builder(PODS_DELETED).tag("shoot", namespace).tag("service", service).tag("owner", owner)
                .description("Crash-looping pods deleted by weeders, by shoot, triggering service and the pod's controller")
                .register(registry).increment();
    }
}
