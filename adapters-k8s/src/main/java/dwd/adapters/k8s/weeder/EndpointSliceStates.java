package dwd.adapters.k8s.weeder;

import dwd.domain.weeding.Endpoint;
import dwd.domain.weeding.EndpointSliceState;
import io.kubernetes.client.openapi.models.V1Endpoint;
import io.kubernetes.client.openapi.models.V1EndpointSlice;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads what readiness needs from a {@link V1EndpointSlice}; absent fields become empty values, never errors. */
final class EndpointSliceStates {

    /** The label that ties a slice to its Service. */
    static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

    private EndpointSliceStates() {
    }

    static EndpointSliceState of(V1EndpointSlice slice) {
        V1ObjectMeta meta = slice.getMetadata() == null ? new V1ObjectMeta() : slice.getMetadata();
        Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
        List<V1Endpoint> endpoints = slice.getEndpoints() == null ? List.of() : slice.getEndpoints();
        return new EndpointSliceState(meta.getNamespace(), meta.getName(), labels.get(SERVICE_NAME_LABEL),
                endpoints.stream()
                        .filter(endpoint -> endpoint != null)
                        .map(endpoint -> new Endpoint(Optional.ofNullable(endpoint.getConditions())
                                .map(conditions -> conditions.getReady())))
                        .toList());
    }
}
