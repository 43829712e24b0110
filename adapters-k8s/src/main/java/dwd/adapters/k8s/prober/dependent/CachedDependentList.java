package dwd.adapters.k8s.prober.dependent;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
import java.util.List;

/** A list of {@link CachedDependent}s, as the informer's list call returns it. */
public final class CachedDependentList implements KubernetesListObject {

    private String apiVersion;
    private String kind;
    private V1ListMeta metadata;
    private List<CachedDependent> items;

    /** For Gson. */
    public CachedDependentList() {
    }

    @Override
    public V1ListMeta getMetadata() {
        return metadata == null ? new V1ListMeta() : metadata;
    }

    @Override
    public List<CachedDependent> getItems() {
        return items == null ? List.of() : items;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }
}
