package dwd.domain.scaling;

import dwd.domain.config.ResourceRef;
import java.time.Duration;
import java.util.Objects;

/**
 * Scaling one resource within a level.
 *
 * @param optional     a missing resource is skipped instead of failing the level
 * @param initialDelay wait before each attempt; zero or more
 * @param timeout      bound on each call to the scale subresource, and on the wait for ready replicas after the
 *                     scale before the next level starts; positive
 */
public record ScaleStep(ResourceRef ref, boolean optional, Duration initialDelay, Duration timeout) {

    public ScaleStep {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(timeout, "timeout");
        if (initialDelay.isNegative()) {
            throw new IllegalArgumentException("initialDelay of " + ref + " must not be negative");
        }
        if (!timeout.isPositive()) {
            throw new IllegalArgumentException("timeout of " + ref + " must be positive");
        }
    }
}
