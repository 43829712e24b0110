package dwd.application.runtime;

import dwd.domain.config.GoDuration;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The rule by which dwd logs a problem that a shoot, an object or a watch keeps showing: once when it
 * appears (or changes into another), at a debug level while it repeats, once more as a reminder
 * every {@link #REMINDER} while it lasts, and once when it clears, with how long it lasted and how
 * often it was seen. This class decides; its callers log, each at its levels and in its words.
 *
 * @param <K> what shows the problem: a shoot, a dependent, a watch
 */
public final class Recurrences<K> {

    /** How often a problem that lasts is mentioned again: low enough not to be noise, often enough to be in today's logs. */
    public static final Duration REMINDER = Duration.ofHours(1);

    /** What to log about one sighting of a problem. */
    public enum Report {
        /** New, or another problem than the one before: log it at the warning level. */
        APPEARED,
        /** The same problem again: a debug line at most. */
        REPEATED,
        /** The same problem, and {@link #REMINDER} since it was last mentioned: say it goes on. */
        REMINDED;

        /** Whether this sighting is worth more than a debug line. */
        public boolean worthTelling() {
            return this != REPEATED;
        }
    }

    /** A problem that cleared: what it was, since when it was seen, and how often. */
    public record Cleared(String problem, Duration lasted, long sightings) {

        /** {@code 1m30s, seen 45 times}: for the line that says it cleared. */
        public String summary() {
            return GoDuration.format(lasted) + (sightings == 1 ? ", seen once" : ", seen " + sightings + " times");
        }
    }

    /** A problem going on: what it is, since when, how often, and when it was last mentioned. */
    private record Ongoing(String problem, long sinceNanos, long sightings, long mentionedNanos) { }

    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<K, Ongoing> ongoing = new ConcurrentHashMap<>();

    /** @param nanoTime a monotonic clock, in nanoseconds */
    public Recurrences(LongSupplier nanoTime) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /** {@code key} shows {@code problem} (a stable text: a changed text is a new problem). */
    public Report seen(K key, String problem) {
        long now = nanoTime.getAsLong();
        var report = new Report[1];
        ongoing.compute(key, (ignored, before) -> {
            if (before == null || !before.problem().equals(problem)) {
                report[0] = Report.APPEARED;
                return new Ongoing(problem, now, 1, now);
            }
            boolean remind = now - before.mentionedNanos() >= REMINDER.toNanos();
            report[0] = remind ? Report.REMINDED : Report.REPEATED;
            return new Ongoing(problem, before.sinceNanos(), before.sightings() + 1,
                    remind ? now : before.mentionedNanos());
        });
        return report[0];
    }

    /** {@code key} shows no problem (any more): the problem it showed, if any, has cleared. */
    public Optional<Cleared> clear(K key) {
        Ongoing before = ongoing.remove(key);
        if (before == null) {
            return Optional.empty();
        }
        return Optional.of(new Cleared(before.problem(), Duration.ofNanos(Math.max(0, nanoTime.getAsLong()
                - before.sinceNanos())), before.sightings()));
    }

    /** Every key that matches shows no problem any more: the problems that cleared, by key. */
    public java.util.Map<K, Cleared> clearIf(java.util.function.Predicate<K> works) {
        var cleared = new java.util.LinkedHashMap<K, Cleared>();
        for (K key : java.util.List.copyOf(ongoing.keySet())) {
            if (works.test(key)) {
                clear(key).ifPresent(problem -> cleared.put(key, problem));
            }
        }
        return cleared;
    }

    /** {@code key} is gone (a shoot no longer probed, a watch closed): its problem is forgotten without a word. */
    public void forget(K key) {
        ongoing.remove(key);
    }

    /** Forgets every key that matches. */
    public void forgetIf(java.util.function.Predicate<K> gone) {
        ongoing.keySet().removeIf(gone);
    }

    /** Since when {@code key} has shown its problem, and how often; empty when it shows none. */
    public Optional<String> ongoingSummary(K key) {
        Ongoing now = ongoing.get(key);
        return now == null ? Optional.empty() : Optional.of(GoDuration.format(Duration.ofNanos(Math.max(0,
                nanoTime.getAsLong() - now.sinceNanos()))) + ", seen " + now.sightings() + " times");
    }
}
