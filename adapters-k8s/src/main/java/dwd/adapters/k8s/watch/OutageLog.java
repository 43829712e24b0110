package dwd.adapters.k8s.watch;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Clock;
import dwd.domain.config.GoDuration;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * One warning when an API server stops answering, one line when it answers again, instead of a
 * line per failed call. Every watch and background call of a process to that server reports here
 * (the prober's Cluster, Machine and Secret watches, the weeder's EndpointSlice and pod watches,
 * leader election), so an outage of the seed's API server reads as:
 * <pre>
 * WARN  seed API server https://10.0.0.1:443 is unreachable: watching Clusters: cannot connect (…);
 *       retrying in 1s, with back-off; further failures are logged at debug level until it answers
 * WARN  seed API server https://10.0.0.1:443 still unreachable after 1m0s: … (only once a minute)
 * INFO  seed API server https://10.0.0.1:443 answers again after 1m12s (38 calls failed meanwhile)
 * </pre>
 * "Unreachable" covers what says nothing about the request itself: no connection, a timeout, a
 * 5xx answer, or 429 Too Many Requests ({@link #isOutage}). Failures of a request (403, 404, 422, a
 * response that does not decode) are each caller's to report.
 */
public final class OutageLog {

    private static final Logger LOG = LogManager.getLogger();
    /** How often an outage that goes on is mentioned again. */
    static final Duration REMINDER = Duration.ofMinutes(1);

    private final String server;
    private final Clock clock;

    // Guarded by this.
    private Instant since;
    private Instant lastWarning;
    private long failures;

    /**
     * @param server names the server in every line, e.g. {@code seed API server https://10.0.0.1:443}
     */
    public OutageLog(String server) {
        this(server, Clock.system());
    }

    OutageLog(String server, Clock clock) {
        this.server = Objects.requireNonNull(server, "server");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A log of its own for the server {@code client} talks to (for a component used alone, e.g. in tests). */
    public static OutageLog of(ApiClient client) {
        return new OutageLog("API server " + client.getBasePath());
    }

    /** Whether {@code failure} says the server is unreachable or overloaded, rather than something about the request. */
    public static boolean isOutage(ApiFailure failure) {
        return failure.is(ApiFailure.Kind.UNAVAILABLE) || failure.is(ApiFailure.Kind.TIMEOUT)
                || failure.is(ApiFailure.Kind.THROTTLED);
    }

    /** The server this log speaks of, e.g. {@code seed API server https://10.0.0.1:443}. */
    public String server() {
        return server;
    }

    /**
     * A call got no usable answer ({@link #isOutage}): a warning if this starts an outage or the last
     * one was {@link #REMINDER} ago, else a debug line (with the stack trace).
     *
     * @param failure what failed; its message starts with the action ({@code watching Clusters: …})
     * @param retryIn when the caller tries again
     */
    public void unreachable(ApiFailure failure, Duration retryIn) {
        Instant now = clock.now();
        String retry = "retrying in " + GoDuration.format(retryIn);
        synchronized (this) {
            failures++;
            if (since == null) {
                since = now;
                lastWarning = now;
                LOG.warn("{} is unreachable: {}; {}, with back-off; further failures are logged at debug level"
                        + " until it answers", server, failure.getMessage(), retry);
                return;
            }
            if (!now.isBefore(lastWarning.plus(REMINDER))) {
                lastWarning = now;
                LOG.warn("{} still unreachable after {}: {}; {}", server,
                        GoDuration.format(elapsed(since, now)), failure.getMessage(), retry);
                return;
            }
        }
        LOG.debug("{}: {}; {}", server, failure.getMessage(), retry, failure);
    }

    /** A call got an answer (any status but those of {@link #isOutage}): ends an outage, with one line. */
    public void answered() {
        Instant now = clock.now();
        Instant outageSince;
        long failed;
        synchronized (this) {
            if (since == null) {
                return;
            }
            outageSince = since;
            failed = failures;
            since = null;
            failures = 0;
        }
        LOG.info("{} answers again after {} ({} {} failed meanwhile)", server,
                GoDuration.format(elapsed(outageSince, now)), failed, failed == 1 ? "call" : "calls");
    }

    private static Duration elapsed(Instant from, Instant to) {
        return Duration.between(from, to).truncatedTo(ChronoUnit.MILLIS);
    }

    /** Whether an outage is going on (for tests and status). */
    public synchronized boolean inOutage() {
        return since != null;
    }
}
