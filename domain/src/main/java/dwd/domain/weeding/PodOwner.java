package dwd.domain.weeding;

import dwd.domain.internal.NullSafe;

/**
 * The controller of a pod: its {@code ownerReferences} entry with {@code controller: true}, in the
 * pod's namespace (owner references never cross namespaces).
 *
 * @param apiVersion e.g. {@code apps/v1}
 * @param kind       e.g. {@code ReplicaSet}, {@code StatefulSet}
 * @param name       the owner's name
 */
public record PodOwner(String apiVersion, String kind, String name) {

    public PodOwner {
        apiVersion = NullSafe.text(apiVersion);
        kind = NullSafe.text(kind);
        name = NullSafe.text(name);
    }
}
