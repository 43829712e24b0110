package dwd.application.weeder;

import dwd.application.port.out.EventRecorder;
import dwd.application.port.out.EventRecorder.Event;
import dwd.application.port.out.EventRecorder.ObjectRef;
import dwd.application.port.out.WeederObserver;
import dwd.domain.weeding.PodState;

/**
 * A Kubernetes Event ({@code PodDeleted}, Normal, action {@code Delete}) on each pod a weeder
 * deleted. It regards the pod's controller (its owner reference with {@code controller: true},
 * e.g. the ReplicaSet or StatefulSet) when it has one: the pod itself is gone, and its events with
 * it, while the controller is what an operator looks at ({@code kubectl describe statefulset}). A
 * bare pod is regarded itself.
 */
public final class PodDeletionEvents implements WeederObserver {

    /** The event reason, as operators filter on it ({@code kubectl get events --field-selector reason=PodDeleted}). */
    public static final String POD_DELETED = "PodDeleted";
    static final String ACTION = "Delete";

    private final EventRecorder events;

    public PodDeletionEvents(EventRecorder events) {
        this.events = events;
    }

    @Override
    public void podDeleted(String namespace, String service, PodState pod) {
        ObjectRef regarding = pod.controller()
                .map(owner -> new ObjectRef(owner.apiVersion(), owner.kind(), namespace, owner.name()))
                .orElseGet(() -> new ObjectRef("v1", "Pod", namespace, pod.name()));
        events.record(new Event(regarding, EventRecorder.Type.NORMAL, POD_DELETED, ACTION,
                "Deleted pod " + pod.name() + " (uid " + pod.uid() + "), stuck in CrashLoopBackOff, so that it restarts"
                        + " now: service " + service + " is ready again"));
    }
}
