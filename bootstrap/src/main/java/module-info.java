/** The launcher: command line, config files, wiring of ports to adapters, logging. */
module dwd.bootstrap {
    requires dwd.application;
    requires dwd.adapters.k8s;
    requires dwd.adapters.metrics;
    requires io.kubernetes.client.java;
    requires io.kubernetes.client.java.api;
    requires info.picocli;
    requires dagger;
    requires jakarta.inject;
    requires static java.compiler; // Dagger's @Generated
    requires com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.dataformat.yaml;
    requires org.apache.logging.log4j;
    requires org.apache.logging.log4j.core;
    requires okhttp3; // the demo patches through client-java, whose signatures expose okhttp3.Call
    requires java.net.http; // the demo reads the roles' status pages
    requires jdk.httpserver; // the AOT cache's training run serves a loopback seed
    requires org.bouncycastle.pkix; // … with a certificate made at its start
    requires org.bouncycastle.provider;

    opens dwd.bootstrap.cli to info.picocli;
    opens dwd.bootstrap.check to info.picocli; // option fields are set reflectively
    opens dwd.bootstrap.demo to info.picocli;
    opens dwd.bootstrap.logging to org.apache.logging.log4j.core; // the ShootContext rewrite policy is a Log4j plugin
    opens dwd.bootstrap.shadow to info.picocli;
}
