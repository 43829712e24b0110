/** client-java implementations of the application's Kubernetes ports. */
module dwd.adapters.k8s {
    requires dwd.application;
    requires io.kubernetes.client.java;
    requires io.kubernetes.client.java.api;
    requires okhttp3; // client-java's signatures expose okhttp3 types

    exports dwd.adapters.k8s to dwd.bootstrap;
    exports dwd.adapters.k8s.weeder to dwd.bootstrap;
}
