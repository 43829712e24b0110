package dwd.application.prober;

import dwd.application.port.out.Clock;
import dwd.application.port.out.Deadline;
import dwd.application.port.out.ProberObserver;
import dwd.domain.time.SaturatingTime;
import java.time.Duration;
import java.time.Instant;

/**
 * Notices steps of the wall clock, which lease ages depend on: they compare this machine's wall
 * clock with the renew times the shoots' kubelets write by theirs, so a step of +1 h would turn
 * every lease of every shoot "expired" at once. Each reading is compared with the one before (by
 * any shoot's run): when the wall clock moved more than {@link #TOLERANCE} more or less than the
 * monotonic clock, it stepped, and lease verdicts are held for {@code hold} (one probe interval)
 * from then on. Each step is reported once.
 */
public final class WallClockSteps {

    /**
     * How far the two clocks may drift apart between readings without counting as a step: NTP slews
     * at most 0.5 ms a second, and a leap second is 1 s. A smaller step changes lease ages by less
     * than a kubelet's renew interval, which no verdict hangs on.
     */
    static final Duration TOLERANCE = Duration.ofSeconds(2);

    private final Clock clock;
    private final Duration hold;
    private final ProberObserver observer;

    // Guarded by this.
    private Reading last;
    private Deadline heldUntil = Deadline.NONE;

    /** @param hold how long verdicts are held after a step: one probe interval */
    public WallClockSteps(Clock clock, Duration hold, ProberObserver observer) {
        this.clock = clock;
        this.hold = hold;
        this.observer = observer;
    }

    /** A reading of both clocks; {@code uncertainty} is how long reading them took. */
    private record Reading(Instant wall, long nanoTime, long uncertainty) { }

    /** Reads the clocks; whether lease verdicts are held now, because the wall clock stepped within the hold. */
    public synchronized boolean holdsVerdicts() {
        Reading now = read();
        if (last != null) {
            long wallElapsed = SaturatingTime.nanos(Duration.between(last.wall(), now.wall()));
            long monotonicElapsed = SaturatingTime.minus(now.nanoTime(), last.nanoTime());
            long step = SaturatingTime.minus(wallElapsed, monotonicElapsed);
            long allowed = SaturatingTime.plus(TOLERANCE.toNanos(),
                    SaturatingTime.plus(last.uncertainty(), now.uncertainty()));
            if (Math.abs(Math.max(step, -Long.MAX_VALUE)) > allowed) {
                heldUntil = Deadline.in(clock, hold);
                observer.wallClockStepped(Duration.ofNanos(step), hold);
            }
        }
        last = now;
        return !heldUntil.hasPassed(clock);
    }

    /** The wall clock between two monotonic readings, so that a pause between them (GC, preemption) counts as uncertainty, not as a step. */
    private Reading read() {
        long before = clock.nanoTime();
        Instant wall = clock.now();
        long after = clock.nanoTime();
        long taken = Math.max(0, SaturatingTime.minus(after, before));
        return new Reading(wall, SaturatingTime.plus(before, taken / 2), taken / 2);
    }
}
