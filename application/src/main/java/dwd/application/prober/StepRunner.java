package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Scheduler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Runs steps to their end. A step is a function of what it sees: each of its passes returns what comes
 * next as a value ({@link Outcome}), and this runner carries it out, the one place where a step waits,
 * is cancelled and is counted:
 * <ul>
 *   <li>{@link Outcome.Done}: the step ended;</li>
 *   <li>{@link Outcome.Wait}: waits (on the {@link Scheduler}: virtual time in tests), then passes again in
 *       the same attempt; a cancelled flow leaves the wait at once, and the step ends as the wait says;</li>
 *   <li>{@link Outcome.Failed}: the attempt failed; a failure worth retrying is retried as the next
 *       attempt after the back-off, up to {@code attempts} in all and while the flow is not cancelled
 *       (the original's {@code util.Retry}); otherwise the step ends as failed.</li>
 * </ul>
 * A pass that is under way (reading or writing) is never cut short: the step stops at its next check.
 * Whatever a pass throws ends the step as failed, so that the shoot's later flows, which wait for it, go on.
 */
final class StepRunner {

    private static final System.Logger LOG = System.getLogger(StepRunner.class.getName());

    /** How a step ended. */
    enum StepResult { SCALED, NOTHING_TO_DO, SKIPPED, FAILED, CANCELLED }

    /** What a step does after a pass. */
    sealed interface Outcome {
        /** The step ended with {@code result}. */
        record Done(StepResult result) implements Outcome { }

        /** Waits {@code delay} ({@code why}, for the log), then passes again; cancelled, ends with {@code ifCancelled}. */
        record Wait(Duration delay, String why, StepResult ifCancelled) implements Outcome { }

        /** The attempt failed with {@code cause}; {@code worthRetrying} when another attempt may mend it. */
        record Failed(ApiFailure cause, boolean worthRetrying) implements Outcome { }
    }

    /** A step: its passes, and what it reports when it ends as failed. */
    interface Step {
        /** One pass of attempt {@code attempt} (from 1): sees, decides, acts, and says what comes next. */
        Outcome pass(int attempt);

        /** The step ends as failed ({@code reason}): its attempts are used up, or retrying cannot mend it. */
        void failed(String reason);

        /** Which step this is, for the log: {@code shoot--a: DOWN of apps/v1 Deployment kcm}. */
        String describe();
    }

    private final Scheduler scheduler;
    private final int attempts;
    private final Duration retryBackoff;

    /** @param attempts tries per step; {@code retryBackoff} the pause between two */
    StepRunner(Scheduler scheduler, int attempts, Duration retryBackoff) {
        this.scheduler = scheduler;
        this.attempts = attempts;
        this.retryBackoff = retryBackoff;
    }

    /** Starts {@code step}; the future completes when it has ended (never exceptionally). */
    CompletableFuture<StepResult> run(Step step, StepBudget budget) {
        var run = new Run(step, budget);
        scheduler.execute(run::pass);
        return run.result;
    }

    private final class Run {
        private final Step step;
        private final StepBudget budget;
        private final CompletableFuture<StepResult> result = new CompletableFuture<>();
        /** Confined to the step's passes, which run one after another. */
        private int attempt = 1;
        /** The wait the step is parked in, if any; guarded by this. */
        private Object waiting;

        Run(Step step, StepBudget budget) {
            this.step = step;
            this.budget = budget;
        }

        void pass() {
            try {
                carryOut(step.pass(attempt));
            } catch (Throwable unexpected) {
                endUnexpectedly(unexpected);
            }
        }

        private void carryOut(Outcome outcome) {
            switch (outcome) {
                case Outcome.Done done -> result.complete(done.result());
                case Outcome.Wait wait -> {
                    LOG.log(System.Logger.Level.TRACE, () -> step.describe() + " waits " + wait.delay() + ": " + wait.why());
                    park(wait.delay(), wait.ifCancelled());
                }
                case Outcome.Failed failed when failed.worthRetrying() && attempt < attempts && !budget.isCancelled() -> {
                    int next = attempt + 1;
                    LOG.log(System.Logger.Level.DEBUG, () -> step.describe() + " failed (attempt " + (next - 1)
                            + "), retrying as attempt " + next + ": " + failed.cause().getMessage());
                    attempt = next;
                    park(retryBackoff, StepResult.CANCELLED);
                }
                case Outcome.Failed failed -> {
                    step.failed(failed.cause().getMessage());
                    result.complete(StepResult.FAILED);
                }
            }
        }

        /**
         * Ends the step as failed, whatever was thrown: the shoot's later flows wait for this one. An
         * {@link Error} then goes on to the scheduler, which is no place to swallow it.
         */
        private void endUnexpectedly(Throwable unexpected) {
            try {
                LOG.log(System.Logger.Level.ERROR, step.describe() + " failed unexpectedly", unexpected);
                step.failed("unexpected error: " + unexpected);
            } finally {
                result.complete(StepResult.FAILED);
            }
            if (unexpected instanceof Error error) {
                throw error;
            }
        }

        /** Waits {@code delay}, then passes again; a cancelled flow ends the step at once with {@code ifCancelled}. */
        private void park(Duration delay, StepResult ifCancelled) {
            Object token = new Object();
            synchronized (this) {
                waiting = token;
            }
            Cancellable timer = scheduler.schedule(delay, () -> {
                if (leaveWait(token)) {
                    pass();
                }
            });
            budget.onCancel(() -> {
                if (leaveWait(token)) {
                    timer.cancel();
                    result.complete(ifCancelled);
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
    }
}
