package dwd.application.prober;

import dwd.application.health.LoopProgress;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ProberObserver;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Feeds the liveness of every probe loop from the events it reports anyway: each run announces
 * its next run, so a loop that misses its next run by more than the tolerance is stuck.
 */
public final class ProbeProgress implements ProberObserver {

    private final LoopProgress loops;
    private final Duration initialDelay;

    /** @param initialDelay how long after its start a probe runs first */
    public ProbeProgress(LoopProgress loops, Duration initialDelay) {
        this.loops = loops;
        this.initialDelay = initialDelay;
    }

    @Override
    public void probeStarted(String ns) {
        loops.expectWithin(ns, initialDelay);
    }

    @Override
    public void probeStopped(String ns, String reason) {
        loops.forget(ns);
    }

    @Override
    public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
        loops.expectBy(ns, nextProbe);
    }

    @Override
    public void probeFailed(String ns, ProbeStage stage, ApiFailure failure, Instant nextProbe) {
        loops.expectBy(ns, nextProbe);
    }
}
