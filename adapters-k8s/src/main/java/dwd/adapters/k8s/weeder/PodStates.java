package dwd.adapters.k8s.weeder;

import dwd.domain.weeding.ContainerState;
import dwd.domain.weeding.PodOwner;
import dwd.domain.weeding.PodState;
import io.kubernetes.client.openapi.models.V1ContainerStateWaiting;
import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodStatus;
import java.util.List;
import java.util.Optional;

/** Reads what the weeder needs from a {@link V1Pod}; absent fields become empty values, never errors. */
final class PodStates {

    private PodStates() {
    }

    static PodState of(V1Pod pod) {
        V1ObjectMeta meta = pod.getMetadata() == null ? new V1ObjectMeta() : pod.getMetadata();
        V1PodStatus status = pod.getStatus();
        return new PodState(meta.getNamespace(), meta.getName(), meta.getUid(), meta.getDeletionTimestamp() != null,
                containers(status == null ? null : status.getContainerStatuses()),
                containers(status == null ? null : status.getInitContainerStatuses()),
                controller(meta.getOwnerReferences()));
    }

    /** The owner reference marked {@code controller: true} (the API server allows at most one). */
    private static Optional<PodOwner> controller(List<V1OwnerReference> owners) {
        if (owners == null) {
            return Optional.empty();
        }
        return owners.stream()
                .filter(owner -> owner != null && Boolean.TRUE.equals(owner.getController()))
                .filter(owner -> owner.getKind() != null && owner.getName() != null && owner.getApiVersion() != null)
                .findFirst()
                .map(owner -> new PodOwner(owner.getApiVersion(), owner.getKind(), owner.getName()));
    }

    private static List<ContainerState> containers(List<V1ContainerStatus> statuses) {
        if (statuses == null) {
            return List.of();
        }
        return statuses.stream()
                .filter(status -> status != null)
                .map(status -> new ContainerState(status.getName(), waitingReason(status)))
                .toList();
    }

    private static Optional<String> waitingReason(V1ContainerStatus status) {
        return Optional.ofNullable(status.getState())
                .map(state -> state.getWaiting())
                .map(V1ContainerStateWaiting::getReason);
    }
}
