package dwd.adapters.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The client-side rate limit's waits ({@code --kube-api-qps}, {@code --kube-api-burst}):
 * {@code dwd_client_throttled_requests_total{target}}, the requests that found the bucket empty and
 * waited for a token, and {@code dwd_client_throttle_wait_seconds_total{target}}, how long they waited
 * in all. Both are read from the throttle when scraped. Also the prober's bound on scale requests
 * at the seed at once: {@code dwd_scale_requests_in_flight}, {@code dwd_scale_requests_queued_total}
 * and {@code dwd_scale_request_queue_wait_seconds_total}.
 */
public final class ClientThrottleMetrics {

    private ClientThrottleMetrics() {
    }

    /**
     * @param target        the API server, e.g. {@code seed}
     * @param waitedRequests how many requests waited so far
     * @param waitedSeconds  how long they waited in all, in seconds
     */
    public static <T> void register(MeterRegistry registry, String target, T throttle, ToLongFunction<T> waitedRequests,
            ToDoubleFunction<T> waitedSeconds) {
        FunctionCounter.builder("dwd.client.throttled.requests", throttle, source -> waitedRequests.applyAsLong(source))
                .tag("target", target)
                .description("Requests that waited for a token of the client-side rate limit (--kube-api-qps, --kube-api-burst)")
                .register(registry);
        FunctionCounter.builder("dwd.client.throttle.wait", throttle, waitedSeconds)
                .tag("target", target)
                .baseUnit("seconds")
                .description("Time requests waited for the client-side rate limit, in total")
                .register(registry);
    }

    /**
     * @param inFlight       scale requests at the seed now
     * @param waitedRequests how many scale requests found every place taken and waited, so far
     * @param waitedSeconds  how long they waited in all, in seconds
     */
    public static <T> void registerScaleRequestBound(MeterRegistry registry, T bound, ToDoubleFunction<T> inFlight,
            ToLongFunction<T> waitedRequests, ToDoubleFunction<T> waitedSeconds) {
        Gauge.builder("dwd.scale.requests.in.flight", bound, inFlight)
                .description("Scale requests (reads and writes of dependents) at the seed now; at most a few dozen at once")
                .register(registry);
        FunctionCounter.builder("dwd.scale.requests.queued", bound, source -> waitedRequests.applyAsLong(source))
                .description("Scale requests that found the bound on requests at the seed at once reached and waited")
                .register(registry);
        FunctionCounter.builder("dwd.scale.request.queue.wait", bound, waitedSeconds)
                .baseUnit("seconds")
                .description("Time scale requests waited for a place under the bound, in total")
                .register(registry);
    }
}
