package dwd.bootstrap.demo;

import java.io.PrintStream;
import java.nio.charset.Charset;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;

/**
 * Prints the demo as a timeline: times relative to the network cut, what dwd saw and did, and a
 * summary table at the end. Colours only on a terminal, and never with {@code NO_COLOR} set.
 *
 * <p>Timed lines come from several sources that see things with different delays (a watch within
 * milliseconds, a polled status page up to a poll later), so they are held for {@link #HOLD} and
 * printed in the order of their times. Every other line first prints what is held.
 */
final class Narrator {

    /** One row of the summary. */
    record Check(String step, String expected, String observed, boolean passed) { }

    /** How long a timed line waits for earlier ones that arrive late. */
    static final Duration HOLD = Duration.ofMillis(300);

    private record Timed(Instant at, long sequence, String who, String text) { }

    private final PrintStream out;
    private final boolean colour;
    private final boolean unicode;
    private final List<Check> checks = new ArrayList<>();
    private final PriorityQueue<Timed> held = new PriorityQueue<>(
            Comparator.comparing(Timed::at).thenComparingLong(Timed::sequence));
    private long sequence;
    private boolean muted;
    private boolean timelineEnded;
    private volatile Instant origin;

    Narrator(PrintStream out, boolean terminal, boolean noColour) {
        this.out = out;
        this.colour = terminal && !noColour;
        this.unicode = Charset.forName(System.getProperty("stdout.encoding", "UTF-8")).name().startsWith("UTF");
    }

    static Narrator forThisProcess() {
        String term = System.getenv().getOrDefault("TERM", "");
        boolean terminal = System.console() != null && System.console().isTerminal() && !term.equals("dumb");
        return new Narrator(System.out, terminal, System.getenv().containsKey("NO_COLOR"));
    }

    /** Times from here on are relative to {@code instant} (the network cut). */
    void setOrigin(Instant instant) {
        origin = instant;
    }

    synchronized void title(String text) {
        print(bold(text));
    }

    /** An indented line; an empty one is a blank line. */
    synchronized void info(String text) {
        print(text.isEmpty() ? "" : "  " + text);
    }

    synchronized void step(int number, String text) {
        print("");
        print(bold((unicode ? "── " : "-- ") + number + ". " + text + (unicode ? " ──" : " --")));
    }

    /** A line a role wrote ({@code --verbose}), as it comes: {@code prober │ {"time":…}}. */
    synchronized void roleLine(String role, String line) {
        if (!muted) {
            out.println(String.format(Locale.ROOT, "%-6s %s %s", role, unicode ? "│" : "|", line));
        }
    }

    /**
     * A timed line, printed within {@link #HOLD} in the order of its time:
     * {@code   +6.1s  alpha  kube-controller-manager 3 -> 0 replicas}.
     */
    synchronized void at(Instant when, String who, String text) {
        if (!timelineEnded) {
            held.add(new Timed(when, sequence++, who, text));
        }
    }

    /** Prints the timed lines held longer than {@link #HOLD}; called every few hundred milliseconds. */
    synchronized void release() {
        Instant due = Instant.now().minus(HOLD);
        while (!held.isEmpty() && held.peek().at().isBefore(due)) {
            printTimed(held.poll());
        }
    }

    /** From now on, timed lines are dropped. */
    synchronized void endTimeline() {
        held.clear();
        timelineEnded = true;
    }

    /** From now on, only {@link #notice} prints: the demo is being stopped, and what it stops is the news. */
    synchronized void mute() {
        held.clear();
        muted = true;
    }

    /** A line printed even when muted: what was stopped. */
    synchronized void notice(String text) {
        flush();
        out.println(text);
    }

    private void print(String line) {
        flush();
        if (!muted) {
            out.println(line);
        }
    }

    private void flush() {
        while (!held.isEmpty()) {
            printTimed(held.poll());
        }
    }

    private void printTimed(Timed line) {
        if (!muted) {
            out.println(String.format(Locale.ROOT, "  %8s  %-6s %s", relative(line.at()), line.who(), line.text()));
        }
    }

    /** {@code 2s}, or {@code 2.5s} when it has a fraction. */
    static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s"
                : String.format(Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
    }

    String relative(Instant when) {
        if (origin == null) {
            return "";
        }
        double seconds = Duration.between(origin, when).toMillis() / 1000.0;
        return String.format(Locale.ROOT, "%+.1fs", seconds);
    }

    synchronized void check(String step, String expected, String observed, boolean passed) {
        checks.add(new Check(step, expected, observed, passed));
    }

    synchronized boolean allPassed() {
        return !checks.isEmpty() && checks.stream().allMatch(Check::passed);
    }

    synchronized List<Check> checks() {
        return List.copyOf(checks);
    }

    /** The summary table; returns whether every step was observed. */
    synchronized boolean summary() {
        print("");
        print(bold("Summary"));
        int stepWidth = Math.max(4, checks.stream().mapToInt(c -> c.step().length()).max().orElse(4));
        int expectedWidth = Math.max(8, checks.stream().mapToInt(c -> c.expected().length()).max().orElse(8));
        int observedWidth = Math.max(8, checks.stream().mapToInt(c -> c.observed().length()).max().orElse(8));
        String format = "  %-" + stepWidth + "s  %-" + expectedWidth + "s  %-" + observedWidth + "s  %s";
        print(String.format(Locale.ROOT, format, "step", "expected", "observed", "").stripTrailing());
        for (Check check : checks) {
            print(String.format(Locale.ROOT, format, check.step(), check.expected(), check.observed(), mark(check.passed())));
        }
        boolean passed = allPassed();
        print("");
        print(passed ? green("All steps observed.") : red("Some steps were not observed (marked "
                + mark(false) + ")."));
        return passed;
    }

    String mark(boolean passed) {
        String symbol = unicode ? (passed ? "✓" : "✗") : (passed ? "ok" : "FAIL");
        return passed ? green(symbol) : red(symbol);
    }

    private String bold(String text) {
        return colour ? "\u001b[1m" + text + "\u001b[0m" : text;
    }

    private String green(String text) {
        return colour ? "\u001b[32m" + text + "\u001b[0m" : text;
    }

    private String red(String text) {
        return colour ? "\u001b[31m" + text + "\u001b[0m" : text;
    }
}
