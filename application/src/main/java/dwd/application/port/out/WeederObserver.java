package dwd.application.port.out;

import dwd.domain.weeding.PodState;
import java.time.Instant;

/**
 * What the weeder does, reported as it happens: for logs, metrics and Kubernetes events.
 * Implementations must be fast and must not throw; they may be called from several threads.
 */
public interface WeederObserver {

    /** Why a weeder stopped. */
    enum StopReason {
        /** Its {@code watchDuration} ended. */
        EXPIRED,
        /** The service it was started for is not ready any more (no ready endpoint, or no slice at all). */
        SERVICE_NOT_READY,
        /** The weeder as a whole is shutting down. */
        SHUTDOWN,
    }

    /** The service's readiness across all of its slices changed. */
    default void serviceReadinessChanged(String namespace, String service, boolean ready) { }

    /** A weeder started: it watches the service's dependent pods until {@code until}. */
    default void weederStarted(String namespace, String service, Instant until) { }

    default void weederStopped(String namespace, String service, StopReason reason) { }

    /** A crash-looping pod was deleted (in server dry-run: the server accepted the deletion). */
    default void podDeleted(String namespace, String service, PodState pod) { }

    /** A crash-looping pod was not deleted because it was gone or replaced by then; not an error. */
    default void podLeftAlone(String namespace, String service, PodState pod, Pods.Deletion outcome) { }

    /** Deleting a crash-looping pod failed; a later event for the same pod tries again. */
    default void podDeletionFailed(String namespace, String service, PodState pod, ApiFailure failure) { }
}
