package dwd.adapters.k8s.weeder;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dwd.adapters.k8s.JsonFields;
import dwd.domain.weeding.Endpoint;
import dwd.domain.weeding.EndpointSliceState;

/**
 * Reads what readiness needs from an EndpointSlice's JSON; absent or mistyped fields become empty
 * values, never errors (the slices are other controllers' objects, possibly newer than client-java).
 */
final class EndpointSliceStates {

    /** The label that ties a slice to its Service. */
    static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

    private EndpointSliceStates() {
    }

    static EndpointSliceState of(JsonObject slice) {
        return new EndpointSliceState(
                JsonFields.string(slice, "metadata", "namespace").orElse(""),
                JsonFields.string(slice, "metadata", "name").orElse(""),
                JsonFields.stringMap(slice, "metadata", "labels").get(SERVICE_NAME_LABEL),
                JsonFields.objects(slice, "endpoints").stream()
                        .map(endpoint -> new Endpoint(JsonFields.at(endpoint, "conditions", "ready")
                                .filter(JsonElement::isJsonPrimitive)
                                .filter(ready -> ready.getAsJsonPrimitive().isBoolean())
                                .map(JsonElement::getAsBoolean)))
                        .toList());
    }
}
