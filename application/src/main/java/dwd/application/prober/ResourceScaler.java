package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.application.port.out.Scheduler;
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
 *   <li>sends the decision's writes ({@link StepRun#write}), at the version it was decided on; a
 *       conflict decides again on a read, up to {@link #DECISIONS_PER_ATTEMPT} times;</li>
 *   <li>after a scale, waits for the dependent's ready replicas, for at most its readiness bound,
 *       and moves on either way.</li>
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

    ResourceScaler(String namespace, ScalableResources resources, Scheduler scheduler, ProberTuning tuning,
            ProberObserver observer) {
        this.namespace = namespace;
        this.resources = resources;
        this.scheduler = scheduler;
        this.tuning = tuning;
        this.observer = observer;
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
            } catch (RuntimeException unexpected) {
                LOG.log(System.Logger.Level.ERROR, namespace + ": " + direction + " of " + ref + " failed unexpectedly",
                        unexpected);
                next = failed("unexpected error: " + unexpected);
            }
            switch (next) {
                case Next.Done done -> result.complete(done.outcome());
                case Next.WaitThen wait -> park(wait);
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
                Optional<ScalableResource> cached = number == 1 && decision == 1
                        ? resources.cached(namespace, ref) : Optional.empty();
                Optional<StepDecision> onCache = cached.map(copy -> decide(Optional.of(copy)));
                if (!delayed && onCache.filter(d -> d instanceof NothingToDo nothing && nothing.sendsNothing()).isPresent()) {
                    return new Next.Done(StepOutcome.NOTHING_TO_DO);
                }
                boolean cacheDecides = onCache.filter(Scale.class::isInstance).isPresent();
                Optional<ScalableResource> seen = cacheDecides ? cached : resources.read(namespace, ref, step.timeout());
                StepDecision decided = cacheDecides ? onCache.get() : decide(seen);
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
                    Duration bound = tuning.readinessBound(step.timeout());
                    yield awaitReadiness(scale, scheduler.now().plus(bound), bound);
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
            Duration timeout = step.timeout();
            if (resources.scalesInOneWrite(ref)) {
                resources.scaleAndAnnotateAt(namespace, ref, seen.version(), scale.to(), scale.annotations(), timeout);
            } else if (scale.annotationsFirst()) {
                String recorded = resources.patchAnnotationsAt(namespace, ref, seen.version(), scale.annotations(), timeout);
                resources.scaleAt(namespace, ref, recorded, scale.to(), timeout);
            } else {
                resources.scaleAt(namespace, ref, seen.version(), scale.to(), timeout);
                resources.patchAnnotations(namespace, ref, scale.annotations(), timeout);
            }
        }

        /** Annotation changes made whatever the version: clean-ups that decide no count. */
        private void patch(Map<String, Optional<String>> changes) {
            if (!changes.isEmpty()) {
                resources.patchAnnotations(namespace, ref, changes, step.timeout());
            }
        }

        /**
         * Watches the ready replicas until the scale shows done, for at most {@code bound}, so that the
         * next level starts only once this one is up (or down); then moves on either way, as the original
         * effectively does: a rollout that never completes must not hold the next level for ever.
         */
        private Next awaitReadiness(Scale scale, Instant deadline, Duration bound) {
            if (cancellation.isCancelled() || isReached(scale)) {
                return new Next.Done(StepOutcome.SCALED);
            }
            if (!scheduler.now().isBefore(deadline)) {
                LOG.log(System.Logger.Level.INFO, () -> namespace + ": " + ref + " did not reach "
                        + (direction == ScaleDirection.UP ? "1 ready replica" : "0 ready replicas")
                        + " within " + GoDuration.format(bound) + "; moving on");
                return new Next.Done(StepOutcome.SCALED);
            }
            Duration untilDeadline = Duration.between(scheduler.now(), deadline);
            Duration poll = untilDeadline.compareTo(tuning.readinessPoll()) < 0 ? untilDeadline : tuning.readinessPoll();
            return new Next.WaitThen(poll, () -> awaitReadiness(scale, deadline, bound), StepOutcome.SCALED);
        }

        private boolean isReached(Scale scale) {
            try {
                // Readiness only paces the levels: the cache's copy will do when it holds the resource.
                return resources.cached(namespace, ref).or(() -> resources.read(namespace, ref, step.timeout()))
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
