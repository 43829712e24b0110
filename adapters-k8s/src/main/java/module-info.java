/** client-java implementations of the application's Kubernetes ports. */
module dwd.adapters.k8s {
    requires dwd.application;
    requires io.kubernetes.client.java;
    requires io.kubernetes.client.java.api;
    requires okhttp3; // client-java's signatures expose okhttp3 types
    requires com.google.gson; // objects of any kind are read as raw JSON

    exports dwd.adapters.k8s to dwd.bootstrap;
    exports dwd.adapters.k8s.objects to dwd.bootstrap;
}
