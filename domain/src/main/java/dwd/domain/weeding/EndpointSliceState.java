package dwd.domain.weeding;

import dwd.domain.internal.NullSafe;
import java.util.List;

/**
 * An EndpointSlice of a watched service.
 *
 * @param namespace   the slice's namespace
 * @param name        the slice's name
 * @param serviceName the value of its {@code kubernetes.io/service-name} label; {@code ""} when absent
 * @param endpoints   the slice's endpoints
 */
public record EndpointSliceState(String namespace, String name, String serviceName, List<Endpoint> endpoints) {

    public EndpointSliceState {
        namespace = NullSafe.text(namespace);
        name = NullSafe.text(name);
        serviceName = NullSafe.text(serviceName);
        endpoints = NullSafe.list(endpoints);
    }
}
