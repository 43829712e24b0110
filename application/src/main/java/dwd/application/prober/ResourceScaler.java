package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Deadline;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ScalableResources;
import dwd.application.port.out.Scheduler;
import dwd.application.prober.StepLooks.Look;
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
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Runs the steps of scale flows: one step scales one dependent of one shoot, as {@link StepDecision}
 * decides. A step, top to bottom ({@link StepRun#decideAndWrite}):
 * <ol>
 *   <li>looks at the dependent ({@link StepLooks}): on its first look the seed's cache may decide,
 *       when its copy shows nothing to send or a scale (written at the copy's version, so a copy behind
 *       ends in a conflict, never in a wrong write); anything else is decided on a read;</li>
 *   <li>decides ({@link StepDecision#decide});</li>
 *   <li>before a scale, waits the step's initial delay once, then looks and decides again (the
 *       dependent may no longer need it);</li>
 *   <li>sends the decision's writes ({@link DependentWrites}), at the version it was decided on, each
 *       within a deadline that ends before the shoot's next probe run; a conflict decides again on a
 *       read, up to {@link #DECISIONS_PER_ATTEMPT} times; a write that got no answer is in doubt
 *       ({@link WritesInDoubt}) until the dependent is seen past its version, and meanwhile no decision
 *       that scales nothing is taken on that version;</li>
 *   <li>after a scale, waits for the dependent's ready replicas, for at most the original's 5 s in all
 *       ({@link ProberTuning#readinessBound()}), and moves on either way.</li>
 * </ol>
 * A failure is retried ({@link ProberTuning#attempts()}, {@link ProberTuning#retryBackoff()}), except
 * an unknown kind or an unusable record, which retrying cannot mend. Waits go through the scheduler
 * (virtual time in tests), in one place ({@link StepRun#proceed}); a cancelled flow leaves a wait
 * at once, and a step checks for it before it writes.
 */
final class ResourceScaler {

    private static final System.Logger LOG = System.getLogger(ResourceScaler.class.getName());

    /** Decisions per attempt: a write that finds the resource changed since it was seen is decided again on a read. */
    static final int DECISIONS_PER_ATTEMPT = 5;

    /** The least a readiness read is given, even at the end of the wait: no read is sent to fail at once. */
    static final Duration MIN_READINESS_READ = Duration.ofMillis(100);

    /** How a step ended. */
    enum StepOutcome { SCALED, NOTHING_TO_DO, SKIPPED, FAILED, CANCELLED }

    /** What a step does next: end, or wait and then go on. */
    private sealed interface Next {
        record Done(StepOutcome outcome) implements Next { }

        /** Waits {@code delay}, then runs {@code then}; a cancelled flow ends the step at once with {@code ifCancelled}. */
        record WaitThen(Duration delay, Supplier<Next> then, StepOutcome ifCancelled) implements Next { }
    }

    private final String namespace;
    private final ScalableResources resources;
    private final Scheduler scheduler;
    private final ProberTuning tuning;
    private final ProberObserver observer;
    private final DependentWrites writes;
    private final WritesInDoubt doubts;
    private final StepLooks looks;

    ResourceScaler(String namespace, ScalableResources resources, Scheduler scheduler, ProberTuning tuning,
            ProberObserver observer) {
        this.namespace = namespace;
        this.resources = resources;
        this.scheduler = scheduler;
        this.tuning = tuning;
        this.observer = observer;
        this.writes = new DependentWrites(namespace, resources, scheduler);
        this.doubts = writes.doubts();
        this.looks = new StepLooks(namespace, resources, doubts);
    }

    /**
     * The shoot's next probe run is due at {@code next} (told by each run, before a flow starts on it):
     * the deadline of every write ends by then.
     */
    void nextProbeDue(Deadline next) {
        writes.nextProbeDue(next);
    }

    /** Starts the step; the future completes when it has ended (it never completes exceptionally). */
    CompletableFuture<StepOutcome> scale(ScaleStep step, ScaleDirection direction, FlowCancellation cancellation,
            LeaseVerdict cause) {
        var run = new StepRun(step, direction, cancellation, cause);
        scheduler.execute(() -> run.proceed(() -> run.attempt(1)));
        return run.result;
    }

    private final class StepRun {
        private final ScaleStep step;
        private final ResourceRef ref;
        private final ScaleDirection direction;
        private final FlowCancellation cancellation;
        private final LeaseVerdict cause;
        private final CompletableFuture<StepOutcome> result = new CompletableFuture<>();
        private boolean delayed;
        /** The wait the step is parked in, if any; guarded by this. */
        private Object waiting;

        StepRun(ScaleStep step, ScaleDirection direction, FlowCancellation cancellation, LeaseVerdict cause) {
            this.step = step;
            this.ref = step.ref();
            this.direction = direction;
            this.cancellation = cancellation;
            this.cause = cause;
        }

        /** Runs the step up to its next wait or its end, and parks it there: the one place where a step waits. */
        void proceed(Supplier<Next> part) {
            Next next;
            try {
                next = part.get();
            } catch (Throwable unexpected) {
                endUnexpectedly(unexpected);
                return;
            }
            switch (next) {
                case Next.Done done -> result.complete(done.outcome());
                case Next.WaitThen wait -> park(wait);
            }
        }

        /**
         * Ends the step as failed, whatever was thrown: the shoot's later flows wait for this one. An
         * {@link Error} then goes on to the scheduler, which is no place to swallow it.
         */
        private void endUnexpectedly(Throwable unexpected) {
            try {
                LOG.log(System.Logger.Level.ERROR, namespace + ": " + direction + " of " + ref + " failed unexpectedly",
                        unexpected);
                failed("unexpected error: " + unexpected);
            } finally {
                result.complete(StepOutcome.FAILED);
            }
            if (unexpected instanceof Error error) {
                throw error;
            }
        }

        /** A step that is not parked (it is reading or writing) is never cut short: it stops at its next check. */
        private void park(Next.WaitThen wait) {
            Object token = new Object();
            synchronized (this) {
                waiting = token;
            }
            Cancellable timer = scheduler.schedule(wait.delay(), () -> {
                if (leaveWait(token)) {
                    proceed(wait.then());
                }
            });
            cancellation.onCancel(() -> {
                if (leaveWait(token)) {
                    timer.cancel();
                    result.complete(wait.ifCancelled());
                }
            });
        }

        private synchronized boolean leaveWait(Object token) {
            if (waiting != token) {
                return false;
            }
            waiting = null;
            return true;
        }

        /** Attempt {@code number}; a failure worth retrying is tried again after the back-off. */
        Next attempt(int number) {
            try {
                return decideAndWrite(number);
            } catch (ApiFailure failure) {
                boolean worthRetrying = !failure.is(ApiFailure.Kind.INVALID) && !failure.is(ApiFailure.Kind.BAD_INPUT);
                if (worthRetrying && number < tuning.attempts() && !cancellation.isCancelled()) {
                    LOG.log(System.Logger.Level.DEBUG, () -> namespace + ": " + direction + " of " + ref
                            + " failed (attempt " + number + "), retrying: " + failure.getMessage());
                    return new Next.WaitThen(tuning.retryBackoff(), () -> attempt(number + 1), StepOutcome.CANCELLED);
                }
                return failed(failure.getMessage());
            }
        }

        /**
         * One attempt: looks, decides and sends, deciding again on a read after a conflict.
         *
         * @throws ApiFailure when a read or write fails, or the dependent changed before each write
         */
        private Next decideAndWrite(int number) {
            if (cancellation.isCancelled()) {
                return new Next.Done(StepOutcome.CANCELLED);
            }
            ApiFailure lastConflict = null;
            for (int decision = 1; decision <= DECISIONS_PER_ATTEMPT; decision++) {
                Look look = looks.look(step, direction, number == 1 && decision == 1, delayed);
                Optional<Next> untilDoubtEnds = awaitDoubt(number, look.decision());
                if (untilDoubtEnds.isPresent()) {
                    return untilDoubtEnds.get();
                }
                try {
                    return act(number, look);
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
        }

        /**
         * A decision that scales nothing, taken on the version a write of ours is in doubt at, waits: that
         * write may still land and undo it. The step decides again on a read every poll, until the
         * dependent moves past that version or the doubt's time is over.
         */
        private Optional<Next> awaitDoubt(int number, StepDecision decided) {
            Optional<WritesInDoubt.Doubt> doubt = doubts.of(ref);
            if (doubt.isEmpty() || decided.needsScaling()) {
                return Optional.empty();
            }
            Duration left = doubt.get().until().remaining(scheduler);
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
            return Optional.of(new Next.WaitThen(shorter(left, tuning.readinessPoll()), () -> attempt(number),
                    StepOutcome.CANCELLED));
        }

        /** Does what the look decided; a scale first waits the step's initial delay, once. */
        private Next act(int number, Look look) {
            StepDecision decided = look.decision();
            if (decided.needsScaling()) {
                if (!delayed && step.initialDelay().isPositive()) {
                    delayed = true;
                    LOG.log(System.Logger.Level.INFO, () -> namespace + ": waiting " + GoDuration.format(step.initialDelay())
                            + " before " + (direction == ScaleDirection.UP ? "scaling up " : "scaling down ") + ref);
                    return new Next.WaitThen(step.initialDelay(), () -> attempt(number), StepOutcome.CANCELLED);
                }
                if (cancellation.isCancelled()) {
                    return new Next.Done(StepOutcome.CANCELLED);
                }
            }
            return switch (decided) {
                case Missing missing -> throw new ApiFailure(ApiFailure.Kind.NOT_FOUND,
                        ref + " not found in namespace " + namespace);
                case UnusableRecord unusable -> throw new ApiFailure(ApiFailure.Kind.BAD_INPUT, unusable.message());
                case Skip skip -> {
                    writes.cleanUp(ref, look.seen(), skip.cleanUp(), step.timeout());
                    observer.resourceSkipped(namespace, direction, ref, skip.reason());
                    yield new Next.Done(StepOutcome.SKIPPED);
                }
                case NothingToDo nothing -> {
                    writes.cleanUp(ref, look.seen(), nothing.cleanUp(), step.timeout());
                    yield new Next.Done(StepOutcome.NOTHING_TO_DO);
                }
                case Scale scale -> {
                    writes.scale(ref, look.seen().orElseThrow(), scale, step.timeout(),
                            () -> observer.resourceScaled(namespace, direction, ref, scale.from(), scale.to(), cause));
                    yield awaitReadiness(scale, Deadline.in(scheduler, tuning.readinessBound()));
                }
            };
        }

        /**
         * Watches the ready replicas until the scale shows done, polling every {@link ProberTuning#readinessPoll()}
         * after each check, until {@code end} (on the monotonic clock: a wall-clock step moves it neither way;
         * each read is given the time left), so that the next level starts only once this one is up (or
         * down); then moves on either way, as the original does: a rollout that never completes must not
         * hold the next level.
         */
        private Next awaitReadiness(Scale scale, Deadline end) {
            if (cancellation.isCancelled()) {
                return new Next.Done(StepOutcome.SCALED);
            }
            Duration left = end.remaining(scheduler);
            if (left.isPositive() && isReached(scale, left)) {
                return new Next.Done(StepOutcome.SCALED);
            }
            left = end.remaining(scheduler);
            if (!left.isPositive()) {
                LOG.log(System.Logger.Level.INFO, () -> namespace + ": " + ref + " did not reach "
                        + (direction == ScaleDirection.UP ? "1 ready replica" : "0 ready replicas")
                        + " within " + GoDuration.format(tuning.readinessBound()) + "; moving on");
                return new Next.Done(StepOutcome.SCALED);
            }
            Duration poll = shorter(left, tuning.readinessPoll());
            return new Next.WaitThen(poll, () -> awaitReadiness(scale, end), StepOutcome.SCALED);
        }

        /** Whether the dependent shows the scale done: its cached copy when that is at or past the write, else a read. */
        private boolean isReached(Scale scale, Duration left) {
            try {
                Duration readTimeout = shorter(longer(left, MIN_READINESS_READ), step.timeout());
                return resources.cached(namespace, ref).or(() -> resources.read(namespace, ref, readTimeout))
                        .map(seen -> scale.reachedBy(seen.readyReplicas()))
                        .orElse(false);
            } catch (ApiFailure failure) {
                return false;
            }
        }

        private Next failed(String reason) {
            observer.resourceFailed(namespace, direction, ref, reason);
            return new Next.Done(StepOutcome.FAILED);
        }
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
