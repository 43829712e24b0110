package dwd.domain.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How one resource takes part in a scale-up or a scale-down.
 *
 * @param level        lower levels run first; resources on the same level run in parallel; any int, gaps allowed
 * @param initialDelay wait before each attempt to scale the resource; zero or more
 * @param timeout      bound on each call that reads or scales the resource, and on the wait for its ready
 *                     replicas after the scale before the next level starts; positive
 */
public record ScaleInfo(int level, Duration initialDelay, Duration timeout) {

    public ScaleInfo {
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(timeout, "timeout");
        if (initialDelay.isNegative()) {
            throw new IllegalArgumentException("initialDelay must not be negative, was " + GoDuration.format(initialDelay));
        }
        if (!timeout.isPositive()) {
            throw new IllegalArgumentException("timeout must be positive, was " + GoDuration.format(timeout));
        }
    }
}
