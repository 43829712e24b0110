package dwd.adapters.metrics;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Clock;
import dwd.application.port.out.ProberObserver;
import dwd.application.prober.ProbeStatusBoard.State;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;

/**
 * The prober's metrics, from its events. Each event costs a map lookup and an atomic update, so
 * observing never slows a probe; a scrape reads the registry, never the probes.
 *
 * <p>Per-shoot gauges exist while the shoot is probed and are removed when its probe stops, so a
 * deleted shoot leaves no stale series. {@code dwd_shoot_scaled_down_since_timestamp_seconds}
 * exists only while the shoot's dependents are held scaled down: from the first dependent scaled
 * down (or a completed scale-down that found them down already) to the next completed scale-up. A healthy shoot's scale-up that finds nothing to do is not
 * a flow worth timing: only flows that touched a resource (or did not complete) are recorded.
 */
public final class ProberMetrics implements ProberObserver {

    static final String PROBES_ACTIVE = "dwd.probes.active";
    static final String PROBE_RESULTS = "dwd.probe.results";
    static final String EXPIRED_RATIO = "dwd.shoot.lease.expired.ratio";
    static final String CANDIDATES = "dwd.shoot.lease.candidates";
    static final String EXPIRED = "dwd.shoot.leases.expired";
    static final String SCALE_OPERATIONS = "dwd.scale.operations";
    static final String FLOW_DURATION = "dwd.scale.flow.duration";
    static final String DECISION_LATENCY = "dwd.decision.latency";
    static final String PROBE_LATENESS = "dwd.probe.lateness";
    /** Buckets of the lateness histogram: fine below a second, where a healthy prober stays. */
    private static final Duration[] LATENESS_BUCKETS = java.util.stream.Stream.of(
            1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000)
            .map(Duration::ofMillis).toArray(Duration[]::new);
    static final String SHOOT_STATE = "dwd.shoot.state";
    static final String SCALED_DOWN_SINCE = "dwd.shoot.scaled.down.since.timestamp.seconds";
    static final String PROBE_FAILURES = "dwd.probe.failures";
    static final String WALL_CLOCK_STEPS = "dwd.wall.clock.steps";
    static final String PROBE_LOOPS_STALLED = "dwd.probe.loops.stalled";
    static final String LEASE_WATCHES = "dwd.lease.watches";
    static final String RUNS_BROUGHT_FORWARD = "dwd.probe.runs.brought.forward";

    /** The last verdict's numbers of one shoot, behind its three gauges. */
    private static final class ShootGauges {
        volatile double ratio;
        volatile double candidates;
        volatile double expired;
        final List<Meter> meters;

        ShootGauges(MeterRegistry registry, String shoot) {
            meters = List.of(
                    Gauge.builder(EXPIRED_RATIO, this, g -> g.ratio).tag("shoot", shoot).strongReference(true)
                            .description("Expired fraction of the shoot's candidate node leases at its last probe")
                            .register(registry),
                    Gauge.builder(CANDIDATES, this, g -> g.candidates).tag("shoot", shoot).strongReference(true)
                            .description("Candidate node leases of the shoot at its last probe").register(registry),
                    Gauge.builder(EXPIRED, this, g -> g.expired).tag("shoot", shoot).strongReference(true)
                            .description("Expired candidate node leases of the shoot at its last probe")
                            .register(registry));
        }
    }

    /**
     * Where one shoot stands ({@code /probes}' {@code state}), as a state set: one series per state,
     * 1 for the current one, so a panel or an alert can select a state without knowing the others.
     */
    private static final class ShootState {
        volatile State current = State.STARTING;
        final List<Meter> meters;

        ShootState(MeterRegistry registry, String shoot) {
            meters = Arrays.stream(State.values())
                    .<Meter>map(state -> Gauge.builder(SHOOT_STATE, this, s -> s.current == state ? 1 : 0)
                            .tag("shoot", shoot).tag("state", ProbeStatusJson.name(state)).strongReference(true)
                            .description("1 for the shoot's current probe state (as on /probes), 0 for the others")
                            .register(registry))
                    .toList();
        }
    }

    /** A flow under way: when it started and whether it touched anything yet. */
    private record RunningFlow(Instant startedAt, AtomicBoolean acted, AtomicBoolean firstWriteTimed) { }

