package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Deadline;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ScalableResources;
import dwd.application.prober.StepLooks.Look;
import dwd.application.prober.StepRunner.Outcome;
import dwd.application.prober.StepRunner.StepResult;
import dwd.domain.config.GoDuration;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.scaling.ScaleStep;
import dwd.domain.scaling.StepDecision;
import dwd.domain.scaling.StepDecision.Missing;
import dwd.domain.scaling.StepDecision.NothingToDo;
import dwd.domain.scaling.StepDecision.Scale;
import dwd.domain.scaling.StepDecision.Skip;
import dwd.domain.scaling.StepDecision.UnusableRecord;
import java.time.Duration;
import java.util.Optional;

/**
 * One scale step: scales one dependent of one shoot up or down, as {@link StepDecision} decides (the
 * original's {@code resScaler.scale}). Each pass sees the dependent and returns what comes next
 * ({@link StepRunner} carries it out):
 * <ol>
 *   <li>looks at the dependent ({@link StepLooks}: the seed's cache on the first look, where it may
 *       decide, else a read) and takes the domain's decision on it;</li>
 *   <li>a decision that scales nothing, taken on the version a write of ours is in doubt at
 *       ({@link WritesInDoubt}), waits and looks again: that write may still land;</li>
 *   <li>before a scale, waits the step's initial delay once, then looks and decides again (the
 *       dependent may no longer need it);</li>
 *   <li>sends the decision's writes ({@link DependentWrites}) at the version it was decided on, each
 *       within the step's {@link StepBudget}; a conflict decides again on a read, up to
 *       {@link #DECISIONS_PER_ATTEMPT} times in a pass;</li>
 *   <li>after a scale, waits for the dependent's minimum target of ready replicas (up: 1, down: 0) for at
 *       most the original's 5 s in all ({@link ProberTuning#readinessBound()}: its
 *       {@code waitTillMinTargetReplicasReached}), checked now and every {@link ProberTuning#readinessPoll()},
 *       and moves on either way.</li>
 * </ol>
 * A failure fails the attempt; every failure is worth another attempt except an unknown kind or an
 * unusable record, which retrying cannot mend.
 */
final class DependentStep implements StepRunner.Step {

    private static final System.Logger LOG = System.getLogger(DependentStep.class.getName());

    /** Decisions per pass: a write that finds the dependent changed since it was seen is decided again on a read. */
    static final int DECISIONS_PER_ATTEMPT = 5;

    private final String namespace;
    private final ScaleStep step;
    private final ResourceRef ref;
    private final ScaleDirection direction;
    private final LeaseVerdict cause;
    private final StepBudget budget;
    private final ScalableResources resources;
    private final StepLooks looks;
    private final WritesInDoubt doubts;
    private final DependentWrites writes;
    private final ProberTuning tuning;
    private final ProberObserver observer;

    /** Whether the step has waited its initial delay. */
    private boolean delayed;
    /** The scale written, once it is: the passes from then on check readiness. */
    private Scale scaled;
    /** When the readiness wait ends, on the monotonic clock. */
    private Deadline readinessEnd;

    DependentStep(String namespace, ScaleStep step, ScaleDirection direction, LeaseVerdict cause, StepBudget budget,
            ScaleParts parts) {
        this.namespace = namespace;
        this.step = step;
        this.ref = step.ref();
        this.direction = direction;
        this.cause = cause;
        this.budget = budget;
        this.resources = parts.resources();
        this.looks = parts.looks();
        this.doubts = parts.doubts();
        this.writes = parts.writes();
        this.tuning = parts.tuning();
        this.observer = parts.observer();
    }

    /** What every step of a shoot shares: its ports, its writes in doubt, its constants. */
    record ScaleParts(ScalableResources resources, StepLooks looks, WritesInDoubt doubts, DependentWrites writes,
            ProberTuning tuning, ProberObserver observer) { }

    @Override
    public Outcome pass(int attempt) {
        return scaled == null ? decideAndWrite(attempt) : awaitMinTargetReplicas();
    }

    @Override
    public void failed(String reason) {
        observer.resourceFailed(namespace, direction, ref, reason);
    }

    @Override
    public String describe() {
        return namespace + ": " + direction + " of " + ref;
    }

    /** Looks, decides and writes, deciding again on a read after a conflict. */
    private Outcome decideAndWrite(int attempt) {
        if (budget.isCancelled()) {
            return new Outcome.Done(StepResult.CANCELLED);
        }
        ApiFailure lastConflict = null;
        try {
            for (int decision = 1; decision <= DECISIONS_PER_ATTEMPT; decision++) {
                Look look = looks.look(step, direction, attempt == 1 && decision == 1, delayed, budget);
                Optional<Outcome> untilDoubtEnds = awaitDoubt(look.decision());
                if (untilDoubtEnds.isPresent()) {
                    return untilDoubtEnds.get();
                }
                try {
                    return act(look);
                } catch (ApiFailure failure) {
                    if (!failure.is(ApiFailure.Kind.CONFLICT)) {
                        throw failure;
                    }
                    lastConflict = failure;
                    LOG.log(System.Logger.Level.DEBUG, () -> namespace + ": " + ref + " changed before " + direction
                            + " wrote it (decided on " + look.source() + "); deciding again on a read: "
                            + failure.getMessage());
                }
            }
            throw new ApiFailure(ApiFailure.Kind.CONFLICT, direction + " of " + ref + " in namespace " + namespace
                    + ": the resource changed before each of " + DECISIONS_PER_ATTEMPT + " writes", lastConflict);
        } catch (ApiFailure failure) {
            boolean cannotMend = failure.is(ApiFailure.Kind.INVALID) || failure.is(ApiFailure.Kind.BAD_INPUT);
            return new Outcome.Failed(failure, !cannotMend);
        }
    }

