package dwd.application.port.out;

import dwd.domain.config.ResourceRef;
import java.util.Map;

/**
 * A dependent resource as read for scaling: its annotations and the replicas of its scale
 * subresource.
 */
public record ScalableResource(ResourceRef ref, Map<String, String> annotations, int specReplicas, int readyReplicas) {

    public ScalableResource {
        annotations = Map.copyOf(annotations);
    }
}
