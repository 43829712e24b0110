package dwd.application.health;

import dwd.application.port.out.Clock;
import dwd.application.port.out.Deadline;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Liveness of many loops (one per shoot, per weeder, …): each loop says by when it will next
 * report, and a loop that is more than {@code tolerance} late is stalled. A loop that is merely
 * failing (its API calls time out) still reports, so only a stuck loop counts. Lateness is measured
 * on the monotonic clock: a step of the wall clock stalls nothing.
 *
 * <p>Whether stalled loops fail the check depends on whose they are. A weeder's end is the
 * process's own timer, so any stalled one fails it. Probe loops belong to shoots: one shoot's stall
 * is reported (the check's detail, {@link #stalled()} for metrics) but fails the check only when
 * more than half of all loops stall, which no shoot can cause for the others: then the process's
 * scheduling, or something every probe shares, is stuck, and a restart is the remedy.
 */
public final class LoopProgress implements HealthCheck {

    private static final int NAMED = 5;

    private final String name;
    private final Clock clock;
    private final Duration tolerance;
    private final boolean failsOnlyWhenMostStall;
    private final Map<String, Deadline> nextReportBy = new ConcurrentHashMap<>();

    /**
     * A check that fails when any loop stalls.
     *
     * @param name      the check's name, e.g. {@code weeders}
     * @param tolerance how late a report may be: at least the longest a single run may legitimately take
     */
    public LoopProgress(String name, Clock clock, Duration tolerance) {
        this(name, clock, tolerance, false);
    }

    private LoopProgress(String name, Clock clock, Duration tolerance, boolean failsOnlyWhenMostStall) {
        this.name = Objects.requireNonNull(name);
        this.clock = Objects.requireNonNull(clock);
        this.tolerance = Objects.requireNonNull(tolerance);
        this.failsOnlyWhenMostStall = failsOnlyWhenMostStall;
    }

    /** A check that fails only when more than half of the loops stall: for loops that each belong to a shoot. */
    public static LoopProgress failingWhenMostStall(String name, Clock clock, Duration tolerance) {
        return new LoopProgress(name, clock, tolerance, true);
    }

    /** Loop {@code loop} reported and will report again by {@code next} (on the wall clock, as reported). */
    public void expectBy(String loop, Instant next) {
        Instant now = clock.now();
        expectWithin(loop, next.isAfter(now) ? Duration.between(now, next) : Duration.ZERO);
    }

    /** Loop {@code loop} reported and will report again within {@code delay}. */
    public void expectWithin(String loop, Duration delay) {
        nextReportBy.put(loop, Deadline.in(clock, delay).plus(tolerance));
    }

    /** Loop {@code loop} ended; it is no longer watched. */
    public void forget(String loop) {
        nextReportBy.remove(loop);
    }

    /** The loops stalled now, the longest stalled first. */
    public List<String> stalled() {
        return nextReportBy.entrySet().stream()
                .filter(entry -> entry.getValue().overdueBy(clock).isPositive())
                .map(entry -> Map.entry(entry.getKey(), entry.getValue().overdueBy(clock)))
                .sorted(Map.Entry.<String, Duration>comparingByValue().reversed())
                .map(Map.Entry::getKey)
                .toList();
    }

    @Override
    public Result check() {
        List<String> stalled = stalled();
        int loops = nextReportBy.size();
        if (stalled.isEmpty()) {
            return Result.ok(name, loops + " loops making progress");
        }
        String detail = stalled.size() + " of " + loops + " loops stalled (more than " + tolerance.toSeconds()
                + "s late): " + String.join(", ", stalled.subList(0, Math.min(NAMED, stalled.size())))
                + (stalled.size() > NAMED ? ", …" : "");
        if (failsOnlyWhenMostStall && stalled.size() * 2 <= loops) {
            return Result.ok(name, detail + "; at most half of the loops, so theirs, not the process's");
        }
        return Result.failing(name, detail);
    }
}
