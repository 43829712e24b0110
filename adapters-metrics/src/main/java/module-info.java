/** Micrometer/Prometheus telemetry and the HTTP endpoints served by the JDK HTTP server. */
module dwd.adapters.metrics {
    requires dwd.application;
    requires transitive micrometer.core;
    requires transitive micrometer.registry.prometheus;
    requires jdk.httpserver;

    exports dwd.adapters.metrics;
}
