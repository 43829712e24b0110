package dwd.adapters.k8s.prober.secret;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
import java.util.List;

/** A list of {@link KubeconfigSecret}s, as the informer's list call returns it. */
public final class KubeconfigSecretList implements KubernetesListObject {

    private String apiVersion;
    private String kind;
    private V1ListMeta metadata;
    private List<KubeconfigSecret> items;

    /** For Gson. */
    public KubeconfigSecretList() {
    }

    @Override
    public V1ListMeta getMetadata() {
        return metadata == null ? new V1ListMeta() : metadata;
    }

    @Override
    public List<KubeconfigSecret> getItems() {
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
