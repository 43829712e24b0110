package dwd.adapters.k8s.prober.secret;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Map;
import java.util.Optional;

/**
 * A Secret as Gson reads it from the seed, reduced to identity and data.
 *
 * <p>Not client-java's {@code V1Secret}: that model rejects fields it does not know with an exception
 * whose message is the whole object, data included, which a watch failure would log. This class
 * drops unknown fields silently, so a secret's content never reaches a log.
 */
public final class KubeconfigSecret implements KubernetesObject {

    private String apiVersion;
    private String kind;
    private Metadata metadata;
    private Map<String, String> data;

    /** For Gson. */
    public KubeconfigSecret() {
    }

    /** The value of data key {@code key}, still base64-encoded. */
    public Optional<String> base64Data(String key) {
        return data == null ? Optional.empty() : Optional.ofNullable(data.get(key));
    }

    @Override
    public V1ObjectMeta getMetadata() {
        Metadata meta = metadata == null ? new Metadata() : metadata;
        return new V1ObjectMeta()
                .name(meta.name)
                .namespace(meta.namespace)
                .uid(meta.uid)
                .resourceVersion(meta.resourceVersion);
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    /** The identity fields of {@code metadata}; labels and annotations (which may quote the data) are left out. */
    static final class Metadata {
        private String name;
        private String namespace;
        private String uid;
        private String resourceVersion;
    }
}
