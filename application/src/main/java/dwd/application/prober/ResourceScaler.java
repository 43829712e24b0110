package dwd.application.prober;

import dwd.domain.config.GoDuration;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.application.port.out.Scheduler;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.Annotations;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.scaling.ScaleStep;
import dwd.domain.scaling.ScaleUpTarget;
import dwd.domain.scaling.ScalingRules;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Scales one dependent resource of one shoot, as one step of a scale flow.
 *
 * <p>Differences from the original, each deliberate: the initial delay is slept only when the
 * resource really needs scaling, and the need is checked again after it (design §3.1); a
 * scale-up removes both the {@code replicas} and the {@code meltdown-protection-active}
 * annotations (design §3.5); an unparsable replicas annotation or an unknown kind fails at once
 * instead of being retried.
 *
 * <p>Writes, so that a replica count is never lost whatever fails when: where the kind allows,
 * the count and the scale are one write; otherwise a scale-down records the count in the
 * annotations before it scales to 0, and a scale-up removes the annotations only after the scale
 * write succeeded. The record and the scales are made at the version the
 * decision was taken on, so the recorded count is the one the scale to 0 replaced.
 *
 * <p>Requests: a step may decide on the seed's watch cache when it holds the resource, and waits
 * for readiness on it; it reads the API server when the cache does not hold it and after any
 * conflict.
 */
final class ResourceScaler {

    private static final System.Logger LOG = System.getLogger(ResourceScaler.class.getName());

    /** Decisions per attempt: a write that finds the resource changed since it was seen is decided again on a read. */
    static final int DECISIONS_PER_ATTEMPT = 5;

    /** How a step ended. */
    enum StepOutcome { SCALED, NOTHING_TO_DO, SKIPPED, FAILED, CANCELLED }

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
    CompletableFuture<StepOutcome> scale(ScaleStep step, ScaleDirection direction, FlowCancellation control,
            LeaseVerdict cause) {
        var run = new StepRun(step, direction, control, cause);
        scheduler.execute(() -> run.attempt(1));
        return run.result;
    }

    private final class StepRun {
        private final ScaleStep step;
        private final ResourceRef ref;
        private final ScaleDirection direction;
        private final FlowCancellation control;
        private final LeaseVerdict cause;
        private final CompletableFuture<StepOutcome> result = new CompletableFuture<>();
        private boolean delayed;
        /** The wait the step is parked in, if any; guarded by this. */
        private Object waiting;

        StepRun(ScaleStep step, ScaleDirection direction, FlowCancellation control, LeaseVerdict cause) {
            this.step = step;
            this.ref = step.ref();
            this.direction = direction;
            this.control = control;
            this.cause = cause;
        }

