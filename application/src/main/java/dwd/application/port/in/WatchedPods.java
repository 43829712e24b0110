package dwd.application.port.in;

import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.PodState;

/**
 * What the comparison with the original is told about the pods the weeders' selectors select, in every
 * namespace: each version a watch sees, and each deletion with the pod's last state. Events for one
 * selector arrive in order.
 */
public interface WatchedPods {

    /** A pod {@code selector} selects was added or changed (also replayed when the watch lists). */
    void podChanged(LabelSelector selector, PodState pod);

    /** A pod {@code selector} selected is gone; {@code lastSeen} is its last state before. */
    void podDeleted(LabelSelector selector, PodState lastSeen);
}
