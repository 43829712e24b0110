package dwd.application.port.out;

import java.time.Duration;

/**
 * Every HTTP request dwd makes to a Kubernetes API server, as it completes: for the request and
 * throttling metrics. Implementations must be fast and must not throw.
 */
@FunctionalInterface
public interface ApiTraffic {

    /** The status code reported when no response came (connection refused, timeout, reset). */
    int NO_RESPONSE = 0;

    /**
     * @param target which API server: {@code seed}, {@code shoot}, {@code leader-election}
     * @param verb   {@code get}, {@code watch}, {@code create}, {@code update}, {@code patch}, {@code delete}
     * @param code   the HTTP status, or {@link #NO_RESPONSE}
     */
    void requestCompleted(String target, String verb, int code);

    /**
     * As {@link #requestCompleted(String, String, int)}, with how long the request took: until the
     * response headers arrived (for a watch: until it was established), or until it failed.
     */
    default void requestCompleted(String target, String verb, int code, Duration elapsed) {
        requestCompleted(target, verb, code);
    }

    /** Counts nothing. */
    static ApiTraffic none() {
        return (target, verb, code) -> { };
    }
}
