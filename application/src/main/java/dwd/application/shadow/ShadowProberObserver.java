package dwd.application.shadow;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ShadowObserver;
import dwd.application.port.out.ShadowObserver.Write;
import dwd.domain.config.ResourceRef;
import dwd.domain.dryrun.DryRunMode;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The prober's reports in shadow mode. A scaled dependent is reported as one would-be action, with
 * the writes it took and their answers, to the {@link ShadowObserver}s only: the ordinary
 * observers (logs, metrics, Kubernetes Events) never hear of a scaling that did not happen. Writes
 * that belong to no scaling (a leftover meltdown annotation removed) are reported when their step
 * or flow ends. Everything else (probes, verdicts, flows, skipped and failed steps) is passed on
 * unchanged: those are facts in shadow mode too.
 */
public final class ShadowProberObserver implements ProberObserver {

    private final DryRunMode mode;
    private final ShadowScalableResources resources;
    private final ProberObserver observer;
    private final ShadowObserver shadow;

    /**
     * @param resources the shadow resources the prober writes to, which hold the writes to report
     * @param observer  gets every event except the scalings that did not happen
     * @param shadow    gets the would-be actions
     */
    public ShadowProberObserver(DryRunMode mode, ShadowScalableResources resources, ProberObserver observer,
            ShadowObserver shadow) {
        this.mode = mode;
        this.resources = resources;
        this.observer = observer;
        this.shadow = shadow;
    }

    @Override
    public void resourceScaled(String ns, ScaleDirection direction, ResourceRef ref, int from, int to, LeaseVerdict cause) {
        shadow.wouldScale(new ShadowObserver.WouldScale(mode, ns, direction, ref, from, to,
                resources.takeUnreported(ns, ref), cause));
    }

    @Override
    public void resourceSkipped(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        reportAnnotations(ns, ref, resources.takeUnreported(ns, ref));
        observer.resourceSkipped(ns, direction, ref, reason);
    }

    @Override
    public void resourceFailed(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        reportAnnotations(ns, ref, resources.takeUnreported(ns, ref));
        observer.resourceFailed(ns, direction, ref, reason);
    }

    @Override
    public void flowFinished(String ns, ScaleDirection direction, FlowOutcome outcome) {
        reportLeftovers(ns);
        observer.flowFinished(ns, direction, outcome);
    }

    @Override
    public void probeStopped(String ns, String reason) {
        reportLeftovers(ns);
        observer.probeStopped(ns, reason);
    }

    @Override
    public void probeStarted(String ns, Duration firstRunIn) {
        observer.probeStarted(ns, firstRunIn);
    }

    @Override
    public void probeRunStarted(String ns, Duration lateness) {
        observer.probeRunStarted(ns, lateness);
    }

    @Override
    public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
        observer.probeSucceeded(ns, verdict, action, nextProbe);
    }

    @Override
    public void probeFailed(String ns, ProbeStage stage, ApiFailure failure, Instant nextProbe) {
        observer.probeFailed(ns, stage, failure, nextProbe);
    }

    @Override
    public void leaseWatchChanged(String ns, boolean watching) {
        observer.leaseWatchChanged(ns, watching);
    }

    @Override
    public void probeBroughtForward(String ns) {
        observer.probeBroughtForward(ns);
    }

    @Override
    public void wallClockStepped(Duration step, Duration heldFor) {
        observer.wallClockStepped(step, heldFor);
    }

    @Override
    public void flowStarted(String ns, ScaleDirection direction, LeaseVerdict cause) {
        observer.flowStarted(ns, direction, cause);
    }

    private void reportLeftovers(String ns) {
        for (Map.Entry<ResourceRef, List<Write>> entry : resources.takeUnreported(ns).entrySet()) {
            reportAnnotations(ns, entry.getKey(), entry.getValue());
        }
    }

    private void reportAnnotations(String ns, ResourceRef ref, List<Write> writes) {
        if (!writes.isEmpty()) {
            shadow.wouldAnnotate(new ShadowObserver.WouldAnnotate(mode, ns, ref, writes));
        }
    }
}
