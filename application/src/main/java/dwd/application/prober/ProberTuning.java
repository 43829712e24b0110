package dwd.application.prober;

import java.time.Duration;

/**
 * Constants of the prober that the config file does not set. The defaults are the original's
 * (3 attempts 100 ms apart, a 5 s readiness wait polled every second, a 10 s back-off after a
 * 429 without Retry-After); tests shorten them.
 *
 * @param attempts tries per resource and scale flow run
 * @param retryBackoff pause between tries
 * @param readinessTimeout how long a scaled resource is watched for ready replicas before the flow moves on
 * @param readinessPoll spacing of those checks
 * @param throttleBackoff pause after a 429 that carries no Retry-After
 * @param minProbeSpacing the floor between two probe runs when probing early for a predicted crossing
 */
public record ProberTuning(
        int attempts,
        Duration retryBackoff,
        Duration readinessTimeout,
        Duration readinessPoll,
        Duration throttleBackoff,
        Duration minProbeSpacing) {

    public static ProberTuning defaults() {
        return new ProberTuning(3, Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofSeconds(1),
                Duration.ofSeconds(10), Duration.ofMillis(500));
    }

    public ProberTuning withReadinessTimeout(Duration timeout) {
        return new ProberTuning(attempts, retryBackoff, timeout, readinessPoll, throttleBackoff, minProbeSpacing);
    }
}
