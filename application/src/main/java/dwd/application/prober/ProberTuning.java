package dwd.application.prober;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Constants of the prober that the config file does not set. The defaults are the original's
 * (3 attempts 100 ms apart, readiness polled every second, a 10 s back-off after a 429 without
 * Retry-After); tests shorten them. A scaled resource is watched for ready replicas for the
 * original's 5 s ({@link #READINESS_WAIT}), unless {@link #readinessTimeout} overrides it; a resource's
 * configured {@code timeout} bounds its calls, not that wait.
 *
 * @param attempts tries per resource and scale flow run
 * @param retryBackoff pause between tries
 * @param readinessTimeout when present, how long every scaled resource is watched for ready replicas
 *     before the flow moves on, instead of {@link #READINESS_WAIT} (demos and tests on control planes
 *     where nothing ever becomes ready)
 * @param readinessPoll spacing of those checks
 * @param throttleBackoff pause after a 429 that carries no Retry-After
 * @param minProbeSpacing the floor between two probe runs when probing early for a predicted crossing
 * @param firstRunSpacing the least time between the first runs of two probes: when many shoots arrive
 *     at once (a prober starting on a large seed), their first runs, which open a connection and
 *     build a client each, are spread out instead of all coming after the same initial delay
 */
public record ProberTuning(
        int attempts,
        Duration retryBackoff,
        Optional<Duration> readinessTimeout,
        Duration readinessPoll,
        Duration throttleBackoff,
        Duration minProbeSpacing,
        Duration firstRunSpacing) {

    /**
     * The original's readiness wait (its scaler's {@code resourceCheckTimeout}, polled every second by
     * {@code resourceCheckInterval}): how long a scaled resource is watched for ready replicas before the
     * next level starts anyway.
     */
    public static final Duration READINESS_WAIT = Duration.ofSeconds(5);

    public ProberTuning {
        Objects.requireNonNull(readinessTimeout, "readinessTimeout");
    }

    public static ProberTuning defaults() {
        return new ProberTuning(3, Duration.ofMillis(100), Optional.empty(), Duration.ofSeconds(1),
                Duration.ofSeconds(10), Duration.ofMillis(500), Duration.ofMillis(10));
    }

    /** These constants, with every readiness wait bounded by {@code timeout} instead of the resource's own. */
    public ProberTuning withReadinessTimeout(Duration timeout) {
        return new ProberTuning(attempts, retryBackoff, Optional.of(timeout), readinessPoll, throttleBackoff,
                minProbeSpacing, firstRunSpacing);
    }

    /** How long a scaled resource is watched for ready replicas. */
    Duration readinessBound() {
        return readinessTimeout.orElse(READINESS_WAIT);
    }
}
