package dwd.application.health;

import dwd.application.port.out.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Liveness of many loops (one per shoot, per weeder, …): each loop says by when it will next
 * report, and a loop that is more than {@code tolerance} late is stalled. A loop that is merely
 * failing (its API calls time out) still reports, so only a stuck loop turns the process unhealthy.
 */
public final class LoopProgress implements HealthCheck {

    private final String name;
    private final Clock clock;
    private final Duration tolerance;
    private final Map<String, Instant> nextReportBy = new ConcurrentHashMap<>();

    /**
     * @param name      the check's name, e.g. {@code probe-loops}
     * @param tolerance how late a report may be: at least the longest a single run may legitimately take
     */
    public LoopProgress(String name, Clock clock, Duration tolerance) {
        this.name = Objects.requireNonNull(name);
        this.clock = Objects.requireNonNull(clock);
        this.tolerance = Objects.requireNonNull(tolerance);
    }

    /** Loop {@code loop} reported and will report again by {@code next}. */
    public void expectBy(String loop, Instant next) {
        nextReportBy.put(loop, next);
    }

    /** Loop {@code loop} ended; it is no longer watched. */
    public void forget(String loop) {
        nextReportBy.remove(loop);
    }

    @Override
    public Result check() {
        Instant now = clock.now();
        var stalled = nextReportBy.entrySet().stream()
                .filter(entry -> now.isAfter(entry.getValue().plus(tolerance)))
                .sorted(Map.Entry.comparingByValue(Comparator.naturalOrder()))
                .map(Map.Entry::getKey)
                .toList();
        if (stalled.isEmpty()) {
            return Result.ok(name, nextReportBy.size() + " loops making progress");
        }
        return Result.failing(name, stalled.size() + " of " + nextReportBy.size() + " loops stalled (more than "
                + tolerance.toSeconds() + "s late): " + String.join(", ", stalled.subList(0, Math.min(5, stalled.size())))
                + (stalled.size() > 5 ? ", …" : ""));
    }
}
