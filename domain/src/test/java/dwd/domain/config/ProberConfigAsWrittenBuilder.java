package dwd.domain.config;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** Changes one or two keys of a prober config as written, so a test shows only what it varies. */
final class ProberConfigAsWrittenBuilder {

    private String kubeConfigSecretName;
    private String probeInterval;
    private String initialDelay;
    private String probeTimeout;
    private Double backoffJitterFactor;
    private List<DependentResourceInfoAsWritten> dependentResourceInfos;
    private String kcmNodeMonitorGraceDuration;
    private Double nodeLeaseFailureFraction;
    private Integer failureThreshold;
    private Integer successThreshold;

    static ProberConfigAsWrittenBuilder from(ProberConfigAsWritten written) {
        ProberConfigAsWrittenBuilder builder = new ProberConfigAsWrittenBuilder();
        builder.kubeConfigSecretName = written.kubeConfigSecretName();
        builder.probeInterval = written.probeInterval();
        builder.initialDelay = written.initialDelay();
        builder.probeTimeout = written.probeTimeout();
        builder.backoffJitterFactor = written.backoffJitterFactor();
        builder.dependentResourceInfos = written.dependentResourceInfos() == null ? null : new ArrayList<>(written.dependentResourceInfos());
        builder.kcmNodeMonitorGraceDuration = written.kcmNodeMonitorGraceDuration();
        builder.nodeLeaseFailureFraction = written.nodeLeaseFailureFraction();
        builder.failureThreshold = written.failureThreshold();
        builder.successThreshold = written.successThreshold();
        return builder;
    }

    ProberConfigAsWrittenBuilder kubeConfigSecretName(String value) { kubeConfigSecretName = value; return this; }
    ProberConfigAsWrittenBuilder probeInterval(String value) { probeInterval = value; return this; }
    ProberConfigAsWrittenBuilder initialDelay(String value) { initialDelay = value; return this; }
    ProberConfigAsWrittenBuilder probeTimeout(String value) { probeTimeout = value; return this; }
    ProberConfigAsWrittenBuilder backoffJitterFactor(Double value) { backoffJitterFactor = value; return this; }
    ProberConfigAsWrittenBuilder dependentResourceInfos(List<DependentResourceInfoAsWritten> value) { dependentResourceInfos = value; return this; }
    ProberConfigAsWrittenBuilder kcmNodeMonitorGraceDuration(String value) { kcmNodeMonitorGraceDuration = value; return this; }
    ProberConfigAsWrittenBuilder nodeLeaseFailureFraction(Double value) { nodeLeaseFailureFraction = value; return this; }
    ProberConfigAsWrittenBuilder failureThreshold(Integer value) { failureThreshold = value; return this; }
    ProberConfigAsWrittenBuilder successThreshold(Integer value) { successThreshold = value; return this; }

    /** Replaces resource {@code index} with what {@code change} makes of it. */
    ProberConfigAsWrittenBuilder resource(int index, UnaryOperator<DependentResourceInfoAsWritten> change) {
        dependentResourceInfos.set(index, change.apply(dependentResourceInfos.get(index)));
        return this;
    }

    ProberConfigAsWritten build() {
        return new ProberConfigAsWritten(kubeConfigSecretName, probeInterval, initialDelay, probeTimeout, backoffJitterFactor,
                dependentResourceInfos, kcmNodeMonitorGraceDuration, nodeLeaseFailureFraction, failureThreshold, successThreshold);
    }
}