    /**
     * A decision that scales nothing, taken on the version a write of ours is in doubt at, waits: that
     * write may still land and undo it. The step looks again on a read every poll, until the dependent
     * moves past that version or the doubt's time is over.
     */
    private Optional<Outcome> awaitDoubt(StepDecision decided) {
        Optional<WritesInDoubt.Doubt> doubt = doubts.of(ref);
        if (doubt.isEmpty() || decided.needsScaling()) {
            return Optional.empty();
        }
        Duration left = doubt.get().until().remaining(budget.clock());
        if (!left.isPositive()) {
            doubts.expired(ref, doubt.get());
            LOG.log(System.Logger.Level.INFO, () -> namespace + ": the write of " + ref + " at version "
                    + doubt.get().version() + " did not land within " + GoDuration.format(doubt.get().deadline())
                    + " after its deadline; taken as lost");
            return Optional.empty();
        }
        LOG.log(doubt.get().noticeOnce() ? System.Logger.Level.INFO : System.Logger.Level.DEBUG, () -> namespace
                + ": a write of " + ref + " at version "
                + doubt.get().version() + " got no answer within its deadline and may still land; " + direction
                + " waits up to " + GoDuration.format(left) + " for " + ref.name() + " to move past that version"
                + " before deciding it needs no scale");
        return Optional.of(new Outcome.Wait(StepBudget.shorter(left, tuning.readinessPoll()),
                "a write at version " + doubt.get().version() + " may still land", StepResult.CANCELLED));
    }

    /** Does what the look decided; a scale first waits the step's initial delay, once. */
    private Outcome act(Look look) {
        StepDecision decided = look.decision();
        if (decided.needsScaling()) {
            if (!delayed && step.initialDelay().isPositive()) {
                delayed = true;
                LOG.log(System.Logger.Level.INFO, () -> namespace + ": waiting " + GoDuration.format(step.initialDelay())
                        + " before " + (direction == ScaleDirection.UP ? "scaling up " : "scaling down ") + ref);
                return new Outcome.Wait(step.initialDelay(), "the initial delay", StepResult.CANCELLED);
            }
            if (budget.isCancelled()) {
                return new Outcome.Done(StepResult.CANCELLED);
            }
        }
        return switch (decided) {
            case Missing missing -> throw new ApiFailure(ApiFailure.Kind.NOT_FOUND,
                    ref + " not found in namespace " + namespace);
            case UnusableRecord unusable -> throw new ApiFailure(ApiFailure.Kind.BAD_INPUT, unusable.message());
            case Skip skip -> {
                writes.cleanUp(ref, look.seen(), skip.cleanUp(), budget);
                observer.resourceSkipped(namespace, direction, ref, skip.reason());
                yield new Outcome.Done(StepResult.SKIPPED);
            }
            case NothingToDo nothing -> {
                writes.cleanUp(ref, look.seen(), nothing.cleanUp(), budget);
                yield new Outcome.Done(StepResult.NOTHING_TO_DO);
            }
            case Scale scale -> {
                writes.scale(ref, look.seen().orElseThrow(), scale, budget,
                        () -> observer.resourceScaled(namespace, direction, ref, scale.from(), scale.to(), cause));
                scaled = scale;
                readinessEnd = Deadline.in(budget.clock(), tuning.readinessBound());
                yield awaitMinTargetReplicas();
            }
        };
    }

    /**
     * Watches the ready replicas until the scale shows done, polling every {@link ProberTuning#readinessPoll()}
     * after each check, until the wait's end (on the monotonic clock: a wall-clock step moves it neither
     * way; each read is given the time left), so that the next level starts only once this one is up (or
     * down); then moves on either way, as the original does: a rollout that never completes must not
     * hold the next level. A cancelled flow leaves the wait at once, its scale written.
     */
    private Outcome awaitMinTargetReplicas() {
        if (budget.isCancelled()) {
            return new Outcome.Done(StepResult.SCALED);
        }
        Duration left = readinessEnd.remaining(budget.clock());
        if (left.isPositive() && isReached()) {
            return new Outcome.Done(StepResult.SCALED);
        }
        left = readinessEnd.remaining(budget.clock());
        if (!left.isPositive()) {
            LOG.log(System.Logger.Level.INFO, () -> namespace + ": " + ref + " did not reach "
                    + (direction == ScaleDirection.UP ? "1 ready replica" : "0 ready replicas")
                    + " within " + GoDuration.format(tuning.readinessBound()) + "; moving on");
            return new Outcome.Done(StepResult.SCALED);
        }
        return new Outcome.Wait(StepBudget.shorter(left, tuning.readinessPoll()), "its ready replicas",
                StepResult.SCALED);
    }

    /** Whether the dependent shows the scale done: its cached copy when that is at or past the write, else a read. */
    private boolean isReached() {
        try {
            Duration readTimeout = budget.forReadinessRead(readinessEnd);
            return resources.cached(namespace, ref).or(() -> resources.read(namespace, ref, readTimeout))
                    .map(seen -> scaled.reachedBy(seen.readyReplicas()))
                    .orElse(false);
        } catch (ApiFailure failure) {
            return false;
        }
    }
}
