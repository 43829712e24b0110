/** Micrometer/Prometheus telemetry and the HTTP endpoints served by the JDK HTTP server. */
module dwd.adapters.metrics {
    requires dwd.application;
    requires transitive micrometer.core;
    requires transitive micrometer.registry.prometheus;
    requires jdk.httpserver;
    requires com.fasterxml.jackson.core; // the status pages' JSON
    // Micrometer's JVM and process binders read these MXBeans; named here so that the module path resolves them.
    requires java.management;
    requires jdk.management;

    exports dwd.adapters.metrics;
}
