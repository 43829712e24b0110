package dwd.application.port.out;

import dwd.domain.config.ResourceRef;
import dwd.domain.scaling.SeenDependent;
import java.util.Map;
import java.util.Objects;

/**
 * A dependent resource as read for scaling: its annotations and the replicas of its scale
 * subresource, as they were at {@code version}.
 *
 * @param version the resource's version (its {@code resourceVersion}) that the other fields show: a
 *     write made "at" it ({@link ScalableResources#patchAnnotationsAt}, {@link ScalableResources#scaleAt})
 *     lands only if nothing has changed the resource since
 */
public record ScalableResource(ResourceRef ref, Map<String, String> annotations, int specReplicas, int readyReplicas,
                               String version) implements SeenDependent {

    public ScalableResource {
        annotations = Map.copyOf(annotations);
        Objects.requireNonNull(version, "version");
    }
}
