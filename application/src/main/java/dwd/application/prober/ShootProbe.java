package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Machines;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ProberObserver.ProbeStage;
import dwd.application.port.out.ShootApi;
import dwd.application.port.out.ShootClients;
import dwd.application.port.out.Scheduler;
import dwd.domain.config.ProberConfig;
import dwd.domain.lease.Decision;
import dwd.domain.lease.Hysteresis;
import dwd.domain.lease.LeaseProbeInput;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.lease.LeaseVerdicts;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.scaling.ScalePlan;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.random.RandomGenerator;

/**
 * The probe of one shoot: a loop of probe runs (API server, then node leases, then a verdict)
 * and the scale flows its verdicts start.
 *
 * <p>Scheduling: after the initial delay, each run schedules the next at {@code interval} plus
 * up to {@code jitter × interval}, or earlier: at the instant the expired fraction would cross the
 * threshold if no lease were renewed, or at once when that instant passed while the lease list was
 * on its way (never sooner than {@link ProberTuning#minProbeSpacing()} after the run).
 * A 429 pushes the next run back by its Retry-After. Scale flows never delay a probe run.
 *
 * <p>Threading: runs are scheduled one at a time, so the loop's state ({@link #hysteresis},
 * {@link #throttledUntil}) is confined to it. Flows run on scheduler tasks beside the loop; only
 * {@link #flowLock} guards what they share.
 */
final class ShootProbe {

    private static final System.Logger LOG = System.getLogger(ShootProbe.class.getName());

    private final String namespace;
    private final ProberConfig config;
    private final ProberTuning tuning;
    private final Scheduler scheduler;
    private final ShootClients shootClients;
    private final Machines machines;
    private final ResourceScaler scaler;
    private final ProberObserver observer;
    private final RandomGenerator random;
    private final ScalePlan scaleDownPlan;
    private final ScalePlan scaleUpPlan;

    private volatile ShootSettings settings;
    private volatile boolean closed;
    private Hysteresis hysteresis;
    private Instant throttledUntil = Instant.MIN;

    private final Object flowLock = new Object();
    private ScaleFlow currentFlow;
    private CompletableFuture<?> flowsStopped = CompletableFuture.completedFuture(null);
    private Cancellable nextRun = () -> { };
    /** The instant the next run is scheduled for, to report how late it starts; guarded by this. */
    private Instant nextRunDue;

    ShootProbe(String namespace, ProberConfig config, ProberTuning tuning, ShootSettings settings,
            Scheduler scheduler, ShootClients shootClients, Machines machines, ResourceScaler scaler,
            ProberObserver observer, RandomGenerator random) {
        this.namespace = namespace;
        this.config = config;
        this.tuning = tuning;
        this.settings = settings;
        this.scheduler = scheduler;
        this.shootClients = shootClients;
        this.machines = machines;
        this.scaler = scaler;
        this.observer = observer;
        this.random = random;
        this.scaleDownPlan = ScalePlan.of(config.dependentResourceInfos(), ScaleDirection.DOWN);
        this.scaleUpPlan = ScalePlan.of(config.dependentResourceInfos(), ScaleDirection.UP);
        this.hysteresis = Hysteresis.initial(config.failureThreshold(), config.successThreshold());
    }

    /** Starts probing: the first run comes after {@code firstRunDelay} (at least the initial delay). */
    void start(Duration firstRunDelay) {
        observer.probeStarted(namespace);
        scheduleRunIn(firstRunDelay);
    }

    /** New per-shoot settings, used from the next run on; the probe keeps its state. */
    void update(ShootSettings newSettings) {
        settings = newSettings;
    }

    ShootSettings settings() {
        return settings;
    }

    /** Stops probing and asks a running flow to stop at its next safe point. */
    void close(String reason) {
        synchronized (this) {
            closed = true;
            nextRun.cancel();
        }
        synchronized (flowLock) {
            if (currentFlow != null) {
                currentFlow.cancel();
            }
        }
        observer.probeStopped(namespace, reason);
    }

    /**
     * Reports a run's outcome, unless the probe was stopped while the run was under way: then the
     * outcome concerns no one any more, and nothing is reported after {@code probeStopped}.
     */
    private synchronized boolean reportUnlessClosed(Runnable report) {
        if (closed) {
            return false;
        }
        report.run();
        return true;
    }

    private synchronized void scheduleRunIn(Duration delay) {
        if (!closed) {
            nextRunDue = scheduler.now().plus(delay.isNegative() ? Duration.ZERO : delay);
            nextRun = scheduler.schedule(delay, this::run);
        }
    }

    private synchronized Duration lateness(Instant now) {
        Duration late = nextRunDue == null ? Duration.ZERO : Duration.between(nextRunDue, now);
        return late.isNegative() ? Duration.ZERO : late;
    }

