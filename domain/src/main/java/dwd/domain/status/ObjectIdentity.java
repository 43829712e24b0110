package dwd.domain.status;

import java.util.Objects;

/**
 * Which object a result is about. Every part may be empty (a document without a namespace is
 * cluster-scoped or was written without one).
 */
public record ObjectIdentity(String apiVersion, String kind, String namespace, String name) {

    public ObjectIdentity {
        apiVersion = Objects.requireNonNullElse(apiVersion, "");
        kind = Objects.requireNonNullElse(kind, "");
        namespace = Objects.requireNonNullElse(namespace, "");
        name = Objects.requireNonNullElse(name, "");
    }

    /** {@code kind/namespace/name}, or {@code kind/name} for an object without a namespace. */
    public String describe() {
        return namespace.isEmpty() ? kind + "/" + name : kind + "/" + namespace + "/" + name;
    }

    @Override
    public String toString() {
        return describe();
    }
}
