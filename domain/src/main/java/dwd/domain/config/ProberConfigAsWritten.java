package dwd.domain.config;

import java.util.List;

/**
 * A prober config file as written, before defaults and validation: every field is {@code null} when its key is
 * absent (or explicitly null), durations are the raw Go duration strings. {@link ProberConfigs#validate} turns it into
 * a {@link ProberConfig}.
 */
public record ProberConfigAsWritten(
        String kubeConfigSecretName,
        String probeInterval,
        String initialDelay,
        String probeTimeout,
        Double backoffJitterFactor,
        List<DependentResourceInfoAsWritten> dependentResourceInfos,
        String kcmNodeMonitorGraceDuration,
        Double nodeLeaseFailureFraction,
        Integer failureThreshold,
        Integer successThreshold) {

    public ProberConfigAsWritten {
        dependentResourceInfos = NullKeepingCopies.listKeepingNulls(dependentResourceInfos);
    }

    /** A config with every key absent, as an empty file gives. */
    public static ProberConfigAsWritten empty() {
        return new ProberConfigAsWritten(null, null, null, null, null, null, null, null, null, null);
    }
}
