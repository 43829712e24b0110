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

    void working() {
        if (lastProblem != null) {
            lastProblem = null;
            LOG.info("{}: listing and watching work again ({})", kinds, outages.server());
        }
    }
}
