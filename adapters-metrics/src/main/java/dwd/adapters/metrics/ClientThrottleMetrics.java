package dwd.adapters.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The client-side rate limit's waits ({@code --kube-api-qps}, {@code --kube-api-burst}):
 * {@code dwd_client_throttled_requests_total{target}}, the requests that found the bucket empty and
 * waited for a token, and {@code dwd_client_throttle_wait_seconds_total{target}}, how long they waited
 * in all. Both are read from the throttle when scraped.
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
}
