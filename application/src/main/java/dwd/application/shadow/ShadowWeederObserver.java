package dwd.application.shadow;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Pods;
import dwd.application.port.out.ShadowObserver;
import dwd.application.port.out.WeederObserver;
import dwd.domain.dryrun.DryRunMode;
import dwd.domain.weeding.PodState;
import java.time.Instant;

/**
 * The weeder's reports in shadow mode: a deleted pod is reported as a would-be deletion, with the
 * server's answer, to the {@link ShadowObserver}s only; everything else is passed on unchanged.
 */
public final class ShadowWeederObserver implements WeederObserver {

    private final DryRunMode mode;
    private final ShadowPods pods;
    private final WeederObserver observer;
    private final ShadowObserver shadow;

    public ShadowWeederObserver(DryRunMode mode, ShadowPods pods, WeederObserver observer, ShadowObserver shadow) {
        this.mode = mode;
        this.pods = pods;
        this.observer = observer;
        this.shadow = shadow;
    }

    @Override
    public void podDeleted(String namespace, String service, PodState pod) {
        shadow.wouldDelete(new ShadowObserver.WouldDelete(mode, namespace, service, pod, pods.takeAnswer(pod.uid())));
    }

    @Override
    public void serviceReadinessChanged(String namespace, String service, boolean ready) {
        observer.serviceReadinessChanged(namespace, service, ready);
    }

    @Override
    public void weederStarted(String namespace, String service, Instant until) {
        observer.weederStarted(namespace, service, until);
    }

    @Override
    public void weederStopped(String namespace, String service, StopReason reason) {
        observer.weederStopped(namespace, service, reason);
    }

    @Override
    public void podLeftAlone(String namespace, String service, PodState pod, Pods.Deletion outcome) {
        observer.podLeftAlone(namespace, service, pod, outcome);
    }

    @Override
    public void podDeletionFailed(String namespace, String service, PodState pod, ApiFailure failure) {
        observer.podDeletionFailed(namespace, service, pod, failure);
    }
}
