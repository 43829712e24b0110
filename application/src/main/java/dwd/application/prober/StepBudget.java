package dwd.application.prober;

import dwd.application.port.out.Clock;
import dwd.application.port.out.Deadline;
import dwd.application.port.out.Leadership;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The time one scale step has, in one place, made once when the step starts and passed down to
 * everything it calls: whether its flow was cancelled, and how long each of its calls may take. A
 * write may take the earliest of
 * <ul>
 *   <li>the step's {@code timeout}, counted from the decision it carries out;</li>
 *   <li>the shoot's next probe run: a newer verdict never finds an older one's write still on its way
 *       (at least {@link #MIN_WRITE_DEADLINE}, even when that run is due or overdue);</li>
 *   <li>the time leadership is left: none of this process's writes is on its way once a standby may
 *       take over (the port refuses a write with none left, {@code LeaderOnly}).</li>
 * </ul>
 * A read may take the step's timeout; a readiness read, the time left of the readiness wait. Every
 * figure is taken on the monotonic clock when the call leaves, so a step that waited its initial delay
 * is given the next probe run as it is then.
 */
final class StepBudget {

    /** The shortest deadline a write gets from the next probe run, even when that run is due or overdue. */
    static final Duration MIN_WRITE_DEADLINE = Duration.ofSeconds(1);

    /** The least a readiness read is given, even at the end of the wait: no read is sent to fail at once. */
    static final Duration MIN_READINESS_READ = Duration.ofMillis(100);

    private final Clock clock;
    private final FlowCancellation cancellation;
    private final Duration timeout;
    private final Supplier<Deadline> nextProbe;
    private final Leadership leadership;

    /**
     * @param timeout   the step's own, from the config ({@code scaleUpInfo.timeout}, {@code scaleDownInfo.timeout})
     * @param nextProbe when the shoot's next probe run is due, as its probe last announced it
     */
    StepBudget(Clock clock, FlowCancellation cancellation, Duration timeout, Supplier<Deadline> nextProbe,
            Leadership leadership) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.cancellation = Objects.requireNonNull(cancellation, "cancellation");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.nextProbe = Objects.requireNonNull(nextProbe, "nextProbe");
        this.leadership = Objects.requireNonNull(leadership, "leadership");
    }

    Clock clock() {
        return clock;
    }

    boolean isCancelled() {
        return cancellation.isCancelled();
    }

    /** Runs {@code action} when the step's flow is cancelled, or now if it already is. */
    void onCancel(Runnable action) {
        cancellation.onCancel(action);
    }

    /** How long a read of the dependent may take. */
    Duration forRead() {
        return timeout;
    }

    /**
     * When the writes that carry out one decision must have ended: the step's timeout from now, or the
     * shoot's next probe run when that comes sooner.
     */
    Deadline writesEnd() {
        Deadline next = nextProbe.get();
        return next.remaining(clock).compareTo(timeout) < 0 ? next : Deadline.in(clock, timeout);
    }

    /** How long a write sent now may take towards {@code writesEnd}: at least {@link #MIN_WRITE_DEADLINE}, within leadership. */
    Duration forWrite(Deadline writesEnd) {
        return shorter(longer(writesEnd.remaining(clock), MIN_WRITE_DEADLINE), leadership.leadingFor());
    }

    /** How long a readiness read may take: the time left until {@code end} (at least {@link #MIN_READINESS_READ}), within the timeout. */
    Duration forReadinessRead(Deadline end) {
        return shorter(longer(end.remaining(clock), MIN_READINESS_READ), timeout);
    }

    static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
