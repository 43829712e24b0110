package dwd.adapters.k8s.objects;

/** A resource as discovery reports it, at the version dwd will read it. */
record ServedResource(String group, String version, String kind, String plural, boolean namespaced) {

    /** {@code group/version}, or {@code version} for the core group. */
    String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** The URL path of one object: {@code /api/v1/...} for the core group, {@code /apis/g/v/...} otherwise. */
    String objectPath(String namespace, String escapedName) {
        String base = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
        return namespaced
                ? base + "/namespaces/" + namespace + "/" + plural + "/" + escapedName
                : base + "/" + plural + "/" + escapedName;
    }

    /** {@code plural.group}, as kubectl and error messages name a resource. */
    String qualifiedName() {
        return group.isEmpty() ? plural : plural + "." + group;
    }
}
