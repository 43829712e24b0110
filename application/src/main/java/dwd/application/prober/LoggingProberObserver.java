package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ProberObserver;
import dwd.domain.config.GoDuration;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * Logs what the prober does, one line per event, the shoot namespace first. A verdict is logged
 * at INFO when it differs from the shoot's previous one and at DEBUG otherwise, so that a healthy
 * seed does not log every probe of every shoot. Likewise a failed probe is logged at WARN when it
 * fails differently from the shoot's previous probe, and at DEBUG when it repeats the same failure
 * (a broken secret or an unreachable shoot is reported once, not every probe interval); leases
 * without a renew time are reported when their number changes. While the seed's API server is known
 * to be unreachable (reported once, by whoever noticed it), a scale flow's failures are logged at
 * DEBUG: they can only fail then, and the metrics and the status page still count them.
 */
public final class LoggingProberObserver implements ProberObserver {

    private static final System.Logger LOG = System.getLogger("dwd.prober");

    private final ConcurrentHashMap<String, String> lastVerdict = new ConcurrentHashMap<>();
    /** Flows that changed something; only those are logged at INFO (a healthy shoot runs a no-op scale-up per probe). */
    private final java.util.Set<String> flowsThatActed = ConcurrentHashMap.newKeySet();
    /** The shoot's current failure (stage, kind and message) while its probes keep failing. */
    private final ConcurrentHashMap<String, String> lastFailure = new ConcurrentHashMap<>();
    /** How many candidate nodes' leases had no renew time at the shoot's last probe, when any had none. */
    private final ConcurrentHashMap<String, Integer> leasesWithoutRenewTime = new ConcurrentHashMap<>();
    private final BooleanSupplier seedUnreachable;

    /** Every failure at its level. */
    public LoggingProberObserver() {
        this(() -> false);
    }

    /** @param seedUnreachable whether the seed's API server is known to be unreachable now */
    public LoggingProberObserver(BooleanSupplier seedUnreachable) {
        this.seedUnreachable = seedUnreachable;
    }

    @Override
    public void probeStarted(String ns, Duration firstRunIn) {
        LOG.log(System.Logger.Level.INFO, ns + ": probe started");
    }

    @Override
    public void probeStopped(String ns, String reason) {
        lastVerdict.remove(ns);
        lastFailure.remove(ns);
        leasesWithoutRenewTime.remove(ns);
        LOG.log(System.Logger.Level.INFO, ns + ": probe stopped: " + reason);
    }

    @Override
    public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
        boolean held = action.equals(Optional.of(Decision.HOLD)) && verdict.decision() != Decision.HOLD;
        String summary = verdict.decision() + " (" + verdict.summary() + ")"
                + (action.isEmpty() && verdict.decision() != Decision.HOLD ? ", awaiting confirmation" : "")
                + (held ? ", held: not acted on after a wall-clock step" : "");
        String state = verdict.decision() + "/" + action.map(Decision::name).orElse("none");
        String previous = lastVerdict.put(ns, state);
        boolean recovered = lastFailure.remove(ns) != null;
        boolean changed = recovered || previous == null || !previous.equals(state);
        LOG.log(changed ? System.Logger.Level.INFO : System.Logger.Level.DEBUG,
                ns + ": lease probe: " + summary + "; next probe at " + nextProbe);
        reportLeasesWithoutRenewTime(ns, verdict.leasesWithoutRenewTime());
    }

    private void reportLeasesWithoutRenewTime(String ns, int count) {
        Integer before = count == 0 ? leasesWithoutRenewTime.remove(ns) : leasesWithoutRenewTime.put(ns, count);
        if (count > 0 && (before == null || before != count)) {
            LOG.log(System.Logger.Level.WARNING, ns + ": " + count + (count == 1 ? " node lease has" : " node leases have")
                    + " no spec.renewTime; not counted as candidate" + (count == 1 ? "" : "s")
                    + " (reported again only when the number changes)");
        }
    }

    @Override
    public void probeFailed(String ns, ProbeStage stage, ApiFailure failure, Instant nextProbe) {
        String what = stage == ProbeStage.API_SERVER ? "API server probe failed" : "lease probe failed";
        String failing = what + " (" + failure.kind() + "): " + failure.getMessage();
        boolean repeated = failing.equals(lastFailure.put(ns, failing));
        LOG.log(repeated ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING, ns + ": " + failing
                + "; nothing is scaled; next probe at " + nextProbe
                + (repeated ? "" : " (while it fails the same way, further failures are logged at debug level)"));
    }

    @Override
    public void leaseWatchChanged(String ns, boolean watching) {
        LOG.log(System.Logger.Level.DEBUG, ns + (watching
                ? ": watching the node leases while the verdict is scale-down, to act on renewals as they come"
                : ": no longer watching the node leases"));
    }

    @Override
    public void probeBroughtForward(String ns) {
        LOG.log(System.Logger.Level.DEBUG, ns + ": the watched leases crossed back: probing now");
    }

    @Override
    public void wallClockStepped(Duration step, Duration heldFor) {
        LOG.log(System.Logger.Level.WARNING, "the wall clock stepped " + (step.isNegative() ? "back" : "forward")
                + " by " + GoDuration.format(step.abs()) + " (against the monotonic clock): lease verdicts of every"
                + " shoot are held for " + GoDuration.format(heldFor) + ", as lease ages compare this clock with the"
                + " kubelets' renew times");
    }

    @Override
    public void flowStarted(String ns, ScaleDirection direction, LeaseVerdict cause) {
        LOG.log(System.Logger.Level.DEBUG, ns + ": " + flow(direction) + " started: " + cause.summary());
    }

    @Override
    public void resourceScaled(String ns, ScaleDirection direction, ResourceRef ref, int from, int to, LeaseVerdict cause) {
        flowsThatActed.add(ns + "/" + direction);
        LOG.log(System.Logger.Level.INFO, ns + ": " + flow(direction) + ": scaled " + ref + " from " + from + " to " + to
                + " replicas (" + cause.summary() + ")");
    }

    @Override
    public void resourceSkipped(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        LOG.log(System.Logger.Level.DEBUG, ns + ": " + flow(direction) + " skipped " + ref + ": " + reason);
    }

    @Override
    public void resourceFailed(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        LOG.log(seedUnreachable.getAsBoolean() ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING,
                ns + ": " + flow(direction) + " could not scale " + ref + ": " + reason);
    }

    @Override
    public void flowFinished(String ns, ScaleDirection direction, FlowOutcome outcome) {
        boolean acted = flowsThatActed.remove(ns + "/" + direction);
        System.Logger.Level level = outcome == FlowOutcome.FAILED
                ? seedUnreachable.getAsBoolean() ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING
                : acted || outcome == FlowOutcome.CANCELLED ? System.Logger.Level.INFO : System.Logger.Level.DEBUG;
        LOG.log(level, ns + ": " + flow(direction) + " " + outcome.name().toLowerCase(java.util.Locale.ROOT));
    }

    private static String flow(ScaleDirection direction) {
        return direction == ScaleDirection.UP ? "scale-up" : "scale-down";
    }
}