        /**
         * Parks the step for {@code delay}, then runs {@code next}; if the flow is cancelled
         * meanwhile, the step ends at once with {@code outcomeIfCancelled}. A step that is not
         * parked (it is reading or writing) is never cut short: it stops at its next check.
         */
        private void waitThen(Duration delay, Runnable next, StepOutcome outcomeIfCancelled) {
            Object token = new Object();
            synchronized (this) {
                waiting = token;
            }
            Cancellable timer = scheduler.schedule(delay, () -> {
                if (leaveWait(token)) {
                    next.run();
                }
            });
            control.onCancel(() -> {
                if (leaveWait(token)) {
                    timer.cancel();
                    finish(outcomeIfCancelled);
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

        void attempt(int number) {
            try {
                attemptOnce(number);
            } catch (ApiFailure failure) {
                boolean worthRetrying = !failure.is(ApiFailure.Kind.INVALID) && !failure.is(ApiFailure.Kind.BAD_INPUT);
                if (worthRetrying && number < tuning.attempts() && !control.isCancelled()) {
                    LOG.log(System.Logger.Level.DEBUG, () -> namespace + ": " + direction + " of " + ref
                            + " failed (attempt " + number + "), retrying: " + failure.getMessage());
                    waitThen(tuning.retryBackoff(), () -> attempt(number + 1), StepOutcome.CANCELLED);
                } else {
                    fail(failure.getMessage());
                }
            } catch (RuntimeException unexpected) {
                LOG.log(System.Logger.Level.ERROR, namespace + ": " + direction + " of " + ref + " failed unexpectedly",
                        unexpected);
                fail("unexpected error: " + unexpected);
            }
        }

        private void attemptOnce(int number) {
            if (control.isCancelled()) {
                finish(StepOutcome.CANCELLED);
                return;
            }
            if (number == 1 && !delayed && cacheShowsNothingToDo()) {
                finish(StepOutcome.NOTHING_TO_DO);
                return;
            }
            ApiFailure lastConflict = null;
            for (int decision = 1; decision <= DECISIONS_PER_ATTEMPT; decision++) {
                // The first decision may rest on the cache; after a failure or a conflict, only on a read.
                Optional<ScalableResource> seen = number == 1 && decision == 1 ? cachedNeedingAction().or(this::read) : read();
                try {
                    decideAndWrite(number, seen);
                    return;
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

        private Optional<ScalableResource> read() {
            return resources.read(namespace, ref, step.timeout());
        }

        /**
         * Decides on {@code seen} and writes. The writes that set or rely on a replica count are made at
         * the version the decision was taken on (a scale-down's record, then its scale at the version the
         * record produced; a scale-up's scale), so the recorded count is always the one the scale to 0
         * replaced, and a scale-up restores the count recorded on the resource it scales.
         *
         * @throws ApiFailure CONFLICT when the resource changed after {@code seen}: the caller decides again
         */
        private void decideAndWrite(int number, Optional<ScalableResource> seen) {
            if (seen.isEmpty()) {
                if (step.optional()) {
                    skip("not found; it is optional");
                    return;
                }
                throw new ApiFailure(ApiFailure.Kind.NOT_FOUND, ref + " not found in namespace " + namespace);
            }
            ScalableResource resource = seen.get();
            Map<String, String> annotations = resource.annotations();
            if (ScalingRules.ignoreScaling(annotations)) {
                if (annotations.containsKey(Annotations.MELTDOWN_PROTECTION_ACTIVE)) {
                    patch(Map.of(Annotations.MELTDOWN_PROTECTION_ACTIVE, Optional.empty()));
                }
                skip(Annotations.IGNORE_SCALING + " is true");
                return;
            }
            if (!ScalingRules.needsAction(direction, resource.specReplicas())) {
                if (direction == ScaleDirection.UP && annotations.containsKey(Annotations.MELTDOWN_PROTECTION_ACTIVE)) {
                    // Someone scaled it up already (or a crash came between our scale and our clean-up).
                    patch(removeMeltdownAnnotations());
                }
                finish(StepOutcome.NOTHING_TO_DO);
                return;
            }
            if (!delayed && step.initialDelay().isPositive()) {
                delayed = true;
                LOG.log(System.Logger.Level.INFO, () -> namespace + ": waiting " + GoDuration.format(step.initialDelay())
                        + " before " + (direction == ScaleDirection.UP ? "scaling up " : "scaling down ") + ref);
                waitThen(step.initialDelay(), () -> attempt(number), StepOutcome.CANCELLED); // then decide again: it may no longer need it
                return;
            }
            if (control.isCancelled()) {
                finish(StepOutcome.CANCELLED);
                return;
            }
            int from = resource.specReplicas();
            int to;
            if (direction == ScaleDirection.DOWN) {
                var record = new LinkedHashMap<String, Optional<String>>();
                record.put(Annotations.REPLICAS, Optional.of(Integer.toString(from)));
                record.put(Annotations.MELTDOWN_PROTECTION_ACTIVE, Optional.of(""));
                to = 0;
                if (resources.scalesInOneWrite(ref)) {
                    resources.scaleAndAnnotateAt(namespace, ref, resource.version(), to, record, step.timeout());
                } else {
                    String recorded = resources.patchAnnotationsAt(namespace, ref, resource.version(), record,
                            step.timeout());
                    resources.scaleAt(namespace, ref, recorded, to, step.timeout());
                }
            } else {
                to = scaleUpTarget(annotations);
                if (resources.scalesInOneWrite(ref)) {
                    resources.scaleAndAnnotateAt(namespace, ref, resource.version(), to, removeMeltdownAnnotations(),
                            step.timeout());
                } else {
                    resources.scaleAt(namespace, ref, resource.version(), to, step.timeout());
                    patch(removeMeltdownAnnotations());
                }
            }
            observer.resourceScaled(namespace, direction, ref, from, to, cause);
            Duration bound = tuning.readinessBound(step.timeout());
            awaitReadiness(scheduler.now().plus(bound), bound);
        }

        /**
         * The cache's copy when it shows the resource needing this step's write (not ignored, and for a
         * scale-up a usable count to restore): the write is made at the copy's version, so a copy that
         * is behind ends in a conflict and a decision on a read, never in a wrong write. Anything else
         * (a skip, a clean-up, nothing to do) is decided on a read as before.
         */
        private Optional<ScalableResource> cachedNeedingAction() {
            return resources.cached(namespace, ref)
                    .filter(cached -> !ScalingRules.ignoreScaling(cached.annotations())
                            && ScalingRules.needsAction(direction, cached.specReplicas())
                            && (direction == ScaleDirection.DOWN || ScalingRules.scaleUpTarget(cached.annotations(),
                                    ref.name()) instanceof ScaleUpTarget.Replicas));
        }

        /**
         * When the seed's cache shows the resource not ignored and already where this step would take it
         * (a scale-up: up and without the meltdown annotation; a scale-down: at 0), a read would find
         * nothing to do either (the same outcome, no event): no read is sent. A healthy shoot runs a
         * scale-up after every probe, a shoot in meltdown a scale-down, and they nearly always find
         * every dependent there. Anything else is decided on a read or made at a version. A cache a
         * moment behind an outside scale delays the step by one probe interval at most.
         */
        private boolean cacheShowsNothingToDo() {
            return resources.cached(namespace, ref)
                    .filter(cached -> !ScalingRules.ignoreScaling(cached.annotations())
                            && !ScalingRules.needsAction(direction, cached.specReplicas())
                            && (direction == ScaleDirection.DOWN
                                    || !cached.annotations().containsKey(Annotations.MELTDOWN_PROTECTION_ACTIVE)))
                    .isPresent();
        }

        private int scaleUpTarget(Map<String, String> annotations) {
            return switch (ScalingRules.scaleUpTarget(annotations, ref.name())) {
                case ScaleUpTarget.Replicas replicas -> replicas.replicas();
                case ScaleUpTarget.UnusableAnnotation unusable ->
                        throw new ApiFailure(ApiFailure.Kind.BAD_INPUT, unusable.message());
            };
        }

        /**
         * Watches the ready replicas (scale-up: at least one; scale-down: none) for up to the
         * resource's {@code timeout}, so that the next level starts only once this one is up (or
         * down); then moves on either way, as the original effectively does: a rollout that never
         * completes must not block the next level for ever. A cancelled flow leaves the wait at once.
         */
        private void awaitReadiness(Instant deadline, Duration bound) {
            if (control.isCancelled()) {
                finish(StepOutcome.SCALED);
                return;
            }
            boolean ready;
            try {
                // Readiness only paces the levels: the cache's copy will do when it holds the resource.
                ready = resources.cached(namespace, ref).or(this::read)
                        .map(r -> direction == ScaleDirection.UP ? r.readyReplicas() >= 1 : r.readyReplicas() == 0)
                        .orElse(false);
            } catch (ApiFailure failure) {
                ready = false;
            }
            if (ready) {
                finish(StepOutcome.SCALED);
            } else if (!scheduler.now().isBefore(deadline)) {
                LOG.log(System.Logger.Level.INFO, () -> namespace + ": " + ref + " did not reach "
                        + (direction == ScaleDirection.UP ? "1 ready replica" : "0 ready replicas")
                        + " within " + GoDuration.format(bound) + "; moving on");
                finish(StepOutcome.SCALED);
            } else {
                Duration untilDeadline = Duration.between(scheduler.now(), deadline);
                Duration poll = untilDeadline.compareTo(tuning.readinessPoll()) < 0 ? untilDeadline : tuning.readinessPoll();
                waitThen(poll, () -> awaitReadiness(deadline, bound), StepOutcome.SCALED);
            }
        }

        private void patch(Map<String, Optional<String>> changes) {
            resources.patchAnnotations(namespace, ref, changes, step.timeout());
        }

        private void skip(String reason) {
            observer.resourceSkipped(namespace, direction, ref, reason);
            finish(StepOutcome.SKIPPED);
        }

        private void fail(String reason) {
            observer.resourceFailed(namespace, direction, ref, reason);
            finish(StepOutcome.FAILED);
        }

        private void finish(StepOutcome outcome) {
            result.complete(outcome);
        }
    }

    private static Map<String, Optional<String>> removeMeltdownAnnotations() {
        var changes = new LinkedHashMap<String, Optional<String>>();
        changes.put(Annotations.REPLICAS, Optional.empty());
        changes.put(Annotations.MELTDOWN_PROTECTION_ACTIVE, Optional.empty());
        return changes;
    }
}
