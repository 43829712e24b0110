package dwd.adapters.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.DoubleSupplier;

/** The age of the caches the roles decide on: how long since each last heard from its API server. */
public final class CacheMetrics {

    private CacheMetrics() {
    }

    /**
     * {@code dwd_cache_age_seconds{cache}}: seconds since the oldest running cache of {@code cache} (a
     * resource, e.g. {@code deployments}) last heard from the seed (an object, an event, a bookmark, the
     * end of a watch, which comes within a minute);
     * NaN while none runs (a standby, the weeder's pods outside its windows).
     */
    public static void age(MeterRegistry registry, String cache, DoubleSupplier seconds) {
        Gauge.builder("dwd.cache.age", seconds, DoubleSupplier::getAsDouble).tag("cache", cache).baseUnit("seconds")
                .strongReference(true)
                .description("Seconds since the cache last heard from its API server (an object, an event, a"
                        + " bookmark or the end of a watch, which kube-apiserver sends within a minute)")
                .register(registry);
    }
}