    private final MeterRegistry registry;
    private final Clock clock;
    private final Set<String> probed = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<String, ShootGauges> shoots = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, RunningFlow> flows = new ConcurrentHashMap<>();
    private final Timer lateness;
    private final ConcurrentHashMap<String, ShootState> states = new ConcurrentHashMap<>();
    /** Shoots whose dependents are held scaled down, by the gauge that says since when. */
    private final ConcurrentHashMap<String, Gauge> scaledDown = new ConcurrentHashMap<>();
    private final Counter wallClockSteps;
    private final Set<String> leaseWatches = ConcurrentHashMap.newKeySet();
    private final Counter runsBroughtForward;

    public ProberMetrics(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
        Gauge.builder(PROBES_ACTIVE, probed, Set::size).strongReference(true)
                .description("Shoots being probed").register(registry);
        lateness = Timer.builder(PROBE_LATENESS)
                .description("How long after its scheduled instant a probe run started")
                .serviceLevelObjectives(LATENESS_BUCKETS)
                .register(registry);
        wallClockSteps = Counter.builder(WALL_CLOCK_STEPS)
                .description("Steps of the wall clock against the monotonic clock, each holding lease verdicts for a probe interval")
                .register(registry);
        Gauge.builder(LEASE_WATCHES, leaseWatches, Set::size).strongReference(true)
                .description("Shoots whose node leases are followed (listed every 500 ms or more), while their verdict is scale-down").register(registry);
        runsBroughtForward = Counter.builder(RUNS_BROUGHT_FORWARD)
                .description("Probe runs brought forward because watched node leases crossed back")
                .register(registry);
        for (String outcome : List.of("scale_down", "scale_up", "hold", "failed_api_server", "failed_leases")) {
            probeResults(outcome); // present at 0 from the start, so rates work from the first scrape
        }
    }

    @Override
    public void probeStarted(String ns, Duration firstRunIn) {
        probed.add(ns);
        states.computeIfAbsent(ns, shoot -> new ShootState(registry, shoot));
    }

    @Override
    public void probeStopped(String ns, String reason) {
        probed.remove(ns);
        flows.keySet().removeIf(key -> key.startsWith(ns + "|"));
        ShootGauges gauges = shoots.remove(ns);
        if (gauges != null) {
            gauges.meters.forEach(registry::remove);
        }
        ShootState state = states.remove(ns);
        if (state != null) {
            state.meters.forEach(registry::remove);
        }
        noLongerScaledDown(ns);
        leaseWatches.remove(ns);
    }

    @Override
    public void leaseWatchChanged(String ns, boolean watching) {
        if (watching) {
            leaseWatches.add(ns);
        } else {
            leaseWatches.remove(ns);
        }
    }

    @Override
    public void probeBroughtForward(String ns) {
        runsBroughtForward.increment();
    }

    @Override
    public void probeRunStarted(String ns, Duration late) {
        lateness.record(late);
    }

