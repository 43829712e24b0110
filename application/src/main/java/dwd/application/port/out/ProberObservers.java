package dwd.application.port.out;

import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** Fans events out to several observers; one that throws does not stop the others. */
public final class ProberObservers implements ProberObserver {

    private static final System.Logger LOG = System.getLogger(ProberObservers.class.getName());

    private final List<ProberObserver> observers;

    private ProberObservers(List<ProberObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    /** Sends every event to each of {@code observers} in turn. */
    public static ProberObserver of(ProberObserver... observers) {
        return new ProberObservers(List.of(observers));
    }

    private void each(Consumer<ProberObserver> event) {
        for (ProberObserver observer : observers) {
            try {
                event.accept(observer);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "observer " + observer.getClass().getName() + " failed", e);
            }
        }
    }

    @Override
    public void probeStarted(String ns, Duration firstRunIn) {
        each(o -> o.probeStarted(ns, firstRunIn));
    }

    @Override
    public void probeStopped(String ns, String reason) {
        each(o -> o.probeStopped(ns, reason));
    }

    @Override
    public void probeRunStarted(String ns, Duration lateness) {
        each(o -> o.probeRunStarted(ns, lateness));
    }

    @Override
    public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
        each(o -> o.probeSucceeded(ns, verdict, action, nextProbe));
    }

    @Override
    public void probeFailed(String ns, ProbeStage stage, ApiFailure failure, Instant nextProbe) {
        each(o -> o.probeFailed(ns, stage, failure, nextProbe));
    }

    @Override
    public void leaseWatchChanged(String ns, boolean watching) {
        each(o -> o.leaseWatchChanged(ns, watching));
    }

    @Override
    public void probeBroughtForward(String ns) {
        each(o -> o.probeBroughtForward(ns));
    }

    @Override
    public void wallClockStepped(Duration step, Duration heldFor) {
        each(o -> o.wallClockStepped(step, heldFor));
    }

    @Override
    public void flowStarted(String ns, ScaleDirection direction, LeaseVerdict cause) {
        each(o -> o.flowStarted(ns, direction, cause));
    }

    @Override
    public void resourceScaled(String ns, ScaleDirection direction, ResourceRef ref, int from, int to, LeaseVerdict cause) {
        each(o -> o.resourceScaled(ns, direction, ref, from, to, cause));
    }

    @Override
    public void resourceSkipped(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        each(o -> o.resourceSkipped(ns, direction, ref, reason));
    }

    @Override
    public void resourceFailed(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        each(o -> o.resourceFailed(ns, direction, ref, reason));
    }

    @Override
    public void flowFinished(String ns, ScaleDirection direction, FlowOutcome outcome) {
        each(o -> o.flowFinished(ns, direction, outcome));
    }
}
