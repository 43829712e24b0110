package dwd.adapters.k8s.prober.dependent;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.HashMap;
import java.util.Map;

/**
 * A Deployment or StatefulSet as the prober's cache keeps it: identity, dwd's own annotations,
 * {@code spec.replicas} and {@code status.readyReplicas}. Gson fills only these fields and skips the rest of the object (pod
 * template, status, managed fields) while reading it.
 */
public final class CachedDependent implements KubernetesObject {

    /** dwd's annotations share this prefix; the cache keeps no other annotation. */
    public static final String ANNOTATION_PREFIX = "dependency-watchdog.gardener.cloud/";

    private String apiVersion;
    private String kind;
    private Metadata metadata;
    private Spec spec;
    private Status status;

    /** For Gson. */
    public CachedDependent() {
    }

    /** The object with only what the cache keeps. */
    public CachedDependent slim() {
        var slim = new CachedDependent();
        slim.apiVersion = apiVersion;
        slim.kind = kind;
        slim.metadata = new Metadata();
        if (metadata != null) {
            slim.metadata.name = metadata.name;
            slim.metadata.namespace = metadata.namespace;
            slim.metadata.uid = metadata.uid;
            slim.metadata.resourceVersion = metadata.resourceVersion;
            if (metadata.annotations != null) {
                var kept = new HashMap<String, String>();
                metadata.annotations.forEach((key, value) -> {
                    if (key.startsWith(ANNOTATION_PREFIX)) {
                        kept.put(key, value);
                    }
                });
                slim.metadata.annotations = kept.isEmpty() ? Map.of() : Map.copyOf(kept);
            }
        }
        slim.spec = new Spec();
        slim.spec.replicas = spec == null ? null : spec.replicas;
        slim.status = new Status();
        slim.status.readyReplicas = status == null ? null : status.readyReplicas;
        return slim;
    }

    /** dwd's annotations of the object. */
    public Map<String, String> annotations() {
        return metadata == null || metadata.annotations == null ? Map.of() : metadata.annotations;
    }

    /** {@code spec.replicas}; the API server fills in 1 when it is not set, and omits it when it is 0. */
    public int specReplicas() {
        return spec == null || spec.replicas == null ? 0 : spec.replicas;
    }

    /** {@code status.readyReplicas}, 0 when not set. */
    public int readyReplicas() {
        return status == null || status.readyReplicas == null ? 0 : status.readyReplicas;
    }

    @Override
    public V1ObjectMeta getMetadata() {
        Metadata meta = metadata == null ? new Metadata() : metadata;
        return new V1ObjectMeta().name(meta.name).namespace(meta.namespace).uid(meta.uid)
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

    static final class Metadata {
        private String name;
        private String namespace;
        private String uid;
        private String resourceVersion;
        private Map<String, String> annotations;
    }

    static final class Spec {
        private Integer replicas;
    }

    static final class Status {
        private Integer readyReplicas;
    }
}
