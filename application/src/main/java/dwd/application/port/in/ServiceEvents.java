package dwd.application.port.in;

import dwd.domain.weeding.EndpointSliceState;

/**
 * What the weeder is told about the EndpointSlices of the configured services. Events for one slice
 * must arrive in order (one watch delivers them so); events for different slices may arrive
 * concurrently.
 */
public interface ServiceEvents {

    /**
     * A slice was added or changed (also replayed for every slice when the watch starts). A slice
     * whose {@code kubernetes.io/service-name} label names no configured service counts as removed.
     */
    void sliceChanged(EndpointSliceState slice);

    /** A slice was deleted, or no longer shows to the watch (for example its service label changed). */
    void sliceRemoved(String namespace, String sliceName);
}
