package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Deadline;
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
import dwd.domain.time.SaturatingTime;
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
 * A 429 pushes the next run back by its Retry-After, at most {@link #MAX_RETRY_AFTER_INTERVALS}
 * probe intervals. Scale flows never delay a probe run. Delays are measured on the monotonic clock
 * and their arithmetic saturates, so no duration a shoot or the config supplies can end the loop.
 *
 * <p>While the verdict is scale-down, the shoot's node leases are watched ({@link RenewalWatch}): a change that
 * judged with the last run's nodes crosses back brings the next run forward, to at least
 * {@link ProberTuning#minProbeSpacing()} after the last one, and at most {@link #MAX_RUNS_BROUGHT_FORWARD} times
 * between two runs that came on their own schedule.
 *
 * <p>Every run schedules the next, whatever it throws: nothing about one shoot ends its probing.
 *
 * <p>Threading: runs are scheduled one at a time, so the loop's state ({@link #hysteresis},
 * {@link #throttledUntil}) is confined to it. Flows run on scheduler tasks beside the loop; only
 * {@link #flowLock} guards what they share.
 */
final class ShootProbe {

    private static final System.Logger LOG = System.getLogger(ShootProbe.class.getName());

    /**
     * A shoot's Retry-After delays its next probe by at most this many probe intervals (60 s at
     * Gardener's 30 s): enough to relieve an overloaded API server, short enough that a meltdown
     * behind it is still acted on, whatever the shoot answers.
     */
    static final int MAX_RETRY_AFTER_INTERVALS = 2;

    /**
     * Lease renewals bring the next run forward at most this often between two runs on the probe's own schedule:
     * once is what a recovery takes (that run scales up and the watch closes); the rest covers a run that judged
     * otherwise than the watched leases did (a node or Machine changed meanwhile). A watched shoot costs at most
     * this many runs more per probe interval.
     */
    static final int MAX_RUNS_BROUGHT_FORWARD = 3;

    private final String namespace;
    private final ProberConfig config;
    private final ProberTuning tuning;
    private final Scheduler scheduler;
    private final ShootClients shootClients;
    private final Machines machines;
    private final ResourceScaler scaler;
    private final ProberObserver observer;
    private final RandomGenerator random;
    private final WallClockSteps wallClockSteps;
    private final ScalePlan scaleDownPlan;
    private final ScalePlan scaleUpPlan;
    private final RenewalWatch renewals;

    private volatile ShootSettings settings;
    private volatile boolean closed;
    private Hysteresis hysteresis;
    /** The monotonic reading until which a 429 holds the next run back; none before the first 429. */
    private Deadline throttledUntil = Deadline.NONE;

    private final Object flowLock = new Object();
    private ScaleFlow currentFlow;
    private CompletableFuture<?> flowsStopped = CompletableFuture.completedFuture(null);
    private Cancellable nextRun = () -> { };
    /** The monotonic reading the next run is scheduled for, to report how late it starts; guarded by this. */
    private Deadline nextRunDue = Deadline.NONE;
    /** Which scheduled run is the next: one of an earlier generation was called off; guarded by this. */
    private long generation;
    /** A run is under way; guarded by this. */
    private boolean running;
    /** Lease renewals asked for a run while one was under way; guarded by this. */
    private boolean renewedDuringRun;
    /** When the last run ended; guarded by this. */
    private Deadline lastRunEnded = Deadline.NONE;
    /** How many more runs renewals may bring forward before a run comes on its own schedule; guarded by this. */
    private int runsBroughtForwardLeft = MAX_RUNS_BROUGHT_FORWARD;

    ShootProbe(String namespace, ProberConfig config, ProberTuning tuning, ShootSettings settings,
            Scheduler scheduler, ShootClients shootClients, Machines machines, ResourceScaler scaler,
            ProberObserver observer, RandomGenerator random, WallClockSteps wallClockSteps) {
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
        this.wallClockSteps = wallClockSteps;
        this.scaleDownPlan = ScalePlan.of(config.dependentResourceInfos(), ScaleDirection.DOWN);
        this.scaleUpPlan = ScalePlan.of(config.dependentResourceInfos(), ScaleDirection.UP);
        this.hysteresis = Hysteresis.initial(config.failureThreshold(), config.successThreshold());
        this.renewals = new RenewalWatch(namespace, config.nodeLeaseFailureFraction(), scheduler, observer,
                this::bringNextRunForward);
    }

    /** Starts probing: the first run comes after {@code firstRunDelay} (at least the initial delay). */
    void start(Duration firstRunDelay) {
        observer.probeStarted(namespace, firstRunDelay);
        synchronized (this) {
            scheduleRunIn(firstRunDelay, false);
        }
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
        renewals.close();
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

    /** Schedules the next run (a renewal brought it forward, or not), calling off the one scheduled before. */
    private void scheduleRunIn(Duration delay, boolean broughtForward) {
        assert Thread.holdsLock(this);
        if (!closed) {
            Duration notNegative = delay.isNegative() ? Duration.ZERO : delay;
            long next = ++generation;
            nextRun.cancel();
            nextRunDue = Deadline.in(scheduler, notNegative);
            nextRun = scheduler.schedule(notNegative, () -> run(next, broughtForward));
        }
    }

    /**
     * The watched leases crossed back: the next run comes now, or {@link ProberTuning#minProbeSpacing()} after the
     * last one, unless it is due sooner anyway or renewals have brought runs forward often enough since the last
     * run on the probe's own schedule. A run under way is judged again once it ends.
     */
    private synchronized void bringNextRunForward() {
        if (closed) {
            return;
        }
        if (running) {
            renewedDuringRun = true;
            return;
        }
        Duration delay = lastRunEnded.plus(tuning.minProbeSpacing()).remaining(scheduler);
        if (runsBroughtForwardLeft == 0 || nextRunDue.remaining(scheduler).compareTo(delay) <= 0) {
            return;
        }
        runsBroughtForwardLeft--;
        observer.probeBroughtForward(namespace);
        scheduleRunIn(delay, true);
    }

    /** A run ended: the next is due in {@code delay}. */
    private void runEnded(Duration delay, boolean broughtForward) {
        boolean judgeAgain;
        synchronized (this) {
            running = false;
            lastRunEnded = Deadline.in(scheduler, Duration.ZERO);
            if (!broughtForward) {
                runsBroughtForwardLeft = MAX_RUNS_BROUGHT_FORWARD;
            }
            judgeAgain = renewedDuringRun;
            renewedDuringRun = false;
            scheduleRunIn(delay, false);
        }
        if (judgeAgain) {
            renewals.judgeAgain();
        }
    }

    private synchronized Duration lateness() {
        return nextRunDue.overdueBy(scheduler);
    }

    private void run(long scheduled, boolean broughtForward) {
        synchronized (this) {
            if (closed || scheduled != generation) {
                return;
            }
            if (!throttledUntil.hasPassed(scheduler)) {
                scheduleRunIn(throttledUntil.remaining(scheduler), false);
                return;
            }
            running = true;
        }
        observer.probeRunStarted(namespace, lateness());
        Deadline next = Deadline.in(scheduler, regularInterval());
        try {
            next = probe();
        } catch (RuntimeException unexpected) {
            // A bug must not end the shoot's protection: log it and keep probing.
            LOG.log(System.Logger.Level.ERROR, namespace + ": probe run failed unexpectedly", unexpected);
            next = Deadline.in(scheduler, regularInterval());
        } finally {
            // Whatever a run throws, even an Error, the loop goes on; a closed probe schedules nothing.
            runEnded(next.remaining(scheduler), broughtForward);
        }
    }

    /** One probe run; returns when the next is due. */
    private Deadline probe() {
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
            Deadline decidedAtReading = Deadline.in(scheduler, Duration.ZERO);
            LeaseVerdict verdict = LeaseVerdicts.decide(new LeaseProbeInput(nodes, machineList, leases,
                    current.workerNodeConditions(), current.nodeMonitorGracePeriod(),
                    config.nodeLeaseFailureFraction(), leasesAskedAt));
            // Lease ages compare this wall clock with the kubelets' renew times: a verdict taken across
            // a step of it says nothing about the shoot and moves no streak.
            boolean held = wallClockSteps.holdsVerdicts();
            Optional<Decision> action;
            if (held) {
                action = Optional.of(Decision.HOLD);
            } else {
                hysteresis = hysteresis.observe(verdict.decision());
                action = hysteresis.action();
                renewals.afterVerdict(shoot, verdict, action, nodes, machineList, current);
            }
            Duration delay = held ? regularInterval() : delayAfter(decidedAt, verdict, action);
            Deadline next = decidedAtReading.plus(delay);
            scaler.nextProbeDue(next); // before any flow starts on this verdict: its writes end by then
            Instant nextProbe = SaturatingTime.plus(decidedAt, delay);
            if (!reportUnlessClosed(() -> observer.probeSucceeded(namespace, verdict, action, nextProbe))) {
                return next;
            }
            action.ifPresent(decision -> act(decision, verdict));
            return next;
        } catch (ApiFailure failure) {
            // Count from the end of the failed run: a shoot that times out must not be probed back to back.
            Deadline ended = Deadline.in(scheduler, Duration.ZERO);
            Duration delay = regularInterval();
            if (failure.is(ApiFailure.Kind.THROTTLED)) {
                Duration wait = retryAfterWithinCap(failure);
                throttledUntil = ended.plus(wait);
                delay = longer(delay, wait);
            }
            scaler.nextProbeDue(ended.plus(delay));
            Instant nextProbe = SaturatingTime.plus(scheduler.now(), delay);
            ProbeStage failedStage = stage;
            reportUnlessClosed(() -> observer.probeFailed(namespace, failedStage, failure, nextProbe));
            return ended.plus(delay);
        }
    }

    /** The server's Retry-After (our own back-off if it gave none), at most {@link #MAX_RETRY_AFTER_INTERVALS} intervals. */
    private Duration retryAfterWithinCap(ApiFailure failure) {
        Duration asked = failure.retryAfter().orElse(tuning.throttleBackoff());
        Duration cap = longer(tuning.throttleBackoff(), SaturatingTime.times(config.probeInterval(), MAX_RETRY_AFTER_INTERVALS));
        return asked.compareTo(cap) > 0 ? cap : asked;
    }

    /** From the instant of the verdict to the next run. */
    private Duration delayAfter(Instant now, LeaseVerdict verdict, Optional<Decision> action) {
        Duration delay = regularInterval();
        boolean awaitingConfirmation = action.isEmpty() && verdict.decision() != Decision.HOLD;
        if (awaitingConfirmation) {
            delay = Duration.ZERO; // hysteresis wants another verdict: confirm soon
        } else if (verdict.decision() == Decision.SCALE_UP && verdict.predictedCrossing().isPresent()
                && verdict.predictedCrossing().get().isBefore(SaturatingTime.plus(now, delay))) {
            // Not crossed when the leases were asked for. A crossing that passed while they were on
            // their way is probed again at once, not an interval later.
            Instant crossing = verdict.predictedCrossing().get();
            delay = crossing.isAfter(now) ? Duration.between(now, crossing) : Duration.ZERO;
        }
        return longer(longer(delay, tuning.minProbeSpacing()), throttledUntil.remaining(scheduler));
    }

    /** The probe interval plus its jitter. */
    private Duration regularInterval() {
        Duration interval = config.probeInterval();
        double jitter = config.backoffJitterFactor() > 0 ? random.nextDouble() * config.backoffJitterFactor() : 0;
        return SaturatingTime.plus(interval, SaturatingTime.times(interval, jitter));
    }

    private static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
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
