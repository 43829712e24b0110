package dwd.application.port.out;

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

    /** Counts nothing. */
    static ApiTraffic none() {
        return (target, verb, code) -> { };
    }
}
