package dwd.application.prober;

import dwd.application.port.out.Deadline;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ScalableResources;
import dwd.application.port.out.Scheduler;
import dwd.application.prober.StepRunner.StepResult;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.scaling.ScaleStep;
import dwd.domain.time.SaturatingTime;
import java.util.concurrent.CompletableFuture;

/**
 * Starts the scale steps of one shoot's flows (the original's {@code doCreateTaskFn}: one resource
 * scaler per dependent, retried by {@code util.Retry}): each step is a {@link DependentStep}, given its
 * {@link StepBudget} and run to its end by the {@link StepRunner}. What the shoot's steps share lives
 * here: its writes in doubt, and when its next probe run is due.
 */
final class ResourceScaler {

    private final String namespace;
    private final Scheduler scheduler;
    private final Leadership leadership;
    private final StepRunner runner;
    private final DependentStep.ScaleParts parts;
    /** When the shoot's next probe run is due, as its probe last announced: a newer verdict comes no sooner. */
    private volatile Deadline nextProbe;

    ResourceScaler(String namespace, ScalableResources resources, Scheduler scheduler, ProberTuning tuning,
            ProberObserver observer, Leadership leadership) {
        this.namespace = namespace;
        this.scheduler = scheduler;
        this.leadership = leadership;
        this.runner = new StepRunner(scheduler, tuning.attempts(), tuning.retryBackoff());
        var doubts = new WritesInDoubt(scheduler);
        this.parts = new DependentStep.ScaleParts(resources, new StepLooks(namespace, resources, doubts), doubts,
                new DependentWrites(namespace, resources, doubts), tuning, observer);
        this.nextProbe = Deadline.in(scheduler, SaturatingTime.MAX);
    }

    /**
     * The shoot's next probe run is due at {@code next} (told by each run, before a flow starts on it):
     * every write from now on ends by then.
     */
    void nextProbeDue(Deadline next) {
        nextProbe = next;
    }

    /** Starts the step; the future completes when it has ended (it never completes exceptionally). */
    CompletableFuture<StepResult> scale(ScaleStep step, ScaleDirection direction, FlowCancellation cancellation,
            LeaseVerdict cause) {
        var budget = new StepBudget(scheduler, cancellation, step.timeout(), () -> nextProbe, leadership);
        return runner.run(new DependentStep(namespace, step, direction, cause, budget, parts), budget);
    }
}
