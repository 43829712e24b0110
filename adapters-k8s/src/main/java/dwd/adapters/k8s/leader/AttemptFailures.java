package dwd.adapters.k8s.leader;

import dwd.adapters.k8s.watch.OutageLog;
import dwd.application.port.out.ApiFailure;
import dwd.domain.config.GoDuration;
import java.time.Duration;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The log of the elector's failed attempts: one line per streak of failures, not one per attempt. An
 * unreachable server goes to the {@link OutageLog} (with the watches' failures); any other failure is a
 * warning the first time and a debug line after, and the first success after a warning says so. A lost race
 * for the Lease (409) is routine: debug.
 */
final class AttemptFailures {

    private static final Logger LOG = LogManager.getLogger();

    private final String lease;
    private final Duration retryPeriod;
    private final OutageLog outages;

    // Guarded by this.
    private int failedAttempts;
    private boolean warned;

    /** @param outages null: an unreachable server is reported like any other failure */
    AttemptFailures(String lease, Duration retryPeriod, OutageLog outages) {
        this.lease = lease;
        this.retryPeriod = retryPeriod;
        this.outages = outages;
    }

    void failed(ApiFailure failure) {
        synchronized (this) {
            failedAttempts++;
        }
        if (outages != null && OutageLog.isOutage(failure)) {
            outages.unreachable(failure, retryPeriod);
            return;
        }
        boolean warn;
        synchronized (this) {
            warn = !warned && !failure.is(ApiFailure.Kind.CONFLICT);
            warned |= warn;
        }
        if (warn) {
            LOG.warn("leader election: Lease {} not acquired or renewed: {}; retrying every {} (repeats are logged at"
                    + " debug level)", lease, failure.getMessage(), GoDuration.format(retryPeriod));
        } else {
            LOG.debug("leader election: Lease {} not acquired or renewed: {}", lease, failure.getMessage());
        }
    }

    void succeeded() {
        int failed;
        boolean hadWarned;
        synchronized (this) {
            failed = failedAttempts;
            hadWarned = warned;
            failedAttempts = 0;
            warned = false;
        }
        if (hadWarned) {
            LOG.info("leader election: Lease {} acquired or renewed again after {} failed attempts", lease, failed);
        }
    }
}
