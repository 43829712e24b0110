package dwd.adapters.metrics;

import dwd.application.port.out.ApiTraffic;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** Requests to Kubernetes API servers by target, verb and code, and the throttled ones (429) by target. */
public final class ApiRequestMetrics implements ApiTraffic {

    static final String API_REQUESTS = "dwd.api.requests";
    static final String THROTTLED = "dwd.throttled.requests";

    private final MeterRegistry registry;

    public ApiRequestMetrics(MeterRegistry registry, String... targets) {
        this.registry = registry;
        for (String target : targets) {
            throttled(target); // present at 0, so that an alert on its rate has a series to look at
        }
    }

    @Override
    public void requestCompleted(String target, String verb, int code) {
        Counter.builder(API_REQUESTS)
                .tag("target", target).tag("verb", verb).tag("code", code == NO_RESPONSE ? "none" : Integer.toString(code))
                .description("Requests to Kubernetes API servers; code none means no response (timeout, refused, reset)")
                .register(registry).increment();
        if (code == 429) {
            throttled(target).increment();
        }
    }

    private Counter throttled(String target) {
        return Counter.builder(THROTTLED).tag("target", target)
                .description("Requests an API server answered with 429 Too Many Requests").register(registry);
    }
}
