package dwd.domain.weeding;

import dwd.domain.internal.NullSafe;
import java.util.List;
import java.util.Optional;

/**
 * A dependent pod the weeder may delete.
 *
 * @param namespace      the pod's namespace
 * @param name           the pod's name
 * @param uid            the pod's UID, the precondition of its deletion (a replacement with the same name has another)
 * @param beingDeleted   {@code metadata.deletionTimestamp} is set
 * @param containers     {@code status.containerStatuses}
 * @param initContainers {@code status.initContainerStatuses}
 * @param controller     the owner reference marked {@code controller: true}; empty for a bare pod
 */
public record PodState(String namespace, String name, String uid, boolean beingDeleted,
                       List<ContainerState> containers, List<ContainerState> initContainers,
                       Optional<PodOwner> controller) {

    public PodState {
        namespace = NullSafe.text(namespace);
        name = NullSafe.text(name);
        uid = NullSafe.text(uid);
        containers = NullSafe.list(containers);
        initContainers = NullSafe.list(initContainers);
        controller = NullSafe.optional(controller);
    }

    /** A pod without a controller. */
    public PodState(String namespace, String name, String uid, boolean beingDeleted,
            List<ContainerState> containers, List<ContainerState> initContainers) {
        this(namespace, name, uid, beingDeleted, containers, initContainers, Optional.empty());
    }
}
