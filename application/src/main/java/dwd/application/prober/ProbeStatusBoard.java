package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Clock;
import dwd.application.port.out.ProberObserver;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The state of every probe, for the {@code /probes} status endpoint: one entry per shoot with its
 * state, its last verdict and the numbers behind it (including the excluded nodes and why), its
 * last failure, when it probes next, and its last scale flow that did something.
 *
 * <p>Updated from the probe loops and flows with one atomic map operation per event, read as an
 * immutable snapshot: a status request never waits for a probe, and a probe never waits for it.
 */
public final class ProbeStatusBoard implements ProberObserver {

    /** Where a shoot stands, from its latest probe run. */
    public enum State {
        /** Probe started, no run finished yet. */
        STARTING,
        /** Leases are fresh: dependents are (being) kept up. */
        HEALTHY,
        /** A scale verdict waits for more verdicts in a row (hysteresis). */
        AWAITING_CONFIRMATION,
        /** Too many leases expired: dependents are (being) scaled down. */
        MELTDOWN,
        /** Too few candidate leases to judge, or verdicts held after a wall-clock step: nothing changes. */
        HOLD,
        /** The last run could not reach the shoot or read its leases: nothing changes. */
        PROBE_FAILING;

        /** Where a shoot stands after a run that ended in {@code verdict}, and the action taken on it (if any). */
        public static State after(LeaseVerdict verdict, Optional<Decision> action) {
            return action.map(decision -> switch (decision) {
                case SCALE_DOWN -> MELTDOWN;
                case SCALE_UP -> HEALTHY;
                case HOLD -> HOLD;
            }).orElse(verdict.decision() == Decision.HOLD ? HOLD : AWAITING_CONFIRMATION);
        }
    }

    /** A verdict and the action taken on it (empty while awaiting confirmation). */
    public record Verdict(Instant at, LeaseVerdict verdict, Optional<Decision> action) { }

    /** Why the last run failed. */
    public record Failure(Instant at, ProbeStage stage, ApiFailure.Kind kind, String message) { }

    /** What a flow did to one dependent: {@code scaled} (with from/to), {@code skipped} or {@code failed} (with a reason). */
    public record Step(ResourceRef ref, String result, String detail) { }

    /** A scale flow; {@code outcome} is empty while it runs. */
    public record Flow(ScaleDirection direction, Instant startedAt, Optional<Instant> finishedAt,
                       Optional<FlowOutcome> outcome, List<Step> steps) {
        public Flow {
            steps = List.copyOf(steps);
        }

        Flow with(Step step) {
            var more = new ArrayList<>(steps);
            more.add(step);
            return new Flow(direction, startedAt, finishedAt, outcome, more);
        }
    }

    /** One shoot's entry. */
    public record ShootStatus(String namespace, State state, Instant probingSince, Optional<Verdict> lastVerdict,
                              Optional<Failure> lastFailure, Optional<Instant> nextProbe, Optional<Flow> lastFlow) { }

    /** Internal per-shoot state: the published status plus the flow being run, shown once it does something. */
    private record Entry(ShootStatus status, Optional<Flow> running) {
        Entry withStatus(ShootStatus newStatus) {
            return new Entry(newStatus, running);
        }
    }

    private final Clock clock;
    private final ConcurrentHashMap<String, Entry> shoots = new ConcurrentHashMap<>();

    public ProbeStatusBoard(Clock clock) {
        this.clock = clock;
    }

    /** Every probed shoot, by namespace. */
    public List<ShootStatus> snapshot() {
        return shoots.values().stream().map(Entry::status)
                .sorted(Comparator.comparing(ShootStatus::namespace)).toList();
    }

    @Override
    public void probeStarted(String ns, Duration firstRunIn) {
        shoots.put(ns, new Entry(new ShootStatus(ns, State.STARTING, clock.now(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty()), Optional.empty()));
    }

    @Override
    public void probeStopped(String ns, String reason) {
        shoots.remove(ns);
    }

    @Override
    public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
        State state = State.after(verdict, action);
        var latest = new Verdict(clock.now(), verdict, action);
        update(ns, status -> new ShootStatus(ns, state, status.probingSince(), Optional.of(latest),
                status.lastFailure(), Optional.of(nextProbe), status.lastFlow()));
    }

    @Override
    public void probeFailed(String ns, ProbeStage stage, ApiFailure failure, Instant nextProbe) {
        var latest = new Failure(clock.now(), stage, failure.kind(), failure.getMessage());
        update(ns, status -> new ShootStatus(ns, State.PROBE_FAILING, status.probingSince(), status.lastVerdict(),
                Optional.of(latest), Optional.of(nextProbe), status.lastFlow()));
    }

    @Override
    public void flowStarted(String ns, ScaleDirection direction, LeaseVerdict cause) {
        shoots.computeIfPresent(ns, (key, entry) -> new Entry(entry.status(),
                Optional.of(new Flow(direction, clock.now(), Optional.empty(), Optional.empty(), List.of()))));
    }

    @Override
    public void resourceScaled(String ns, ScaleDirection direction, ResourceRef ref, int from, int to, LeaseVerdict cause) {
        step(ns, new Step(ref, "scaled", from + " -> " + to + " replicas"));
    }

    @Override
    public void resourceSkipped(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        step(ns, new Step(ref, "skipped", reason));
    }

    @Override
    public void resourceFailed(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        step(ns, new Step(ref, "failed", reason));
    }

    @Override
    public void flowFinished(String ns, ScaleDirection direction, FlowOutcome outcome) {
        shoots.computeIfPresent(ns, (key, entry) -> {
            if (entry.running().isEmpty()) {
                return entry;
            }
            Flow running = entry.running().get();
            // A healthy shoot runs a scale-up that finds nothing to do after every probe: not worth showing.
            if (running.steps().isEmpty() && outcome == FlowOutcome.COMPLETED) {
                return new Entry(entry.status(), Optional.empty());
            }
            Flow finished = new Flow(running.direction(), running.startedAt(), Optional.of(clock.now()),
                    Optional.of(outcome), running.steps());
            return new Entry(withFlow(entry.status(), finished), Optional.empty());
        });
    }

    private void step(String ns, Step step) {
        shoots.computeIfPresent(ns, (key, entry) -> {
            if (entry.running().isEmpty()) {
                return entry;
            }
            Flow running = entry.running().get().with(step);
            return new Entry(withFlow(entry.status(), running), Optional.of(running));
        });
    }

    private static ShootStatus withFlow(ShootStatus status, Flow flow) {
        return new ShootStatus(status.namespace(), status.state(), status.probingSince(), status.lastVerdict(),
                status.lastFailure(), status.nextProbe(), Optional.of(flow));
    }

    private void update(String ns, java.util.function.UnaryOperator<ShootStatus> change) {
        shoots.computeIfPresent(ns, (key, entry) -> entry.withStatus(change.apply(entry.status())));
    }
}
