package dwd.application.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.application.prober.StepRunner.StepResult;
import dwd.application.testing.RecordingObserver;
import dwd.application.testing.VirtualScheduler;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.Annotations;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.scaling.ScaleStep;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The most API requests one scale step can send (docs/prober.md, "How many requests a scale step sends"):
 * with A attempts, D decisions per attempt, P = ⌈longest write deadline / poll⌉ looks while a write is in
 * doubt, K = ⌈readiness wait / poll⌉ readiness checks and w writes per decision (1 for a kind that scales
 * in one write, 2 otherwise), a step reads the dependent at most A·(P + D) + D + K times and writes it at
 * most A·D·w + D − 1 times. Reached, for a kind that scales in one write, by {@link #worstCase}; never
 * exceeded under random answers.
 */
class StepRequestsTest {

    private static final String NS = "shoot--dev--requests";
    private static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final ScaleStep STEP = new ScaleStep(KCM, false, Duration.ofSeconds(2), TIMEOUT);
    private static final ProberTuning TUNING = ProberTuning.defaults();
    private static final LeaseVerdict HEALTHY = new LeaseVerdict(Decision.SCALE_UP, 5, 0, 0.0, 0.6,
            Map.of(), 0, 0, List.of(), Optional.empty());

    /** The bound on reads and writes, from the constants of a step. */
    record Calls(int reads, int writes) {
        static Calls bound(ProberTuning tuning, Duration timeout, boolean oneWrite) {
            int attempts = tuning.attempts();
            int decisions = DependentStep.DECISIONS_PER_ATTEMPT;
            Duration longestWrite = timeout.compareTo(StepBudget.MIN_WRITE_DEADLINE) > 0 ? timeout : StepBudget.MIN_WRITE_DEADLINE;
            int polls = ceilDiv(longestWrite, tuning.readinessPoll());
            int readinessChecks = ceilDiv(tuning.readinessBound(), tuning.readinessPoll());
            int writesPerDecision = oneWrite ? 1 : 2;
            return new Calls(attempts * (polls + decisions) + decisions + readinessChecks,
                    attempts * decisions * writesPerDecision + decisions - 1);
        }

        private static int ceilDiv(Duration a, Duration b) {
            return (int) ((a.toNanos() + b.toNanos() - 1) / b.toNanos());
        }
    }

    /** What the dependent shows a scale-up: up with dwd's leftover record (a clean-up), or down with it (a scale). */
    private enum Shape { UP_WITH_RECORD, DOWN_WITH_RECORD, UP }

    /** What another writer, or the network, does to one write. */
    private sealed interface Answer {
        /** The dependent changed just before the write, to {@code shape}: a conflict. */
        record ChangedTo(Shape shape) implements Answer { }

        /** No answer within the write's deadline (cancelling the flow first, when asked); the write never lands. */
        record NoAnswer(FlowCancellation cancelFirst) implements Answer { }

        record Unavailable() implements Answer { }

        record Lands() implements Answer { }
    }

    /** One dependent whose every write is answered as the test says, counting the calls. */
    private static final class Dependent implements ScalableResources {
        private final VirtualScheduler scheduler;
        private final boolean oneWrite;
        private final Deque<Answer> answers = new ArrayDeque<>();
        private SplittableRandom random;
        private Shape shape;
        private long version = 1;
        int reads;
        int writes;

        Dependent(VirtualScheduler scheduler, boolean oneWrite, Shape shape) {
            this.scheduler = scheduler;
            this.oneWrite = oneWrite;
            this.shape = shape;
        }

        @Override
        public Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout) {
            reads++;
            if (random != null && random.nextInt(10) == 0) {
                throw new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "connection reset");
            }
            Map<String, String> record = shape == Shape.UP ? Map.of()
                    : Map.of(Annotations.REPLICAS, "2", Annotations.MELTDOWN_PROTECTION_ACTIVE, "");
            int replicas = shape == Shape.DOWN_WITH_RECORD ? 0 : 2;
            return Optional.of(new ScalableResource(ref, record, replicas, 0, Long.toString(version)));
        }

        private String write(String at, Duration timeout, Shape after) {
            writes++;
            Answer answer = answers.isEmpty() ? randomAnswer() : answers.poll();
            switch (answer) {
                case Answer.ChangedTo changed -> {
                    shape = changed.shape();
                    version++;
                    throw new ApiFailure(ApiFailure.Kind.CONFLICT, "changed since " + at);
                }
                case Answer.NoAnswer none -> {
                    if (none.cancelFirst() != null) {
                        none.cancelFirst().cancel();
                    }
                    scheduler.elapse(timeout);
                    throw new ApiFailure(ApiFailure.Kind.TIMEOUT, "no answer within " + timeout);
                }
                case Answer.Unavailable ignored -> throw new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "reset");
                case Answer.Lands ignored -> {
                    if (!at.equals(Long.toString(version))) {
                        throw new ApiFailure(ApiFailure.Kind.CONFLICT, "at " + version + ", not " + at);
                    }
                    shape = after;
                    version++;
                    return Long.toString(version);
                }
            }
        }

        private Answer randomAnswer() {
            if (random == null) {
                return new Answer.Lands();
            }
            return switch (random.nextInt(6)) {
                case 0, 1 -> new Answer.ChangedTo(Shape.values()[random.nextInt(Shape.values().length)]);
                case 2 -> new Answer.NoAnswer(null);
                case 3 -> new Answer.Unavailable();
                default -> new Answer.Lands();
            };
        }

        @Override
        public String patchAnnotationsAt(String namespace, ResourceRef ref, String version,
                Map<String, Optional<String>> changes, Duration timeout) {
            Shape after = changes.get(Annotations.REPLICAS) != null && changes.get(Annotations.REPLICAS).isEmpty()
                    ? Shape.UP : shape;
            return write(version, timeout, after);
        }

        @Override
        public String scaleAt(String namespace, ResourceRef ref, String version, int replicas, Duration timeout) {
            return write(version, timeout, replicas > 0 ? Shape.UP_WITH_RECORD : Shape.DOWN_WITH_RECORD);
        }

        @Override
        public boolean scalesInOneWrite(ResourceRef ref) {
            return oneWrite;
        }

        @Override
        public void scaleAndAnnotateAt(String namespace, ResourceRef ref, String version, int replicas,
                Map<String, Optional<String>> changes, Duration timeout) {
            write(version, timeout, replicas > 0 ? Shape.UP : Shape.DOWN_WITH_RECORD);
        }
    }

    private static CompletableFuture<StepResult> scaleUp(ResourceScaler scaler, FlowCancellation cancellation) {
        return scaler.scale(STEP, ScaleDirection.UP, cancellation, HEALTHY);
    }

    /**
     * The step that sends the most: it starts while a clean-up of an earlier step is in doubt and polls
     * through that doubt; its first attempt's clean-ups conflict until a scale is due, which waits the
     * initial delay; every later pass sees a write conflict four times and the fifth clean-up get no answer,
     * polls through that doubt in the next attempt, and the last attempt's scale lands and never gets ready.
     */
    @Test
    void worstCase() {
        var scheduler = new VirtualScheduler();
        var dependent = new Dependent(scheduler, true, Shape.UP_WITH_RECORD);
        var scaler = new ResourceScaler(NS, dependent, scheduler, TUNING, new RecordingObserver(scheduler),
                Leadership.always());
        var earlier = new FlowCancellation();
        dependent.answers.add(new Answer.NoAnswer(earlier)); // an earlier flow's clean-up, in doubt when it is cancelled
        scaleUp(scaler, earlier);
        scheduler.runDue();
        dependent.reads = 0;
        dependent.writes = 0;

        var conflict = new Answer.ChangedTo(Shape.UP_WITH_RECORD);
        dependent.answers.addAll(List.of(conflict, conflict, conflict, new Answer.ChangedTo(Shape.DOWN_WITH_RECORD)));
        dependent.answers.addAll(List.of(new Answer.ChangedTo(Shape.DOWN_WITH_RECORD), new Answer.ChangedTo(Shape.DOWN_WITH_RECORD),
                new Answer.ChangedTo(Shape.DOWN_WITH_RECORD), new Answer.ChangedTo(Shape.UP_WITH_RECORD), new Answer.NoAnswer(null)));
        dependent.answers.addAll(List.of(conflict, conflict, conflict, conflict, new Answer.NoAnswer(null)));
        dependent.answers.addAll(List.of(conflict, conflict, conflict, new Answer.ChangedTo(Shape.DOWN_WITH_RECORD),
                new Answer.Lands()));
        CompletableFuture<StepResult> step = scaleUp(scaler, new FlowCancellation());
        scheduler.advanceBy(Duration.ofMinutes(5));

        assertThat(step).isCompletedWithValue(StepResult.SCALED);
        assertThat(dependent.answers).as("every answer given").isEmpty();
        Calls bound = Calls.bound(TUNING, TIMEOUT, true);
        assertThat(new Calls(dependent.reads, dependent.writes)).isEqualTo(bound).isEqualTo(new Calls(115, 19));
    }

    @Test
    void everyWriteConflictingAStepFailsAfterItsAttemptsOfDecisionsEach() {
        var scheduler = new VirtualScheduler();
        var dependent = new Dependent(scheduler, false, Shape.DOWN_WITH_RECORD);
        var scaler = new ResourceScaler(NS, dependent, scheduler, TUNING, new RecordingObserver(scheduler),
                Leadership.always());
        int decisions = TUNING.attempts() * DependentStep.DECISIONS_PER_ATTEMPT;
        for (int i = 0; i < decisions; i++) {
            dependent.answers.add(new Answer.ChangedTo(Shape.DOWN_WITH_RECORD));
        }
        CompletableFuture<StepResult> step = scaleUp(scaler, new FlowCancellation());
        scheduler.advanceBy(Duration.ofMinutes(1));

        assertThat(step).isCompletedWithValue(StepResult.FAILED);
        assertThat(new Calls(dependent.reads, dependent.writes)).as("the look before the initial delay, then 3 × 5 decisions")
                .isEqualTo(new Calls(1 + decisions, decisions));
    }

    @Test
    void noStepSendsMoreWhateverTheSeedAnswers() {
        int most = 0;
        for (long seed = 0; seed < 400; seed++) {
            for (boolean oneWrite : List.of(true, false)) {
                var scheduler = new VirtualScheduler();
                var dependent = new Dependent(scheduler, oneWrite, Shape.values()[(int) (seed % 3)]);
                dependent.random = new SplittableRandom(seed);
                var scaler = new ResourceScaler(NS, dependent, scheduler, TUNING, new RecordingObserver(scheduler),
                        Leadership.always());
                for (int step = 0; step < 4; step++) { // doubts are inherited from step to step
                    dependent.reads = 0;
                    dependent.writes = 0;
                    CompletableFuture<StepResult> running = step % 2 == 0 ? scaleUp(scaler, new FlowCancellation())
                            : scaler.scale(STEP, ScaleDirection.DOWN, new FlowCancellation(), HEALTHY);
                    scheduler.advanceBy(Duration.ofMinutes(10));
                    assertThat(running).isDone();
                    Calls bound = Calls.bound(TUNING, TIMEOUT, oneWrite);
                    assertThat(dependent.reads).as("seed %d, step %d: reads", seed, step).isLessThanOrEqualTo(bound.reads());
                    assertThat(dependent.writes).as("seed %d, step %d: writes", seed, step).isLessThanOrEqualTo(bound.writes());
                    most = Math.max(most, dependent.reads + dependent.writes);
                }
            }
        }
        assertThat(most).as("random answers reach far into the bound").isGreaterThan(40);
    }
}
