package dwd.domain.config;

import dwd.domain.selector.LabelSelector;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The weeder's settings, validated and with defaults filled in; see {@link WeederConfigs}.
 *
 * @param watchDuration                 how long dependent pods are watched after a service turns ready; positive
 * @param servicesAndDependantSelectors service name → selectors of the pods that depend on it, in config order;
 *                                      never empty, and no service without selectors
 */
public record WeederConfig(Duration watchDuration, Map<String, List<LabelSelector>> servicesAndDependantSelectors) {

    public WeederConfig {
        Objects.requireNonNull(watchDuration, "watchDuration");
        if (!watchDuration.isPositive()) {
            throw new IllegalArgumentException("watchDuration must be positive");
        }
        Map<String, List<LabelSelector>> copy = new LinkedHashMap<>();
        servicesAndDependantSelectors.forEach((service, selectors) -> {
            Objects.requireNonNull(service, "service name");
            if (selectors.isEmpty()) {
                throw new IllegalArgumentException("service " + service + " has no pod selectors");
            }
            copy.put(service, List.copyOf(selectors));
        });
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("servicesAndDependantSelectors must not be empty");
        }
        servicesAndDependantSelectors = Collections.unmodifiableMap(copy);
    }
}
