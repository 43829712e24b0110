package dwd.application.prober;

import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ProberObserver.FlowOutcome;
import dwd.application.prober.StepRunner.StepResult;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.scaling.ScaleLevel;
import dwd.domain.scaling.ScalePlan;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One run of a scale plan for one shoot: levels strictly in order, the resources of a level in
 * parallel; a failed resource stops the later levels. Runs beside the probe loop; {@link #cancel()}
 * stops it at the next safe point (before a resource's writes, between levels).
 */
final class ScaleFlow {

    private static final System.Logger LOG = System.getLogger(ScaleFlow.class.getName());

    private final String namespace;
    private final ScalePlan plan;
    private final ResourceScaler scaler;
    private final ProberObserver observer;
    private final LeaseVerdict cause;
    private final CompletableFuture<FlowOutcome> done = new CompletableFuture<>();
    private final FlowCancellation cancellation = new FlowCancellation();
    private boolean started;

    ScaleFlow(String namespace, ScalePlan plan, ResourceScaler scaler, ProberObserver observer, LeaseVerdict cause) {
        this.namespace = namespace;
        this.plan = plan;
        this.scaler = scaler;
        this.observer = observer;
        this.cause = cause;
    }

    ScaleDirection direction() {
        return plan.direction();
    }

    boolean isFinished() {
        return done.isDone();
    }

    /**
     * Runs the plan once every earlier flow of the shoot has stopped ({@code earlierStopped}), so that
     * two flows never write to the shoot's dependents at the same time.
     *
     * @return completes when the earlier flows and this one have stopped; exceptionally only with an
     *     {@link Error} this flow ended in
     */
    CompletableFuture<FlowOutcome> startAfter(CompletableFuture<?> earlierStopped) {
        // An earlier flow that ended in an Error has stopped as well: this one starts all the same.
        return earlierStopped.handle((outcome, error) -> null).thenCompose(ignored -> start());
    }

    /** Runs the plan; a flow cancelled before it started ends at once without touching anything. */
    private synchronized CompletableFuture<FlowOutcome> start() {
        if (started) {
            return done;
        }
        started = true;
        if (cancellation.isCancelled()) {
            done.complete(FlowOutcome.CANCELLED);
            return done;
        }
        try {
            observer.flowStarted(namespace, plan.direction(), cause);
            runLevel(0);
        } catch (Throwable unexpected) {
            LOG.log(System.Logger.Level.ERROR, namespace + ": " + plan.direction() + " flow failed unexpectedly", unexpected);
            finish(FlowOutcome.FAILED);
            if (unexpected instanceof Error error) {
                throw error;
            }
        }
        return done;
    }

    /** Asks the flow to stop at its next safe point; the future completes when it has stopped. */
    CompletableFuture<FlowOutcome> cancel() {
        cancellation.cancel();
        synchronized (this) {
            if (!started) {
                started = true;
                done.complete(FlowOutcome.CANCELLED);
            }
        }
        return done;
    }

    private void runLevel(int index) {
        List<ScaleLevel> levels = plan.levels();
        if (cancellation.isCancelled()) {
            finish(FlowOutcome.CANCELLED);
            return;
        }
        if (index == levels.size()) {
            finish(FlowOutcome.COMPLETED);
            return;
        }
        List<CompletableFuture<StepResult>> steps = levels.get(index).steps().stream()
                .map(step -> scaler.scale(step, plan.direction(), cancellation, cause).exceptionally(this::failedStep))
                .toList();
        CompletableFuture.allOf(steps.toArray(CompletableFuture[]::new)).whenComplete((ignored, error) -> {
            // Runs on whichever thread completed the last step: nothing thrown here may leave the flow
            // unfinished, or every later flow of the shoot would wait for it forever.
            try {
                List<StepResult> outcomes = steps.stream().map(CompletableFuture::join).toList();
                if (outcomes.contains(StepResult.FAILED)) {
                    finish(FlowOutcome.FAILED);
                } else if (cancellation.isCancelled() || outcomes.contains(StepResult.CANCELLED)) {
                    finish(FlowOutcome.CANCELLED);
                } else {
                    runLevel(index + 1);
                }
            } catch (Throwable unexpected) {
                failedStep(unexpected);
                finish(FlowOutcome.FAILED);
            }
        });
    }

    private StepResult failedStep(Throwable unexpected) {
        LOG.log(System.Logger.Level.ERROR, namespace + ": " + plan.direction() + " flow failed unexpectedly", unexpected);
        return StepResult.FAILED;
    }

    private void finish(FlowOutcome outcome) {
        if (done.complete(outcome)) {
            observer.flowFinished(namespace, plan.direction(), outcome);
        }
    }
}
