package dwd.bootstrap.bench;

import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.bench.VersusTable.Figure;
import dwd.bootstrap.weeder.WeederVersusRun;
import dwd.bootstrap.weeder.WeederVersusRun.FirstDeletions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@code make bench-versus} (a benchmark, not a test: nothing is asserted): Gardener's original dependency-watchdog
 * and dwd, one after the other, in the same harness: the scale benchmark's seed and shoot-API simulator for the
 * prober ({@link ProberVersusRun}), the weeder benchmark's first-deletion trial for the weeder
 * ({@link WeederVersusRun}), each observed only from outside the process. Repeats the pair, alternating which runs
 * first, and prints one table with both columns and their ratio; writes it to
 * {@code bootstrap/target/bench-versus/result-<N>.md}, the runs' logs and audit logs beside it.
 */
@EnabledIfSystemProperty(named = Implementation.ORIGINAL_BINARY, matches = ".+")
class VersusBenchIT {

    @Test
    void dwdAndTheOriginalSideBySide() throws Exception {
        var settings = VersusSettings.fromSystemProperties(DwdProcess.REPOSITORY.resolve("bootstrap/target"));
        long needed = (3L << 30) + settings.shoots() * 400_000L;
        if (ProcFs.memAvailable() < needed) {
            throw new IllegalStateException("the benchmark with " + settings.shoots() + " shoots needs about "
                    + (needed >> 20) + " MiB of free memory; only " + (ProcFs.memAvailable() >> 20) + " MiB are available");
        }
        Implementation.originalBinary();
        Instant started = Instant.now();
        Path out = Files.createDirectories(settings.out().resolve(settings.shoots() + "-"
                + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(started)));
        String dwdVersion = warmLauncher();
        Thread killChildren = new Thread(() -> ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly));
        Runtime.getRuntime().addShutdownHook(killChildren);
        var table = new VersusTable();
        var order = new ArrayList<String>();
        try {
            for (int repeat = 1; repeat <= settings.repeats(); repeat++) {
                List<Implementation> pair = settings.pair(repeat);
                order.add(String.join(" then ", pair.stream().map(Implementation::label).toList()));
                if (settings.shoots() > 0) {
                    for (Implementation implementation : pair) {
                        Path dir = out.resolve("repeat-" + repeat).resolve(implementation.label() + "-prober");
                        try {
                            table.add(implementation, repeat, ProberVersusRun.run(implementation, settings, dir));
                        } catch (Exception failed) {
                            table.add(implementation, repeat, failure("Prober", dir, failed));
                        }
                    }
                }
                if (settings.weeder()) {
                    for (Implementation implementation : pair) {
                        String load = ProcFs.loadAverage();
                        System.out.printf("bench-versus: %s weeder: load average %s at the start%n",
                                implementation.label(), load);
                        Path dir = out.resolve("repeat-" + repeat).resolve(implementation.label() + "-weeder");
                        try {
                            FirstDeletions deletions = WeederVersusRun.run(implementation, dir, settings.weederJvm(),
                                    settings.warmTrials(), settings.freshTrials(), settings.weederIdle());
                            table.add(implementation, repeat, weederFigures(load, deletions));
                        } catch (Exception failed) {
                            table.add(implementation, repeat, failure("Weeder", dir, failed));
                        }
                    }
                }
            }
        } finally {
            Runtime.getRuntime().removeShutdownHook(killChildren);
        }
        String result = header(settings, started, dwdVersion, order) + "\n" + table.render();
        Files.writeString(out.resolve("result.md"), result);
        Files.writeString(settings.out().resolve("result-" + settings.shoots() + ".md"), result);
        System.out.println("\n" + result + "\n(also in " + out.resolve("result.md") + ")");
    }

    /** A run that failed (a process that exited, a start-up that never ended) is a row; the others go on. */
    private static List<Figure> failure(String part, Path dir, Exception failed) {
        failed.printStackTrace(System.out);
        return List.of(Figure.text(part + " run failed (see " + dir + ")",
                String.valueOf(failed.getMessage()).replace('|', '/').replace('\n', ' ')));
    }

    private static List<Figure> weederFigures(String load, FirstDeletions deletions) {
        var figures = new ArrayList<Figure>();
        figures.add(Figure.text("Weeder: load average at its start", load));
        String first = "Weeder, slice update done → pod DELETE done (ms, audit log): ";
        add(figures, first + "warm process", deletions.warm());
        if (!deletions.warm().isEmpty()) {
            figures.add(Figure.of(first + "warm process, its first trial", deletions.warm().getFirst(), "%.1f"));
        }
        add(figures, first + "fresh processes", deletions.fresh());
        figures.add(Figure.of("Weeder: fresh process start → leading with its slice watch open, p50 (s)",
                ProberVersusRun.percentile(deletions.freshReady(), 50), "%.2f"));
        return figures;
    }

    private static void add(List<Figure> figures, String row, List<Double> millis) {
        if (millis.isEmpty()) {
            return;
        }
        figures.add(Figure.of(row + ", p50", ProberVersusRun.percentile(millis, 50), "%.1f"));
        figures.add(Figure.of(row + ", p99", ProberVersusRun.percentile(millis, 99), "%.1f"));
        figures.add(Figure.of(row + ", max", ProberVersusRun.percentile(millis, 100), "%.1f"));
    }

    /**
     * Runs {@code ./dwd version} once: after a build the launcher trains its AOT cache on its first start, which
     * belongs to the build, not to the first measured start. Returns what it printed.
     */
    private static String warmLauncher() throws Exception {
        Process version = new ProcessBuilder(DwdProcess.REPOSITORY.resolve("dwd").toString(), "version")
                .redirectErrorStream(true).start();
        String printed = new String(version.getInputStream().readAllBytes()).strip();
        if (!version.waitFor(5, TimeUnit.MINUTES) || version.exitValue() != 0) {
            throw new IllegalStateException("./dwd version failed: " + printed);
        }
        return printed.lines().findFirst().orElse("");
    }

    private static String header(VersusSettings settings, Instant started, String dwdVersion, List<String> order)
            throws Exception {
        Path binary = Implementation.originalBinary();
        Path stamp = binary.resolveSibling(".built-from");
        String original = Files.exists(stamp) ? Files.readString(stamp).strip() : binary.toString();
        var header = new StringBuilder();
        header.append(String.format(Locale.ROOT, "### dwd and the original, %s UTC (%.0f min)%n%n",
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC).format(started),
                Duration.between(started, Instant.now()).toSeconds() / 60.0));
        header.append("- original: ").append(original).append("; dwd: ").append(dwdVersion)
                .append(" (`./dwd`, JVM options: prober `").append(settings.proberJvm()).append("`, weeder `")
                .append(settings.weederJvm()).append("`)\n");
        header.append(String.format(Locale.ROOT, "- machine: %d cores, %.1f GiB; each run's load average is in the table%n",
                ProcFs.cores(), ProcFs.memTotal() / 1073741824.0));
        if (settings.shoots() > 0) {
            header.append(String.format(Locale.ROOT, "- prober: %d shoots (simulated shoot APIs, %d nodes each), Gardener's "
                            + "config and flags (%s); warm-up %d s, window %.1f min; meltdown of every %d-th shoot%n",
                    settings.shoots(), settings.nodes(), String.join(" ", ScaleBenchIT.GARDENER_FLAGS),
                    settings.warmUp().toSeconds(), settings.window().toSeconds() / 60.0,
                    Math.max(1, Math.round(1 / settings.meltdown()))));
        }
        if (settings.weeder()) {
            header.append(String.format(Locale.ROOT, "- weeder: Gardener's config, --enable-leader-election=true; %d warm "
                            + "trials (idle %d s first), %d fresh processes%n", settings.warmTrials(),
                    settings.weederIdle().toSeconds(), settings.freshTrials()));
        }
        header.append("- repeats: ").append(String.join("; ", order))
                .append(" (each cell lists the repeats in this order; **flips**: dwd ahead in one, behind in another)\n");
        return header.toString();
    }
}
