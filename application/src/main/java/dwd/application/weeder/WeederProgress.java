package dwd.application.weeder;

import dwd.application.health.LoopProgress;
import dwd.application.port.out.WeederObserver;
import java.time.Instant;

/**
 * Feeds the liveness of the weeders: a weeder announces at its start that its window ends at
 * {@code until}, when the scheduler stops it. One still running more than the tolerance after
 * that means the timer or the supervisor is stuck.
 */
public final class WeederProgress implements WeederObserver {

    private final LoopProgress loops;

    public WeederProgress(LoopProgress loops) {
        this.loops = loops;
    }

    @Override
    public void weederStarted(String namespace, String service, Instant until) {
        loops.expectBy(namespace + "/" + service, until);
    }

    @Override
    public void weederStopped(String namespace, String service, StopReason reason) {
        loops.forget(namespace + "/" + service);
    }
}
