package dwd.domain.archfixture;

import io.kubernetes.client.openapi.ApiClient;

/** A deliberate violation: a "domain" class that reaches for client-java. Analysed only in isolation. */
public final class DomainClassUsingClientJava {

    public String server(ApiClient client) {
        return client.getBasePath();
    }
}
