package dwd.adapters.k8s.watch;

import dwd.application.port.out.ApiFailure;
import dwd.application.runtime.Recurrences;
import dwd.domain.config.GoDuration;
import java.time.Duration;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * What a list-watch logs of its failures, never with a stack trace above debug level but for a bug:
 * an unreachable or overloaded server through the process-wide {@link OutageLog} (one warning per
 * outage, whatever the number of watches); any other problem (a refused request, a silent
 * connection, an unexpected failure) once when it appears, at debug level while it repeats, again
 * every {@link Recurrences#REMINDER} while it lasts, and once when listing and watching work again.
 * The watch's thread's own.
 */
final class WatchFailureLog {

    private static final Logger LOG = LogManager.getLogger();
    private static final String WATCH = "watch";

    private final String kinds;
    private final OutageLog outages;
    private final Recurrences<String> problems = new Recurrences<>(System::nanoTime);

    WatchFailureLog(String kinds, OutageLog outages) {
        this.kinds = kinds;
        this.outages = outages;
    }

    void failed(ApiFailure failure, Duration retryIn) {
        if (OutageLog.isOutage(failure)) {
            outages.unreachable(failure, retryIn);
            return;
        }
        String problem = failure.getMessage();
        switch (problems.seen(WATCH, problem)) {
            case APPEARED -> LOG.warn("{} ({}); retrying in {}, with back-off; repeats are logged at debug level", problem,
                    outages.server(), GoDuration.format(retryIn));
            case REMINDED -> LOG.warn("{} ({}): still so after {}; retrying in {}, with back-off", problem,
                    outages.server(), problems.ongoingSummary(WATCH).orElse(""), GoDuration.format(retryIn));
            case REPEATED -> LOG.debug("{} ({}); retrying in {}", problem, outages.server(), GoDuration.format(retryIn),
                    failure);
        }
    }

    /**
     * A request was cut because the server said nothing for longer than {@code bound}, although it
     * ends every watch within {@code longestWatch}: a warning when it appears, a debug line while it
     * recurs without a working watch in between.
     */
    void silent(Duration bound, Duration longestWatch) {
        String message = "{}: nothing heard from {} for {}, although it ends every watch within {}:"
                + " the connection is taken for dead; listing afresh on a new one, and until that list has come"
                + " the cache is not trusted (readers ask the server)";
        if (problems.seen(WATCH, "silent").worthTelling()) {
            LOG.warn(message, kinds, outages.server(), GoDuration.format(bound), GoDuration.format(longestWatch));
        } else {
            LOG.debug(message, kinds, outages.server(), GoDuration.format(bound), GoDuration.format(longestWatch));
        }
    }

    /** A failure nobody foresaw (a bug, an odd answer): with its stack trace, once per distinct failure. */
    void unexpected(Throwable failure, Duration retryIn) {
        if (problems.seen(WATCH, String.valueOf(failure)).worthTelling()) {
            LOG.error("{}: the watch failed unexpectedly; listing afresh in {}, and until then the cache is not"
                    + " trusted (repeats are logged at debug level)", kinds, GoDuration.format(retryIn), failure);
        } else {
            LOG.debug("{}: the watch failed unexpectedly again; listing afresh in {}", kinds,
                    GoDuration.format(retryIn), failure);
        }
    }

    /** Listing or watching worked: a problem logged before has cleared. */
    void working() {
        problems.clear(WATCH).ifPresent(cleared -> LOG.info("{}: listing and watching work again ({}), after {}",
                kinds, outages.server(), cleared.summary()));
    }
}
