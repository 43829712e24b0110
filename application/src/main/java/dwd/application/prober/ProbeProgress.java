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

    public ProbeProgress(LoopProgress loops) {
        this.loops = loops;
    }

    /**
     * Expects the first run when it is due: the initial delay, or later when first runs are spaced out
     * (a prober starting on a large seed), so that no loop waiting its turn counts as stalled.
     */
    @Override
    public void probeStarted(String ns, Duration firstRunIn) {
        loops.expectWithin(ns, firstRunIn);
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
