/** client-java implementations of the application's Kubernetes ports. */
module dwd.adapters.k8s {
    requires dwd.application;
    requires io.kubernetes.client.java;
    requires io.kubernetes.client.java.api;
    requires okhttp3; // client-java's signatures expose okhttp3 types
    requires com.google.gson; // responses are read as plain JSON, not through client-java's strict models
    requires org.yaml.snakeyaml; // YAML is read in linear time through a reader of dwd's own; kubeconfig errors by position
    requires com.fasterxml.jackson.core; // shoot lists are streamed within bounds Gson's reader lacks (string length, bytes)
    requires com.fasterxml.jackson.databind; // TokenBuffer records anchored YAML nodes
    requires com.fasterxml.jackson.dataformat.yaml;
    requires org.apache.logging.log4j;
    requires io.github.bucket4j.core; // the client-side token bucket (--kube-api-qps, --kube-api-burst)

    exports dwd.adapters.k8s to dwd.bootstrap;
    exports dwd.adapters.k8s.comparison to dwd.bootstrap;
    exports dwd.adapters.k8s.objects to dwd.bootstrap;
    exports dwd.adapters.k8s.events to dwd.bootstrap;
    exports dwd.adapters.k8s.input to dwd.bootstrap;
    exports dwd.adapters.k8s.leader to dwd.bootstrap;
    exports dwd.adapters.k8s.prober to dwd.bootstrap;
    exports dwd.adapters.k8s.weeder to dwd.bootstrap;
    exports dwd.adapters.k8s.watch to dwd.bootstrap;

    // Gson fills the slim Secret model reflectively (client-java's V1Secret would quote secrets in errors).
    opens dwd.adapters.k8s.prober.secret to com.google.gson;
}