    @Override
    public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
        probeResults(verdict.decision().name().toLowerCase(Locale.ROOT)).increment();
        ShootGauges gauges = shoots.computeIfAbsent(ns, shoot -> new ShootGauges(registry, shoot));
        gauges.ratio = verdict.fraction();
        gauges.candidates = verdict.candidates();
        gauges.expired = verdict.expired();
        state(ns, State.after(verdict, action));
    }

    @Override
    public void probeFailed(String ns, ProbeStage stage, ApiFailure failure, Instant nextProbe) {
        probeResults(stage == ProbeStage.API_SERVER ? "failed_api_server" : "failed_leases").increment();
        Counter.builder(PROBE_FAILURES).tag("shoot", ns).tag("stage", ProbeStatusJson.name(stage))
                .tag("reason", ProbeStatusJson.name(failure.kind()))
                .description("Failed probe runs by shoot, the stage that failed and why (as on /probes' lastFailure)")
                .register(registry).increment();
        state(ns, State.PROBE_FAILING);
    }

    @Override
    public void wallClockStepped(Duration step, Duration heldFor) {
        wallClockSteps.increment();
    }

    /** Publishes how many probe loops are stalled now ({@code stalled} is asked at every scrape). */
    public void countStalledProbeLoops(IntSupplier stalled) {
        Gauge.builder(PROBE_LOOPS_STALLED, stalled, IntSupplier::getAsInt).strongReference(true)
                .description("Probe loops more than the stall tolerance late for their next run")
                .register(registry);
    }

    @Override
    public void flowStarted(String ns, ScaleDirection direction, LeaseVerdict cause) {
        flows.put(flowKey(ns, direction), new RunningFlow(clock.now(), new AtomicBoolean(), new AtomicBoolean()));
    }

    @Override
    public void resourceScaled(String ns, ScaleDirection direction, ResourceRef ref, int from, int to, LeaseVerdict cause) {
        scaleOperations(ns, direction, ref, "scaled").increment();
        if (direction == ScaleDirection.DOWN) {
            scaledDown(ns);
        }
        RunningFlow flow = acted(ns, direction);
        // Decision latency: from the instant the expired fraction reached the threshold to the first
        // dependent scaled down for it.
        if (direction == ScaleDirection.DOWN && flow != null && flow.firstWriteTimed().compareAndSet(false, true)) {
            cause.predictedCrossing().ifPresent(crossing -> {
                Duration latency = Duration.between(crossing, clock.now());
                if (!latency.isNegative()) {
                    Timer.builder(DECISION_LATENCY).tag("direction", "down")
                            .description("From the threshold crossing of the expired lease fraction to the first dependent scaled down")
                            .register(registry).record(latency);
                }
            });
        }
    }

    @Override
    public void resourceSkipped(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        scaleOperations(ns, direction, ref, "skipped").increment();
        acted(ns, direction);
    }

    @Override
    public void resourceFailed(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        scaleOperations(ns, direction, ref, "failed").increment();
        acted(ns, direction);
    }

    @Override
    public void flowFinished(String ns, ScaleDirection direction, FlowOutcome outcome) {
        if (outcome == FlowOutcome.COMPLETED) {
            // A completed scale-down that scaled nothing found its dependents down already (after a
            // restart or failover): held down from now on, as far as this process knows.
            if (direction == ScaleDirection.DOWN) {
                scaledDown(ns);
            } else {
                noLongerScaledDown(ns);
            }
        }
        RunningFlow flow = flows.remove(flowKey(ns, direction));
        if (flow != null && (flow.acted().get() || outcome != FlowOutcome.COMPLETED)) {
            Timer.builder(FLOW_DURATION)
                    .tag("direction", direction(direction))
                    .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                    .description("Duration of scale flows that scaled, skipped or failed at least one dependent")
                    .register(registry)
                    .record(Duration.between(flow.startedAt(), clock.now()));
        }
    }

    private void state(String ns, State state) {
        ShootState shoot = states.get(ns);
        if (shoot != null) {
            shoot.current = state;
        }
    }

    /** The shoot's dependents are held down from now on, unless they already were. */
    private void scaledDown(String ns) {
        if (!probed.contains(ns)) {
            return; // a flow finishing after its probe stopped concerns no one any more
        }
        scaledDown.computeIfAbsent(ns, shoot -> {
            double since = clock.now().toEpochMilli() / 1000.0;
            return Gauge.builder(SCALED_DOWN_SINCE, () -> since).tag("shoot", shoot).strongReference(true)
                    .description("Present while the shoot's dependents are held scaled down: since when (Unix time)")
                    .register(registry);
        });
    }

    private void noLongerScaledDown(String ns) {
        Gauge gauge = scaledDown.remove(ns);
        if (gauge != null) {
            registry.remove(gauge);
        }
    }

    private RunningFlow acted(String ns, ScaleDirection direction) {
        RunningFlow flow = flows.get(flowKey(ns, direction));
        if (flow != null) {
            flow.acted().set(true);
        }
        return flow;
    }

    private Counter probeResults(String outcome) {
        return Counter.builder(PROBE_RESULTS).tag("outcome", outcome)
                .description("Probe runs by outcome: the verdict, or the stage that failed").register(registry);
    }

    private Counter scaleOperations(String ns, ScaleDirection direction, ResourceRef ref, String result) {
        return Counter.builder(SCALE_OPERATIONS)
                .tag("shoot", ns)
                .tag("resource", ref.kind() + "/" + ref.name())
                .tag("direction", direction(direction))
                .tag("result", result)
                .description("Dependents scaled, skipped or failed by scale flows")
                .register(registry);
    }

    private static String direction(ScaleDirection direction) {
        return direction == ScaleDirection.DOWN ? "down" : "up";
    }

    private static String flowKey(String ns, ScaleDirection direction) {
        return ns + "|" + direction;
    }
}