    private void run() {
        if (closed) {
            return;
        }
        Instant now = scheduler.now();
        if (now.isBefore(throttledUntil)) {
            scheduleRunIn(Duration.between(now, throttledUntil));
            return;
        }
        observer.probeRunStarted(namespace, lateness(now));
        ShootSettings current = settings;
        ProbeStage stage = ProbeStage.API_SERVER;
        try (ShootApi shoot = shootClients.open(namespace, config.kubeConfigSecretName(), config.probeTimeout())) {
            shoot.version();
            stage = ProbeStage.LEASES;
            var nodes = shoot.nodes();
            var machineList = machines.inNamespace(namespace);
            // Lease ages are reckoned at the instant the list was asked for, not when it is evaluated:
            // the server's snapshot is at least that recent, so a process starved of CPU after the
            // answer cannot see renewed leases as expired (it may see them younger by the call's
            // duration, bounded by probeTimeout).
            Instant leasesAskedAt = scheduler.now();
            var leases = shoot.nodeLeases();
            Instant decidedAt = scheduler.now();
            LeaseVerdict verdict = LeaseVerdicts.decide(new LeaseProbeInput(nodes, machineList, leases,
                    current.workerNodeConditions(), current.nodeMonitorGracePeriod(),
                    config.nodeLeaseFailureFraction(), leasesAskedAt));
            hysteresis = hysteresis.observe(verdict.decision());
            Optional<Decision> action = hysteresis.action();
            Instant next = nextRun(decidedAt, verdict, action);
            if (!reportUnlessClosed(() -> observer.probeSucceeded(namespace, verdict, action, next))) {
                return;
            }
            action.ifPresent(decision -> act(decision, verdict));
            scheduleRunIn(Duration.between(scheduler.now(), next));
        } catch (ApiFailure failure) {
            // Count from the end of the failed run: a shoot that times out must not be probed back to back.
            Instant ended = scheduler.now();
            if (failure.is(ApiFailure.Kind.THROTTLED)) {
                throttledUntil = ended.plus(failure.retryAfter().orElse(tuning.throttleBackoff()));
            }
            Instant next = later(regularNextRun(ended), throttledUntil);
            ProbeStage failedStage = stage;
            if (!reportUnlessClosed(() -> observer.probeFailed(namespace, failedStage, failure, next))) {
                return;
            }
            scheduleRunIn(Duration.between(scheduler.now(), next));
        } catch (RuntimeException unexpected) {
            // A bug must not end the shoot's protection: log it and keep probing.
            LOG.log(System.Logger.Level.ERROR, namespace + ": probe run failed unexpectedly", unexpected);
            Instant ended = scheduler.now();
            scheduleRunIn(Duration.between(ended, regularNextRun(ended)));
        }
    }

    private Instant nextRun(Instant now, LeaseVerdict verdict, Optional<Decision> action) {
        Instant next = regularNextRun(now);
        boolean awaitingConfirmation = action.isEmpty() && verdict.decision() != Decision.HOLD;
        if (awaitingConfirmation) {
            next = now; // hysteresis wants another verdict: confirm soon
        } else if (verdict.decision() == Decision.SCALE_UP && verdict.predictedCrossing().isPresent()
                && verdict.predictedCrossing().get().isBefore(next)) {
            // Not crossed when the leases were asked for. A crossing that passed while they were on
            // their way is probed again at once, not an interval later.
            next = later(verdict.predictedCrossing().get(), now);
        }
        return later(later(next, now.plus(tuning.minProbeSpacing())), throttledUntil);
    }

    private Instant regularNextRun(Instant now) {
        Duration interval = config.probeInterval();
        double jitter = config.backoffJitterFactor() > 0 ? random.nextDouble() * config.backoffJitterFactor() : 0;
        return now.plus(interval).plusNanos((long) (interval.toNanos() * jitter));
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private void act(Decision decision, LeaseVerdict verdict) {
        switch (decision) {
            case SCALE_DOWN -> startFlow(scaleDownPlan, verdict);
            case SCALE_UP -> startFlow(scaleUpPlan, verdict);
            case HOLD -> { }
        }
    }

    /**
     * Starts a flow unless one in the same direction is already under way. An opposite flow is
     * cancelled, and the new one starts only once every earlier flow has stopped, so two flows
     * never write to the shoot's resources at the same time.
     */
    private void startFlow(ScalePlan plan, LeaseVerdict verdict) {
        synchronized (flowLock) {
            if (closed) {
                return;
            }
            if (currentFlow != null && !currentFlow.isFinished()) {
                if (currentFlow.direction() == plan.direction()) {
                    return;
                }
                currentFlow.cancel();
            }
            ScaleFlow flow = new ScaleFlow(namespace, plan, scaler, observer, verdict);
            currentFlow = flow;
            flowsStopped = flow.startAfter(flowsStopped);
        }
    }
}
