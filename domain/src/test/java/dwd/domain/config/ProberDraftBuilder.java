package dwd.domain.config;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** Changes one or two keys of a prober draft, so a test shows only what it varies. */
final class ProberDraftBuilder {

    private String kubeConfigSecretName;
    private String probeInterval;
    private String initialDelay;
    private String probeTimeout;
    private Double backoffJitterFactor;
    private List<DependentResourceInfoDraft> dependentResourceInfos;
    private String kcmNodeMonitorGraceDuration;
    private Double nodeLeaseFailureFraction;
    private Integer failureThreshold;
    private Integer successThreshold;

    static ProberDraftBuilder from(ProberConfigDraft draft) {
        ProberDraftBuilder builder = new ProberDraftBuilder();
        builder.kubeConfigSecretName = draft.kubeConfigSecretName();
        builder.probeInterval = draft.probeInterval();
        builder.initialDelay = draft.initialDelay();
        builder.probeTimeout = draft.probeTimeout();
        builder.backoffJitterFactor = draft.backoffJitterFactor();
        builder.dependentResourceInfos = draft.dependentResourceInfos() == null ? null : new ArrayList<>(draft.dependentResourceInfos());
        builder.kcmNodeMonitorGraceDuration = draft.kcmNodeMonitorGraceDuration();
        builder.nodeLeaseFailureFraction = draft.nodeLeaseFailureFraction();
        builder.failureThreshold = draft.failureThreshold();
        builder.successThreshold = draft.successThreshold();
        return builder;
    }

    ProberDraftBuilder kubeConfigSecretName(String value) { kubeConfigSecretName = value; return this; }
    ProberDraftBuilder probeInterval(String value) { probeInterval = value; return this; }
    ProberDraftBuilder initialDelay(String value) { initialDelay = value; return this; }
    ProberDraftBuilder probeTimeout(String value) { probeTimeout = value; return this; }
    ProberDraftBuilder backoffJitterFactor(Double value) { backoffJitterFactor = value; return this; }
    ProberDraftBuilder dependentResourceInfos(List<DependentResourceInfoDraft> value) { dependentResourceInfos = value; return this; }
    ProberDraftBuilder kcmNodeMonitorGraceDuration(String value) { kcmNodeMonitorGraceDuration = value; return this; }
    ProberDraftBuilder nodeLeaseFailureFraction(Double value) { nodeLeaseFailureFraction = value; return this; }
    ProberDraftBuilder failureThreshold(Integer value) { failureThreshold = value; return this; }
    ProberDraftBuilder successThreshold(Integer value) { successThreshold = value; return this; }

    /** Replaces resource {@code index} with what {@code change} makes of it. */
    ProberDraftBuilder resource(int index, UnaryOperator<DependentResourceInfoDraft> change) {
        dependentResourceInfos.set(index, change.apply(dependentResourceInfos.get(index)));
        return this;
    }

    ProberConfigDraft build() {
        return new ProberConfigDraft(kubeConfigSecretName, probeInterval, initialDelay, probeTimeout, backoffJitterFactor,
                dependentResourceInfos, kcmNodeMonitorGraceDuration, nodeLeaseFailureFraction, failureThreshold, successThreshold);
    }
}
