package dwd.bootstrap.demo;

import java.io.PrintStream;
import java.nio.charset.Charset;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints the demo as a timeline: times relative to the network cut, what dwd saw and did, and a
 * summary table at the end. Colours only on a terminal, and never with {@code NO_COLOR} set.
 */
final class Narrator {

    /** One row of the summary. */
    record Check(String step, String expected, String observed, boolean passed) { }

    private final PrintStream out;
    private final boolean colour;
    private final boolean unicode;
    private final List<Check> checks = new ArrayList<>();
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

    void title(String text) {
        out.println(bold(text));
    }

    void info(String text) {
        out.println("  " + text);
    }

    void step(int number, String text) {
        out.println();
        out.println(bold((unicode ? "── " : "-- ") + number + ". " + text + (unicode ? " ──" : " --")));
    }

    /** A timed line: {@code   +6.1s  alpha  kube-controller-manager 3 -> 0 replicas}. */
    void at(Instant when, String who, String text) {
        out.println(String.format(Locale.ROOT, "  %8s  %-6s %s", relative(when), who, text));
    }

    String relative(Instant when) {
        if (origin == null) {
            return "";
        }
        double seconds = Duration.between(origin, when).toMillis() / 1000.0;
        return String.format(Locale.ROOT, "%+.1fs", seconds);
    }

    void check(String step, String expected, String observed, boolean passed) {
        checks.add(new Check(step, expected, observed, passed));
    }

    boolean allPassed() {
        return !checks.isEmpty() && checks.stream().allMatch(Check::passed);
    }

    List<Check> checks() {
        return List.copyOf(checks);
    }

    /** The summary table; returns whether every step was observed. */
    boolean summary() {
        out.println();
        out.println(bold("Summary"));
        int stepWidth = Math.max(4, checks.stream().mapToInt(c -> c.step().length()).max().orElse(4));
        int expectedWidth = Math.max(8, checks.stream().mapToInt(c -> c.expected().length()).max().orElse(8));
        int observedWidth = Math.max(8, checks.stream().mapToInt(c -> c.observed().length()).max().orElse(8));
        String format = "  %-" + stepWidth + "s  %-" + expectedWidth + "s  %-" + observedWidth + "s  %s";
        out.println(String.format(Locale.ROOT, format, "step", "expected", "observed", "").stripTrailing());
        for (Check check : checks) {
            out.println(String.format(Locale.ROOT, format, check.step(), check.expected(), check.observed(), mark(check.passed())));
        }
        boolean passed = allPassed();
        out.println();
        out.println(passed ? green("All steps observed.") : red("Some steps were not observed (marked "
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
