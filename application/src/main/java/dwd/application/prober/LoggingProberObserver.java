package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Clock;
import dwd.application.port.out.ProberObserver;
import dwd.application.runtime.Recurrences;
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
 * seed does not log every probe of every shoot. A problem a shoot or a dependent shows — a failed
 * probe, a dependent a flow cannot scale (a garbage replicas annotation, a missing Deployment), a
 * failed flow, leases without a renew time — is logged at WARN when it appears or changes, at DEBUG
 * while it repeats, again every {@link Recurrences#REMINDER} while it lasts, and at INFO once when it
 * clears, with how long it lasted and how often it was seen ({@link Recurrences}). While the seed's
 * API server is known to be unreachable (reported once, by whoever noticed it), a scale flow's
 * failures are logged at DEBUG: they can only fail then, and the metrics and the status page still
 * count them.
 */
public final class LoggingProberObserver implements ProberObserver {

    private final System.Logger log;

    private final ConcurrentHashMap<String, String> lastVerdict = new ConcurrentHashMap<>();
    /** Flows that changed something; only those are logged at INFO (a healthy shoot runs a no-op scale-up per probe). */
    private final java.util.Set<String> flowsThatActed = ConcurrentHashMap.newKeySet();
    /** Dependents that failed in the flow under way, by {@code namespace|direction}. */
    private final ConcurrentHashMap<String, java.util.Set<ResourceRef>> failedInFlow = new ConcurrentHashMap<>();
    /** A shoot's failing probes, by namespace. */
    private final Recurrences<String> probeFailures;
    /** A dependent a flow cannot scale, by {@code namespace|direction|ref}. */
    private final Recurrences<String> resourceFailures;
    /** A shoot's failing flows, by {@code namespace|direction}. */
    private final Recurrences<String> flowFailures;
    /** Candidate nodes whose leases have no renew time, by namespace. */
    private final Recurrences<String> leasesWithoutRenewTime;
    private final BooleanSupplier seedUnreachable;

    /** Every failure at its level. */
    public LoggingProberObserver() {
        this(() -> false, Clock.system());
    }

    /**
     * @param seedUnreachable whether the seed's API server is known to be unreachable now
     * @param clock           measures how long a problem lasted, and when to remind of it
     */
    public LoggingProberObserver(BooleanSupplier seedUnreachable, Clock clock) {
        this(seedUnreachable, clock, System.getLogger("dwd.prober"));
    }

    LoggingProberObserver(BooleanSupplier seedUnreachable, Clock clock, System.Logger log) {
        this.log = log;
        this.seedUnreachable = seedUnreachable;
        this.probeFailures = new Recurrences<>(clock::nanoTime);
        this.resourceFailures = new Recurrences<>(clock::nanoTime);
        this.flowFailures = new Recurrences<>(clock::nanoTime);
        this.leasesWithoutRenewTime = new Recurrences<>(clock::nanoTime);
    }

    @Override
    public void probeStarted(String ns, Duration firstRunIn) {
        log.log(System.Logger.Level.INFO, ns + ": probe started");
    }

    @Override
    public void probeStopped(String ns, String reason) {
        lastVerdict.remove(ns);
        probeFailures.forget(ns);
        leasesWithoutRenewTime.forget(ns);
        resourceFailures.forgetIf(key -> key.startsWith(ns + "|"));
        flowFailures.forgetIf(key -> key.startsWith(ns + "|"));
        failedInFlow.keySet().removeIf(key -> key.startsWith(ns + "|"));
        log.log(System.Logger.Level.INFO, ns + ": probe stopped: " + reason);
    }

    @Override
    public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
        boolean held = action.equals(Optional.of(Decision.HOLD)) && verdict.decision() != Decision.HOLD;
        String summary = verdict.decision() + " (" + verdict.summary() + ")"
                + (action.isEmpty() && verdict.decision() != Decision.HOLD ? ", awaiting confirmation" : "")
                + (held ? ", held: not acted on after a wall-clock step" : "");
        String state = verdict.decision() + "/" + action.map(Decision::name).orElse("none");
        String previous = lastVerdict.put(ns, state);
        Optional<Recurrences.Cleared> recovered = probeFailures.clear(ns);
        recovered.ifPresent(cleared -> log.log(System.Logger.Level.INFO, ns + ": probes work again, after "
                + cleared.summary() + " failing (last: " + cleared.problem() + ")"));
        boolean changed = recovered.isPresent() || previous == null || !previous.equals(state);
        log.log(changed ? System.Logger.Level.INFO : System.Logger.Level.DEBUG,
                ns + ": lease probe: " + summary + "; next probe at " + nextProbe);
        reportLeasesWithoutRenewTime(ns, verdict.leasesWithoutRenewTime());
    }

    private void reportLeasesWithoutRenewTime(String ns, int count) {
        if (count == 0) {
            leasesWithoutRenewTime.clear(ns).ifPresent(cleared -> log.log(System.Logger.Level.INFO, ns
                    + ": every candidate node's lease has a spec.renewTime again (after " + cleared.summary() + ")"));
            return;
        }
        String problem = count + (count == 1 ? " node lease has" : " node leases have")
                + " no spec.renewTime; not counted as candidate" + (count == 1 ? "" : "s");
        if (leasesWithoutRenewTime.seen(ns, problem).worthTelling()) {
            log.log(System.Logger.Level.WARNING, ns + ": " + problem + " (reported again when the number changes,"
                    + " and every " + GoDuration.format(Recurrences.REMINDER) + " while it lasts)");
        }
    }

    @Override
    public void probeFailed(String ns, ProbeStage stage, ApiFailure failure, Instant nextProbe) {
        String what = stage == ProbeStage.API_SERVER ? "API server probe failed" : "lease probe failed";
        String failing = what + " (" + kindName(failure.kind()) + "): " + failure.getMessage();
        Recurrences.Report report = probeFailures.seen(ns, failing);
        String line = ns + ": " + failing + "; nothing is scaled; next probe at " + nextProbe;
        switch (report) {
            case APPEARED -> log.log(System.Logger.Level.WARNING, line + " (while it fails the same way, further"
                    + " failures are logged at debug level, and every " + GoDuration.format(Recurrences.REMINDER) + ")");
            case REMINDED -> log.log(System.Logger.Level.WARNING, line + " (still so, " + probeFailures.ongoingSummary(ns)
                    .orElse("") + ")");
            case REPEATED -> log.log(System.Logger.Level.DEBUG, line);
        }
    }

    /** A failure kind as {@code /probes} and the metrics name it: {@code certificate-expired}. */
    private static String kindName(ApiFailure.Kind kind) {
        return kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    @Override
    public void leaseWatchChanged(String ns, boolean watching) {
        log.log(System.Logger.Level.DEBUG, ns + (watching
                ? ": following the node leases while the verdict is scale-down, to act on renewals as they come"
                : ": no longer following the node leases"));
    }

    @Override
    public void probeBroughtForward(String ns) {
        log.log(System.Logger.Level.DEBUG, ns + ": the watched leases crossed back: probing now");
    }

    @Override
    public void wallClockStepped(Duration step, Duration heldFor) {
        log.log(System.Logger.Level.WARNING, "the wall clock stepped " + (step.isNegative() ? "back" : "forward")
                + " by " + GoDuration.format(step.abs()) + " (against the monotonic clock): lease verdicts of every"
                + " shoot are held for " + GoDuration.format(heldFor) + ", as lease ages compare this clock with the"
                + " kubelets' renew times");
    }

    @Override
    public void flowStarted(String ns, ScaleDirection direction, LeaseVerdict cause) {
        failedInFlow.remove(ns + "|" + direction);
        log.log(System.Logger.Level.DEBUG, ns + ": " + flow(direction) + " started: " + cause.summary());
    }

    @Override
    public void resourceScaled(String ns, ScaleDirection direction, ResourceRef ref, int from, int to, LeaseVerdict cause) {
        flowsThatActed.add(ns + "/" + direction);
        resourceWorks(ns, direction, ref);
        log.log(System.Logger.Level.INFO, ns + ": " + flow(direction) + ": scaled " + ref + " from " + from + " to " + to
                + " replicas (" + cause.summary() + ")");
    }

    @Override
    public void resourceSkipped(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        resourceWorks(ns, direction, ref);
        log.log(System.Logger.Level.DEBUG, ns + ": " + flow(direction) + " skipped " + ref + ": " + reason);
    }

    @Override
    public void resourceFailed(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        failedInFlow.computeIfAbsent(ns + "|" + direction, key -> ConcurrentHashMap.newKeySet()).add(ref);
        String line = ns + ": " + flow(direction) + " could not scale " + ref + ": " + reason;
        Recurrences.Report report = resourceFailures.seen(resourceKey(ns, direction, ref), reason);
        if (seedUnreachable.getAsBoolean() || !report.worthTelling()) {
            log.log(System.Logger.Level.DEBUG, line);
        } else {
            log.log(System.Logger.Level.WARNING, line + (report == Recurrences.Report.APPEARED
                    ? " (while it fails the same way, it is logged at debug level, and every "
                            + GoDuration.format(Recurrences.REMINDER) + ")"
                    : " (still so, " + resourceFailures.ongoingSummary(resourceKey(ns, direction, ref)).orElse("") + ")"));
        }
    }

    @Override
    public void flowFinished(String ns, ScaleDirection direction, FlowOutcome outcome) {
        boolean acted = flowsThatActed.remove(ns + "/" + direction);
        String key = ns + "|" + direction;
        java.util.Set<ResourceRef> failed = failedInFlow.remove(key);
        String line = ns + ": " + flow(direction) + " " + outcome.name().toLowerCase(java.util.Locale.ROOT);
        if (outcome == FlowOutcome.FAILED) {
            String problem = failed == null ? "failed" : "failed on " + failed.stream().map(ResourceRef::toString).sorted()
                    .collect(java.util.stream.Collectors.joining(", "));
            boolean tell = flowFailures.seen(key, problem).worthTelling() && !seedUnreachable.getAsBoolean();
            // A dependent that failed said why, at WARN, just before: the flow's end adds no news to that.
            log.log(!tell ? System.Logger.Level.DEBUG : failed == null ? System.Logger.Level.WARNING
                    : System.Logger.Level.INFO, line);
            return;
        }
        if (outcome == FlowOutcome.COMPLETED) {
            // Every step completed: whatever failed before in this direction works now.
            resourceFailures.clearIf(resource -> resource.startsWith(key + "|")).forEach((resource, cleared) -> log.log(
                    System.Logger.Level.INFO, ns + ": " + flow(direction) + " of " + resource.substring(key.length() + 1)
                            + " works again, after " + cleared.summary() + " failing (" + cleared.problem() + ")"));
            flowFailures.clear(key).ifPresent(cleared -> log.log(System.Logger.Level.INFO, ns + ": " + flow(direction)
                    + " works again, after " + cleared.summary() + " failing (" + cleared.problem() + ")"));
        }
        log.log(acted || outcome == FlowOutcome.CANCELLED ? System.Logger.Level.INFO : System.Logger.Level.DEBUG, line);
    }

    /** The dependent's step did not fail: a failure of it logged before has cleared. */
    private void resourceWorks(String ns, ScaleDirection direction, ResourceRef ref) {
        resourceFailures.clear(resourceKey(ns, direction, ref)).ifPresent(cleared -> log.log(System.Logger.Level.INFO,
                ns + ": " + flow(direction) + " of " + ref + " works again, after " + cleared.summary()
                        + " failing (" + cleared.problem() + ")"));
    }

    private static String resourceKey(String ns, ScaleDirection direction, ResourceRef ref) {
        return ns + "|" + direction + "|" + ref;
    }

    private static String flow(ScaleDirection direction) {
        return direction == ScaleDirection.UP ? "scale-up" : "scale-down";
    }
}
