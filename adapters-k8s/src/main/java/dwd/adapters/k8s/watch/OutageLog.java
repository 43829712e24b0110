package dwd.adapters.k8s.watch;

import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.NotSent;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Clock;
import dwd.domain.config.GoDuration;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.function.UnaryOperator;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * One warning when an API server stops answering, one line when it answers again, instead of a
 * line per failed call. The watches and background calls of a process to that server report here
 * (the prober's Cluster, Machine and Secret watches, the weeder's EndpointSlice and pod watches,
 * leader election, Event writes), so an outage of the seed's API server reads as:
 * <pre>
 * WARN  seed API server https://10.0.0.1:443 is unreachable: watching Clusters: cannot connect (…);
 *       retrying in 1s, with back-off; further failures are logged at debug level until it answers
 * WARN  seed API server https://10.0.0.1:443 still unreachable after 1m0s: … (once a minute at most)
 * INFO  seed API server https://10.0.0.1:443 answers again after 1m12s (38 calls failed meanwhile)
 * </pre>
 * "Unreachable" covers what says nothing about the request itself: no connection, a timeout, a
 * 5xx answer, or 429 Too Many Requests ({@link #isOutage}; 429 is an INFO line for its first
 * {@link #THROTTLING_GRACE}, the server's way of asking clients to wait); failures of a request (403, 404, 422,
 * an answer that does not decode) are each caller's to report. Every client of the server also
 * carries {@link #detecting()}, which notes each call's outcome without logging: an outage is
 * then known from its first failed call, whoever made it, so that callers which cannot say when
 * they retry (a scale flow) can ask {@link #inOutage()} and stay quiet; and it ends with the first
 * call answered that was sent after the outage began (an answer to a call sent before it, which
 * arrives late, says nothing about now). What counts as an outage is said once, by failure kind
 * ({@link #isOutage(ApiFailure.Kind)}); an answer's status is read as the kind {@link ApiFailures}
 * makes of it.
 */
public final class OutageLog {

    private static final Logger LOG = LogManager.getLogger();
    /** How often an outage that goes on is mentioned again. */
    static final Duration REMINDER = Duration.ofMinutes(1);
    /**
     * How long the server may answer 429 before that is a warning: it is how an API server asks
     * clients to wait (e.g. while its watch cache initializes after a start), and dwd waits.
     */
    static final Duration THROTTLING_GRACE = Duration.ofSeconds(30);

    private final String server;
    private final Clock clock;

    // Guarded by this.
    private Instant since;
    private Instant warnedAt;
    private boolean noticed;
    private long failures;
    /** Calls are numbered as they start; an outage ends only with the answer to a call numbered from here on. */
    private long nextCall;
    private long outageFirstCall;
    /** The highest number of a call answered: a later failure of an earlier call is stale. */
    private long lastAnsweredCall = -1;

    /** @param server names the server in every line, e.g. {@code seed API server https://10.0.0.1:443} */
    public OutageLog(String server) {
        this(server, Clock.system());
    }

    OutageLog(String server, Clock clock) {
        this.server = Objects.requireNonNull(server, "server");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Whether {@code failure} says the server is unreachable or overloaded, rather than something about the request. */
    public static boolean isOutage(ApiFailure failure) {
        return isOutage(failure.kind());
    }

    /** Whether a failure of this kind says the server is unreachable or overloaded: no answer, a timeout, 5xx, 429. */
    static boolean isOutage(ApiFailure.Kind kind) {
        return switch (kind) {
            case UNAVAILABLE, TIMEOUT, THROTTLED -> true;
            case UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, INVALID, BAD_INPUT, CERTIFICATE_NOT_TRUSTED,
                 CERTIFICATE_EXPIRED, CERTIFICATE_HOST_MISMATCH -> false;
        };
    }

    /** The server this log speaks of, e.g. {@code seed API server https://10.0.0.1:443}. */
    public String server() {
        return server;
    }

    /**
     * A call got no usable answer ({@link #isOutage}) and is retried in {@code retryIn}: a warning if
     * none was logged in this outage yet, or the last was {@link #REMINDER} ago; else a debug line
     * (with the stack trace).
     *
     * @param failure what failed; its message starts with the action ({@code watching Clusters: …})
     */
    public void unreachable(ApiFailure failure, Duration retryIn) {
        report(failure, "retrying in " + GoDuration.format(retryIn) + ", with back-off");
    }

    /** A call that is not retried (an Event, best effort) got no usable answer: as {@link #unreachable(ApiFailure, Duration)}. */
    public void unreachable(ApiFailure failure) {
        report(failure, "not retried");
    }

    private void report(ApiFailure failure, String retry) {
        Instant now = clock.now();
        synchronized (this) {
            failures++;
            begin(now);
            if (warnedAt == null && failure.is(ApiFailure.Kind.THROTTLED)
                    && Duration.between(since, now).compareTo(THROTTLING_GRACE) < 0) {
                if (!noticed) {
                    noticed = true;
                    LOG.info("{} asks dwd to slow down: {}; {}", server, failure.getMessage(), retry);
                    return;
                }
            } else if (warnedAt == null) {
                warnedAt = now;
                LOG.warn("{} is {}: {}; {}; further failures are logged at debug level until it answers", server,
                        failure.is(ApiFailure.Kind.THROTTLED) ? "overloaded" : "unreachable", failure.getMessage(), retry);
                return;
            }
            if (warnedAt != null && !now.isBefore(warnedAt.plus(REMINDER))) {
                warnedAt = now;
                LOG.warn("{} still unreachable after {}: {}; {}", server, GoDuration.format(elapsed(since, now)),
                        failure.getMessage(), retry);
                return;
            }
        }
        LOG.debug("{}: {}; {}", server, failure.getMessage(), retry, failure);
    }

    /** Must hold the lock. */
    private void begin(Instant now) {
        if (since == null) {
            since = now;
            outageFirstCall = nextCall;
        }
    }

    /** Numbers a call as it starts, for {@link #noAnswer(long)} and {@link #answered(long)}. */
    synchronized long callStarting() {
        return nextCall++;
    }

    /** Call {@code call} got no answer, or one that is an outage: noted, not logged (its caller reports what it does about it). */
    synchronized void noAnswer(long call) {
        if (call < lastAnsweredCall) {
            return; // a later call was answered: this failure is older news
        }
        failures++;
        begin(clock.now());
    }

    /** Call {@code call} got an answer that is no outage: ends an outage, with one line if it was reported. */
    void answered(long call) {
        Instant now = clock.now();
        Instant outageSince;
        long failed;
        boolean warned;
        synchronized (this) {
            lastAnsweredCall = Math.max(lastAnsweredCall, call);
            if (since == null || call < outageFirstCall) {
                return;
            }
            outageSince = since;
            failed = failures;
            warned = warnedAt != null || noticed;
            since = null;
            warnedAt = null;
            noticed = false;
            failures = 0;
        }
        if (warned) {
            LOG.info("{} answers again after {} ({} {} failed meanwhile)", server,
                    GoDuration.format(elapsed(outageSince, now)), failed, failed == 1 ? "call" : "calls");
        } else {
            LOG.debug("{} answers again after {} ({} failed)", server, GoDuration.format(elapsed(outageSince, now)),
                    failed);
        }
    }

    /** Whether the server's last call went unanswered: an outage is going on. */
    public synchronized boolean inOutage() {
        return since != null;
    }

    /**
     * Adds to each client an interceptor that notes the outcome of every call: no response, or a
     * status that is an outage ({@link #isOutage(ApiFailure.Kind)}: 5xx, 429, 408), begins an outage
     * (silently), any other status ends one. A call cancelled by its caller, or never sent
     * ({@link NotSent}), counts as neither.
     */
    public UnaryOperator<ApiClient> detecting() {
        Interceptor detection = chain -> {
            long call = callStarting();
            Response response;
            try {
                response = chain.proceed(chain.request());
            } catch (IOException e) {
                if (!chain.call().isCanceled() && !(e instanceof NotSent)) {
                    noAnswer(call);
                }
                throw e;
            }
            if (!response.isSuccessful() && isOutage(ApiFailures.kindOf(response.code()))) {
                noAnswer(call);
            } else {
                answered(call);
            }
            return response;
        };
        return client -> {
            client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(detection).build());
            return client;
        };
    }

    private static Duration elapsed(Instant from, Instant to) {
        return Duration.between(from, to).truncatedTo(ChronoUnit.MILLIS);
    }
}
