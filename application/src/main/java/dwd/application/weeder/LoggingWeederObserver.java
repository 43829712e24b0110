package dwd.application.weeder;

import dwd.application.port.out.WeederObserver;
import dwd.domain.weeding.PodState;
import java.time.Instant;

/**
 * Logs the weeder's windows (start and stop) and its deletions, one line per pod. In shadow mode
 * deletions are not reported here (they did not happen) but as would-be deletions.
 */
public final class LoggingWeederObserver implements WeederObserver {

    private static final System.Logger LOG = System.getLogger("dwd.weeder");

    @Override
    public void weederStarted(String namespace, String service, Instant until) {
        LOG.log(System.Logger.Level.INFO, () -> namespace + ": service " + service
                + " turned ready: weeding crash-looping dependants until " + until);
    }

    @Override
    public void weederStopped(String namespace, String service, StopReason reason) {
        LOG.log(System.Logger.Level.INFO, () -> namespace + ": weeder of service " + service + " stopped: " + reason);
    }

    @Override
    public void podDeleted(String namespace, String service, PodState pod) {
        LOG.log(System.Logger.Level.INFO, () -> namespace + ": deleted pod " + pod.name() + " (uid " + pod.uid()
                + "): CrashLoopBackOff after service " + service + " turned ready");
    }
}
