package dwd.application.check;

import java.util.Objects;

/**
 * Names a live object: its kind (as the API serves it, e.g. {@code Deployment}), namespace and name.
 *
 * @param apiVersion {@code group/version} or {@code version} for the core group; empty means the
 *     version the API server prefers for the kind
 * @param namespace empty means the reader's default namespace; ignored for cluster-scoped kinds
 */
public record ObjectReference(String apiVersion, String kind, String namespace, String name) {

    public ObjectReference {
        apiVersion = Objects.requireNonNullElse(apiVersion, "");
        namespace = Objects.requireNonNullElse(namespace, "");
        if (kind == null || kind.isBlank()) {
            throw new IllegalArgumentException("an object reference needs a kind");
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an object reference needs a name");
        }
    }

    /** A namespaced object at the preferred version of its kind. */
    public static ObjectReference of(String kind, String namespace, String name) {
        return new ObjectReference("", kind, namespace, name);
    }

    /** {@code kind/namespace/name} (or {@code kind/name}), with the API version if one was given. */
    public String describe() {
        String object = namespace.isEmpty() ? kind + "/" + name : kind + "/" + namespace + "/" + name;
        return apiVersion.isEmpty() ? object : object + " (" + apiVersion + ")";
    }
}
