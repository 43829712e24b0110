package dwd.adapters.k8s.watch;

import dwd.application.port.out.ApiFailure;
import dwd.domain.config.GoDuration;
import java.time.Duration;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * What a list-watch logs of its failures, never with a stack trace above debug level: an unreachable
 * or overloaded server through the process-wide {@link OutageLog} (one warning per outage, whatever
 * the number of watches), any other failure once per distinct message, and a line when listing works
 * again. The watch's thread's own.
 */
final class WatchFailureLog {

    private static final Logger LOG = LogManager.getLogger(ListWatch.class);

    private final String kinds;
    private final OutageLog outages;
    private String lastProblem;
    private String lastUnexpected;
    private boolean silentBefore;

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
        if (!problem.equals(lastProblem)) {
            lastProblem = problem;
            LOG.warn("{} ({}); retrying in {}, with back-off; repeats are logged at debug level", problem,
                    outages.server(), GoDuration.format(retryIn));
        } else {
            LOG.debug("{} ({}); retrying in {}", problem, outages.server(), GoDuration.format(retryIn), failure);
        }
    }

    /**
     * A request was cut because the server said nothing for longer than {@code bound}: a warning the
     * first time, a debug line while it recurs without a working watch in between.
     */
    void silent(Duration bound) {
        String message = "{}: nothing heard from {} for {}, not even a bookmark (sent about every minute):"
                + " the connection is taken for dead; listing afresh on a new one, and until that list has come"
                + " the cache is not trusted (readers ask the server)";
        if (!silentBefore) {
            silentBefore = true;
            LOG.warn(message, kinds, outages.server(), GoDuration.format(bound));
        } else {
            LOG.debug(message, kinds, outages.server(), GoDuration.format(bound));
        }
    }

    /** A failure nobody foresaw (a bug, an odd answer): with its stack trace, once per distinct failure. */
    void unexpected(Throwable failure, Duration retryIn) {
        String problem = String.valueOf(failure);
        if (!problem.equals(lastUnexpected)) {
            lastUnexpected = problem;
            LOG.error("{}: the watch failed unexpectedly; listing afresh in {}, and until then the cache is not"
                    + " trusted (repeats are logged at debug level)", kinds, GoDuration.format(retryIn), failure);
        } else {
            LOG.debug("{}: the watch failed unexpectedly again; listing afresh in {}", kinds,
                    GoDuration.format(retryIn), failure);
        }
    }

    void working() {
        silentBefore = false;
        lastUnexpected = null;
        if (lastProblem != null) {
            lastProblem = null;
            LOG.info("{}: listing and watching work again ({})", kinds, outages.server());
        }
    }
}
