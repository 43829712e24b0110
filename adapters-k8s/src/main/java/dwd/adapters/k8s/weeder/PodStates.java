package dwd.adapters.k8s.weeder;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dwd.adapters.k8s.JsonFields;
import dwd.domain.weeding.ContainerState;
import dwd.domain.weeding.PodOwner;
import dwd.domain.weeding.PodState;
import java.util.List;
import java.util.Optional;

/**
 * Reads what the weeder needs from a pod as the API server sent it (JSON); absent, {@code null} or
 * mistyped fields become empty values, never errors.
 *
 * <p>Pods are not bound to client-java's {@code V1Pod}: its strict model rejects a field it does not
 * know (a server newer than the client fails the whole list), and binding the first pod loads and
 * links some hundred model classes, a few hundred milliseconds that would delay the first deletion
 * of a process. The weeder reads six fields.
 */
public final class PodStates {

    private PodStates() {
    }

    public static PodState of(JsonObject pod) {
        return new PodState(
                JsonFields.string(pod, "metadata", "namespace").orElse(""),
                JsonFields.string(pod, "metadata", "name").orElse(""),
                JsonFields.string(pod, "metadata", "uid").orElse(""),
                JsonFields.at(pod, "metadata", "deletionTimestamp").isPresent(),
                containers(pod, "containerStatuses"),
                containers(pod, "initContainerStatuses"),
                controller(pod));
    }

    /** The owner reference marked {@code controller: true} (the API server allows at most one), if complete. */
    private static Optional<PodOwner> controller(JsonObject pod) {
        for (JsonObject owner : JsonFields.objects(pod, "metadata", "ownerReferences")) {
            boolean controller = JsonFields.at(owner, "controller")
                    .filter(value -> value.isJsonPrimitive() && value.getAsJsonPrimitive().isBoolean())
                    .map(JsonElement::getAsBoolean)
                    .orElse(false);
            Optional<String> apiVersion = JsonFields.string(owner, "apiVersion");
            Optional<String> kind = JsonFields.string(owner, "kind");
            Optional<String> name = JsonFields.string(owner, "name");
            if (controller && apiVersion.isPresent() && kind.isPresent() && name.isPresent()) {
                return Optional.of(new PodOwner(apiVersion.get(), kind.get(), name.get()));
            }
        }
        return Optional.empty();
    }

    private static List<ContainerState> containers(JsonObject pod, String statuses) {
        return JsonFields.objects(pod, "status", statuses).stream()
                .map(status -> new ContainerState(JsonFields.string(status, "name").orElse(""),
                        JsonFields.string(status, "state", "waiting", "reason")))
                .toList();
    }
}
