package dwd.domain.weeding;

import dwd.domain.internal.NullSafe;
import java.util.List;

/**
 * A dependent pod the weeder may delete.
 *
 * @param namespace      the pod's namespace
 * @param name           the pod's name
 * @param uid            the pod's UID, the precondition of its deletion (a replacement with the same name has another)
 * @param beingDeleted   {@code metadata.deletionTimestamp} is set
 * @param containers     {@code status.containerStatuses}
 * @param initContainers {@code status.initContainerStatuses}
 */
public record PodState(String namespace, String name, String uid, boolean beingDeleted,
                       List<ContainerState> containers, List<ContainerState> initContainers) {

    public PodState {
        namespace = NullSafe.text(namespace);
        name = NullSafe.text(name);
        uid = NullSafe.text(uid);
        containers = NullSafe.list(containers);
        initContainers = NullSafe.list(initContainers);
    }
}
