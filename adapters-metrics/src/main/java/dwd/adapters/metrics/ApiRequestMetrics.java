package dwd.adapters.metrics;

import dwd.application.port.out.ApiTraffic;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * Requests to Kubernetes API servers by target, verb and code, the throttled ones (429) by target,
 * and their latency by target and verb as a histogram.
 */
public final class ApiRequestMetrics implements ApiTraffic {

    static final String API_REQUESTS = "dwd.api.requests";
    static final String THROTTLED = "dwd.throttled.requests";
    static final String DURATION = "dwd.api.request.duration";

    /**
     * Bucket bounds of the latency histogram: a healthy API server answers in milliseconds, a loaded
     * one in hundreds, and the prober's calls time out after seconds (its probe timeout, 30 s by default).
     */
    static final Duration[] BUCKETS = {
        Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
        Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30),
    };

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

    @Override
    public void requestCompleted(String target, String verb, int code, Duration elapsed) {
        requestCompleted(target, verb, code);
        Timer.builder(DURATION).tag("target", target).tag("verb", verb)
                .serviceLevelObjectives(BUCKETS)
                .description("Latency of requests to Kubernetes API servers, until the response headers (a watch: until established)")
                .register(registry).record(elapsed);
    }

    private Counter throttled(String target) {
        return Counter.builder(THROTTLED).tag("target", target)
                .description("Requests an API server answered with 429 Too Many Requests").register(registry);
    }
}
