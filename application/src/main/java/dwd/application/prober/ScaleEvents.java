package dwd.application.prober;

import dwd.application.port.out.EventRecorder;
import dwd.application.port.out.EventRecorder.Event;
import dwd.application.port.out.EventRecorder.ObjectRef;
import dwd.application.port.out.ProberObserver;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;

/**
 * A Kubernetes Event on each dependent the prober scaled ({@code ScaledDown} / {@code ScaledUp},
 * Normal) or failed to scale ({@code ScaleDownFailed} / {@code ScaleUpFailed}, Warning), regarding
 * the dependent itself, with the verdict's numbers in the note.
 */
public final class ScaleEvents implements ProberObserver {

    /** Event reasons, as operators filter on them ({@code kubectl get events --field-selector reason=ScaledDown}). */
    public static final String SCALED_DOWN = "ScaledDown";
    public static final String SCALED_UP = "ScaledUp";
    public static final String SCALE_DOWN_FAILED = "ScaleDownFailed";
    public static final String SCALE_UP_FAILED = "ScaleUpFailed";
    static final String ACTION = "Scale";

    private final EventRecorder events;

    public ScaleEvents(EventRecorder events) {
        this.events = events;
    }

    @Override
    public void resourceScaled(String ns, ScaleDirection direction, ResourceRef ref, int from, int to, LeaseVerdict cause) {
        boolean down = direction == ScaleDirection.DOWN;
        events.record(new Event(regarding(ns, ref), EventRecorder.Type.NORMAL, down ? SCALED_DOWN : SCALED_UP, ACTION,
                (down ? "Scaled down" : "Scaled up") + " from " + from + " to " + to + " replicas: " + cause.summary()
                        + (down ? " (meltdown protection)" : " (node leases renewed again)")));
    }

    @Override
    public void resourceFailed(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        boolean down = direction == ScaleDirection.DOWN;
        events.record(new Event(regarding(ns, ref), EventRecorder.Type.WARNING,
                down ? SCALE_DOWN_FAILED : SCALE_UP_FAILED, ACTION,
                "Could not scale " + (down ? "down" : "up") + ": " + reason));
    }

    private static ObjectRef regarding(String ns, ResourceRef ref) {
        return new ObjectRef(ref.apiVersion(), ref.kind(), ns, ref.name());
    }
}
