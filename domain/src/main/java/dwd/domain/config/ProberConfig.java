package dwd.domain.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The prober's settings, validated and with defaults filled in; see {@link ProberConfigs} for the defaults and the
 * rules.
 *
 * @param kubeConfigSecretName        Secret in each shoot namespace whose key {@code kubeconfig} reaches the shoot
 * @param probeInterval               base time between probes
 * @param initialDelay                wait before a shoot's first probe
 * @param probeTimeout                bound on each request to the shoot's API server
 * @param backoffJitterFactor         fraction of {@code probeInterval} added as random jitter, in [0, 1]
 * @param dependentResourceInfos      the resources to scale, in config order; never empty
 * @param kcmNodeMonitorGraceDuration grace period that node lease expiry is measured against, unless the shoot sets one
 * @param nodeLeaseFailureFraction    fraction of expired leases at or above which the prober scales down, in (0, 1]
 * @param failureThreshold            consecutive failed probes before scaling down
 * @param successThreshold            consecutive successful probes before scaling up
 */
public record ProberConfig(
        String kubeConfigSecretName,
        Duration probeInterval,
        Duration initialDelay,
        Duration probeTimeout,
        double backoffJitterFactor,
        List<DependentResourceInfo> dependentResourceInfos,
        Duration kcmNodeMonitorGraceDuration,
        double nodeLeaseFailureFraction,
        int failureThreshold,
        int successThreshold) {

    public ProberConfig {
        Objects.requireNonNull(kubeConfigSecretName, "kubeConfigSecretName");
        dependentResourceInfos = List.copyOf(dependentResourceInfos);
        require(!kubeConfigSecretName.isBlank(), "kubeConfigSecretName must not be empty");
        require(probeInterval.isPositive(), "probeInterval must be positive");
        require(!initialDelay.isNegative(), "initialDelay must not be negative");
        require(probeTimeout.isPositive(), "probeTimeout must be positive");
        require(backoffJitterFactor >= 0 && backoffJitterFactor <= 1, "backoffJitterFactor must be between 0 and 1");
        require(!dependentResourceInfos.isEmpty(), "dependentResourceInfos must not be empty");
        require(kcmNodeMonitorGraceDuration.isPositive(), "kcmNodeMonitorGraceDuration must be positive");
        require(nodeLeaseFailureFraction > 0 && nodeLeaseFailureFraction <= 1,
                "nodeLeaseFailureFraction must be greater than 0 and at most 1");
        require(failureThreshold >= 1, "failureThreshold must be at least 1");
        require(successThreshold >= 1, "successThreshold must be at least 1");
    }

    private static void require(boolean condition, String problem) {
        if (!condition) {
            throw new IllegalArgumentException(problem);
        }
    }
}
