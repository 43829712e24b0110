package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ProberObserver.ProbeStage;
import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.application.port.out.Scheduler;
import dwd.domain.config.GoDuration;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
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
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Runs the steps of scale flows: one step scales one dependent of one shoot, as {@link StepDecision}
 * decides. A step, top to bottom ({@link StepRun#decideAndWrite}):
 * <ol>
 *   <li>looks at the dependent: on its first look the seed's cache may decide, when its copy shows
 *       nothing to do and nothing to send (no request at all) or a scale (written at the copy's
 *       version, so a copy behind ends in a conflict, never in a wrong write); anything else is
 *       decided on a read;</li>
 *   <li>decides ({@link StepDecision#decide});</li>
 *   <li>before a scale, waits the step's initial delay once, then looks and decides again (the
 *       dependent may no longer need it);</li>
 *   <li>sends the decision's writes ({@link StepRun#write}), at the version it was decided on, each
 *       within a deadline that ends before the shoot's next probe run (a newer verdict never finds a
 *       write of an older one still on its way); a conflict decides again on a read, up to
 *       {@link #DECISIONS_PER_ATTEMPT} times; a write that got no answer is in doubt
 *       ({@link WritesInDoubt}) until the dependent is seen past its version, and meanwhile no decision
 *       to send nothing is taken on that version;</li>
 *   <li>after a scale, waits for the dependent's ready replicas, for at most the original's 5 s
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

    /** The shortest deadline a write gets, even when the shoot's next probe run is due or overdue. */
    static final Duration MIN_WRITE_DEADLINE = Duration.ofSeconds(1);

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
    private final WritesInDoubt doubts = new WritesInDoubt();
    /** When the shoot's next probe run is due, as its probe last announced: a newer verdict comes no sooner. */
    private volatile Instant nextProbe = Instant.MAX;

    ResourceScaler(String namespace, ScalableResources resources, Scheduler scheduler, ProberTuning tuning,
            ProberObserver observer) {
        this.namespace = namespace;
        this.resources = resources;
        this.scheduler = scheduler;
        this.tuning = tuning;
        this.observer = observer;
    }

    /**
     * Told the shoot's next probe run with each run's outcome (before a flow starts on it): the
     * deadline of every write ends by then.
     */
    ProberObserver nextProbeRuns() {
        return new ProberObserver() {
            @Override
            public void probeSucceeded(String shootNamespace, LeaseVerdict verdict, Optional<Decision> action,
                    Instant next) {
                nextProbe = next;
            }

            @Override
            public void probeFailed(String shootNamespace, ProbeStage stage, ApiFailure failure, Instant next) {
                nextProbe = next;
            }
        };
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
                Optional<ScalableResource> cached = number == 1 && decision == 1 && doubts.of(ref).isEmpty()
                        ? resources.cached(namespace, ref) : Optional.empty();
                Optional<StepDecision> onCache = cached.map(copy -> decide(Optional.of(copy)));
                if (!delayed && onCache.filter(d -> d instanceof NothingToDo nothing && nothing.sendsNothing()).isPresent()) {
                    return new Next.Done(StepOutcome.NOTHING_TO_DO);
                }
                boolean cacheDecides = onCache.filter(Scale.class::isInstance).isPresent();
                Optional<ScalableResource> seen = cacheDecides ? cached : resources.read(namespace, ref, step.timeout());
                if (!cacheDecides) {
                    doubts.seen(ref, seen);
                }
                StepDecision decided = cacheDecides ? onCache.get() : decide(seen);
                Optional<Next> untilDoubtEnds = awaitDoubt(number, decided);
                if (untilDoubtEnds.isPresent()) {
                    return untilDoubtEnds.get();
                }
                try {
                    return act(number, decided, seen);
                } catch (ApiFailure failure) {
                    if (!failure.is(ApiFailure.Kind.CONFLICT)) {
                        throw failure;
                    }
                    lastConflict = failure;
                    LOG.log(System.Logger.Level.DEBUG, () -> namespace + ": " + ref + " changed before "
                            + direction + " wrote it; deciding again on a read: " + failure.getMessage());
                }
            }
            throw new ApiFailure(ApiFailure.Kind.CONFLICT, direction + " of " + ref + " in namespace " + namespace
                    + ": the resource changed before each of " + DECISIONS_PER_ATTEMPT + " writes", lastConflict);
        }

        private StepDecision decide(Optional<ScalableResource> seen) {
            return StepDecision.decide(direction, step, seen);
        }

        /**
         * A decision to send nothing, taken on the version a write of ours is in doubt at, waits: that
         * write may still land and undo it. The step decides again on a read every poll, until the
         * dependent moves past that version or the doubt's time is over.
         */
        private Optional<Next> awaitDoubt(int number, StepDecision decided) {
            Optional<WritesInDoubt.Doubt> doubt = doubts.of(ref);
            if (doubt.isEmpty() || decided.needsScaling()) {
                return Optional.empty();
            }
            Duration left = Duration.between(scheduler.now(), doubt.get().until());
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
                    + " before deciding it needs nothing");
            Duration poll = left.compareTo(tuning.readinessPoll()) < 0 ? left : tuning.readinessPoll();
            return Optional.of(new Next.WaitThen(poll, () -> attempt(number), StepOutcome.CANCELLED));
        }

        /** Does what {@code decided} says, on {@code seen}; a scale first waits the step's initial delay, once. */
        private Next act(int number, StepDecision decided, Optional<ScalableResource> seen) {
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
                    patch(skip.cleanUp());
                    observer.resourceSkipped(namespace, direction, ref, skip.reason());
                    yield new Next.Done(StepOutcome.SKIPPED);
                }
                case NothingToDo nothing -> {
                    patch(nothing.cleanUp());
                    yield new Next.Done(StepOutcome.NOTHING_TO_DO);
                }
                case Scale scale -> {
                    write(seen.orElseThrow(), scale);
                    observer.resourceScaled(namespace, direction, ref, scale.from(), scale.to(), cause);
                    Duration bound = tuning.readinessBound();
                    yield awaitReadiness(scale, bound, bound);
                }
            };
        }

        /**
         * Sends a scale at the version it was decided on, so that the recorded count is always the one
         * the scale to 0 replaced, and a scale-up restores the count recorded on what it scales: one
         * write where the kind allows; otherwise a scale-down's record, then its scale at the version the
         * record answered, or a scale-up's scale, then the record's removal.
         *
         * @throws ApiFailure CONFLICT when the dependent changed since {@code seen}: nothing was changed
         */
        private void write(ScalableResource seen, Scale scale) {
            Duration deadline = writeDeadline();
            String at = seen.version();
            try {
                if (resources.scalesInOneWrite(ref)) {
                    resources.scaleAndAnnotateAt(namespace, ref, at, scale.to(), scale.annotations(), deadline);
                } else if (scale.annotationsFirst()) {
                    at = resources.patchAnnotationsAt(namespace, ref, at, scale.annotations(), deadline);
                    resources.scaleAt(namespace, ref, at, scale.to(), deadline);
                } else {
                    resources.scaleAt(namespace, ref, at, scale.to(), deadline);
                    at = null; // the count is written; the record's removal decides none
                    resources.patchAnnotations(namespace, ref, scale.annotations(), deadline);
                }
            } catch (ApiFailure failure) {
                doubts.failed(ref, at, failure, scheduler.now(), deadline);
                throw failure;
            }
            doubts.landed(ref);
        }

        /**
         * The step's timeout, cut to end when the shoot's next probe run is due (at least
         * {@link #MIN_WRITE_DEADLINE}): an answer later than that would be taken for the state a newer
         * verdict decides on, and the write is given up instead (and is in doubt).
         */
        private Duration writeDeadline() {
            Duration untilNextProbe = Duration.between(scheduler.now(), nextProbe);
            if (untilNextProbe.compareTo(step.timeout()) >= 0) {
                return step.timeout();
            }
            return untilNextProbe.compareTo(MIN_WRITE_DEADLINE) > 0 ? untilNextProbe : MIN_WRITE_DEADLINE;
        }

        /** Annotation changes made whatever the version: clean-ups that decide no count. */
        private void patch(Map<String, Optional<String>> changes) {
            if (!changes.isEmpty()) {
                resources.patchAnnotations(namespace, ref, changes, writeDeadline());
            }
        }

        /**
         * Watches the ready replicas until the scale shows done, polling every {@link ProberTuning#readinessPoll()}
         * for at most {@code bound} (counted in the scheduler's waits, so a wall-clock step does not
         * move it), so that the next level starts only once this one is up (or down); then moves on
         * either way, as the original does: a rollout that never completes must not hold the next level.
         */
        private Next awaitReadiness(Scale scale, Duration left, Duration bound) {
            if (cancellation.isCancelled() || isReached(scale, bound)) {
                return new Next.Done(StepOutcome.SCALED);
            }
            if (!left.isPositive()) {
                LOG.log(System.Logger.Level.INFO, () -> namespace + ": " + ref + " did not reach "
                        + (direction == ScaleDirection.UP ? "1 ready replica" : "0 ready replicas")
                        + " within " + GoDuration.format(bound) + "; moving on");
                return new Next.Done(StepOutcome.SCALED);
            }
            Duration poll = left.compareTo(tuning.readinessPoll()) < 0 ? left : tuning.readinessPoll();
            return new Next.WaitThen(poll, () -> awaitReadiness(scale, left.minus(poll), bound), StepOutcome.SCALED);
        }

        private boolean isReached(Scale scale, Duration bound) {
            try {
                // Readiness only paces the levels: the cache's copy will do when it holds the resource.
                Duration readTimeout = bound.compareTo(step.timeout()) < 0 ? bound : step.timeout();
                return resources.cachedForPacing(namespace, ref).or(() -> resources.read(namespace, ref, readTimeout))
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
}
