package dwd.domain.config;

import java.util.List;

/**
 * A prober config file as written, before defaults and validation: every field is {@code null} when its key is
 * absent (or explicitly null), durations are the raw Go duration strings. {@link ProberConfigs#validate} turns it into
 * a {@link ProberConfig}.
 */
public record ProberConfigDraft(
        String kubeConfigSecretName,
        String probeInterval,
        String initialDelay,
        String probeTimeout,
        Double backoffJitterFactor,
        List<DependentResourceInfoDraft> dependentResourceInfos,
        String kcmNodeMonitorGraceDuration,
        Double nodeLeaseFailureFraction,
        Integer failureThreshold,
        Integer successThreshold) {

    public ProberConfigDraft {
        dependentResourceInfos = Copies.listKeepingNulls(dependentResourceInfos);
    }

    /** A draft with every key absent, as an empty file gives. */
    public static ProberConfigDraft empty() {
        return new ProberConfigDraft(null, null, null, null, null, null, null, null, null, null);
    }
}
