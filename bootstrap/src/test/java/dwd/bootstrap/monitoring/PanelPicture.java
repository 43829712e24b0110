package dwd.bootstrap.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.bootstrap.monitoring.MonitoringIT.AlertWatch;
import dwd.bootstrap.monitoring.MonitoringIT.PanelData;
import dwd.bootstrap.monitoring.MonitoringIT.Point;
import dwd.bootstrap.monitoring.MonitoringIT.Series;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Draws the key panels of a {@link MonitoringIT} run (the data Prometheus returned for the
 * dashboard's own queries) as an HTML page of SVG charts, and has headless Chromium render it into a
 * PNG: Grafana is not available offline, so this is the dashboard's picture.
 */
final class PanelPicture {

    /** The panels drawn, with the queries drawn of each (all when empty). */
    static final Map<String, List<String>> PANELS = panels();
    static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
    static final int WIDTH = 620;
    static final int HEIGHT = 250;
    static final int PLOT_LEFT = 60;
    static final int PLOT_TOP = 30;
    static final int PLOT_WIDTH = WIDTH - PLOT_LEFT - 20;
    static final int PLOT_HEIGHT = 140;
    private static final Pattern LEGEND = Pattern.compile("\\{\\{\\s*(\\w+)\\s*}}");

    private PanelPicture() {
    }

    private static Map<String, List<String>> panels() {
        var panels = new java.util.LinkedHashMap<String, List<String>>();
        panels.put("Shoots by state", List.of());
        panels.put("Expired node lease fraction", List.of());
        panels.put("Scale operations by direction and result", List.of());
        panels.put("Scale-downs in effect", List.of("B")); // for how long; A is the instant it began
        panels.put("Probe failures by stage and reason", List.of());
        panels.put("API request latency", List.of("A")); // p99
        panels.put("Pods deleted by shoot and owner", List.of());
        panels.put("Leader per role", List.of());
        return panels;
    }

    /** Writes {@code png}; the page and Chromium's profile go to {@code dir}. */
    static void draw(Instant runStart, Instant end, Map<String, PanelData> panels, AlertWatch alerts, Path png, Path dir) {
        // The picture starts with the first scrape, a moment before the processes' first values.
        Instant start = PANELS.keySet().stream().map(panels::get).flatMap(panel -> panel.byRef().values().stream())
                .flatMap(List::stream).flatMap(series -> series.points().stream())
                .map(point -> Instant.ofEpochMilli((long) (point.time() * 1000)).minusSeconds(2))
                .min(Instant::compareTo).filter(first -> first.isAfter(runStart)).orElse(runStart);
        Path chromium = MonitoringFiles.tool("chromium").orElseThrow(
                () -> new IllegalStateException("chromium not found: install Debian's chromium package"));
        var page = new StringBuilder("""
                <!DOCTYPE html><html><head><meta charset="utf-8"><style>
                body{font-family:sans-serif;margin:16px;background:#f7f7f9;width:1280px}
                h1{font-size:18px;margin:0 0 4px} p{font-size:12px;color:#555;margin:0 0 10px}
                .grid{display:grid;grid-template-columns:repeat(2,%dpx);gap:12px}
                svg{background:#fff;border:1px solid #ddd}
                text{font-size:11px;fill:#333}
                </style></head><body>
                """.formatted(WIDTH));
        page.append("<h1>dwd on a real Prometheus: a meltdown, a recovery and a weeding</h1>")
                .append("<p>deploy/monitoring/dwd-dashboard.json, its queries run against Prometheus scraping ./dwd prober and ")
                .append("./dwd weeder (MonitoringIT, ")
                .append(DateTimeFormatter.ISO_LOCAL_DATE.format(start.atZone(ZoneOffset.UTC)))
                .append("); x axis: seconds since the first scrape.</p>");
        page.append("<p>Background: alert ").append(MonitoringIT.MELTDOWN_ALERT).append(" (its 30 minutes cut to ")
                .append(MonitoringIT.MELTDOWN_ALERT_FOR.toSeconds())
                .append(" s) <span style=\"background:#ffb00040\">&nbsp;pending&nbsp;</span> ")
                .append("<span style=\"background:#d6272840\">&nbsp;firing&nbsp;</span>, then resolved.</p>");
        List<AlertSpan> spans = alertSpans(alerts, end);
        page.append("<div class=\"grid\">");
        PANELS.forEach((title, refs) -> {
            PanelData panel = panels.get(title);
            assertThat(panel).as("panel %s", title).isNotNull();
            page.append(chart(panel, refs, spans, start, end));
        });
        page.append("</div></body></html>\n");
        try {
            Path html = Files.writeString(dir.resolve("picture.html"), page.toString());
            Files.createDirectories(png.getParent());
            var command = List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                    "--hide-scrollbars", "--user-data-dir=" + dir.resolve("chromium"), "--window-size=1312,1150",
                    "--screenshot=" + png, html.toUri().toString());
            var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile());
            builder.environment().put("HOME", dir.toString()); // its caches stay in the test's directory
            Process process = builder.start();
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("chromium finishes").isTrue();
            assertThat(process.exitValue()).as("chromium: %s", Files.readString(dir.resolve("chromium.log"))).isZero();
            assertThat(Files.size(png)).isPositive();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A stretch of time during which the meltdown alert was in {@code state}. */
    private record AlertSpan(Instant from, Instant to, String state) {
        String fill() {
            return state.equals("firing") ? "#d62728" : "#ffb000";
        }
    }

    /** The meltdown alert's pending and firing spans over the run. */
    private static List<AlertSpan> alertSpans(AlertWatch alerts, Instant end) {
        var spans = new ArrayList<AlertSpan>();
        AlertWatch.Change previous = null;
        List<AlertWatch.Change> changes = new ArrayList<>(alerts.changes().stream()
                .filter(change -> change.alert().equals(MonitoringIT.MELTDOWN_ALERT)).toList());
        changes.add(new AlertWatch.Change(end, MonitoringIT.MELTDOWN_ALERT, "", "end"));
        for (AlertWatch.Change change : changes) {
            if (previous != null && List.of("pending", "firing").contains(previous.state())) {
                spans.add(new AlertSpan(previous.at(), change.at(), previous.state()));
            }
            previous = change;
        }
        return spans;
    }

    private static String chart(PanelData panel, List<String> refs, List<AlertSpan> spans, Instant start, Instant end) {
        double t0 = start.toEpochMilli() / 1000.0;
        double span = seconds(start, end);
        var lines = new ArrayList<String>();
        var labels = new ArrayList<String>();
        var drawn = panel.byRef().entrySet().stream().filter(ref -> refs.isEmpty() || refs.contains(ref.getKey())).toList();
        double max = 0;
        for (Map.Entry<String, List<Series>> ref : drawn) {
            for (Series series : ref.getValue()) {
                if (!series.points().isEmpty()) {
                    max = Math.max(max, series.max());
                }
            }
        }
        double top = niceCeiling(max);
        int colour = 0;
        for (Map.Entry<String, List<Series>> ref : drawn) {
            for (Series series : ref.getValue()) {
                if (series.points().isEmpty()) {
                    continue;
                }
                String stroke = COLOURS[colour++ % COLOURS.length];
                for (List<Point> run : runs(series.points())) {
                    var path = new StringBuilder();
                    for (Point point : run) {
                        double x = PLOT_LEFT + PLOT_WIDTH * (point.time() - t0) / span;
                        double y = PLOT_TOP + PLOT_HEIGHT * (1 - point.value() / top);
                        path.append(path.isEmpty() ? "" : " ").append("%.1f,%.1f".formatted(x, y));
                    }
                    lines.add("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>".formatted(stroke,
                            path));
                }
                labels.add("<tspan style=\"fill:%s\">&#9632;</tspan> %s".formatted(stroke,
                        escape(legend(panel.legends().get(ref.getKey()), series.labels(), ref.getKey()))));
            }
        }
        var svg = new StringBuilder("<svg width=\"%d\" height=\"%d\">".formatted(WIDTH, HEIGHT));
        svg.append("<text x=\"8\" y=\"18\" style=\"font-size:13px;font-weight:bold\">").append(escape(panel.title()))
                .append("</text>");
        for (int i = 0; i <= 2; i++) {
            double y = PLOT_TOP + PLOT_HEIGHT * i / 2.0;
            svg.append("<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>"
                    .formatted(PLOT_LEFT, PLOT_LEFT + PLOT_WIDTH, y, y));
            svg.append("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>"
                    .formatted(PLOT_LEFT - 6, y + 4, number(top * (2 - i) / 2.0)));
        }
        for (int second = 0; second <= span; second += 10) {
            double x = PLOT_LEFT + PLOT_WIDTH * second / span;
            svg.append("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>".formatted(x, PLOT_TOP + PLOT_HEIGHT + 14,
                    second));
        }
        for (AlertSpan alert : spans) {
            double from = PLOT_LEFT + PLOT_WIDTH * Math.max(0, seconds(start, alert.from())) / span;
            double to = PLOT_LEFT + PLOT_WIDTH * Math.min(span, seconds(start, alert.to())) / span;
            svg.append("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" fill-opacity=\"0.15\"/>"
                    .formatted(from, PLOT_TOP, Math.max(0, to - from), PLOT_HEIGHT, alert.fill()));
        }
        lines.forEach(svg::append);
        for (int i = 0; i < labels.size() && i < 6; i++) {
            svg.append("<text x=\"%d\" y=\"%d\">%s</text>".formatted(8 + (i % 2) * 305, PLOT_TOP + PLOT_HEIGHT + 32 + (i / 2) * 14,
                    labels.get(i)));
        }
        return svg.append("</svg>").toString();
    }

    /** Splits a series where it has no value for more than two seconds: a gap stays a gap. */
    private static List<List<Point>> runs(List<Point> points) {
        var runs = new ArrayList<List<Point>>();
        List<Point> run = new ArrayList<>();
        for (Point point : points) {
            if (!run.isEmpty() && point.time() - run.getLast().time() > 2) {
                runs.add(run);
                run = new ArrayList<>();
            }
            run.add(point);
        }
        runs.add(run);
        return runs;
    }

    private static String legend(String format, Map<String, String> labels, String refId) {
        if (format == null || format.isBlank()) {
            String shown = labels.entrySet().stream().filter(e -> !e.getKey().equals("__name__"))
                    .map(e -> e.getKey() + "=" + e.getValue()).reduce((a, b) -> a + ", " + b).orElse("");
            return refId + (shown.isEmpty() ? "" : " " + shown);
        }
        Matcher matcher = LEGEND.matcher(format);
        var out = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(out, Matcher.quoteReplacement(labels.getOrDefault(matcher.group(1), "")));
        }
        return matcher.appendTail(out).toString();
    }

    private static double niceCeiling(double max) {
        if (max <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(max)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (max <= step * magnitude) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String number(double value) {
        if (value != 0 && Math.abs(value) < 0.01) {
            return String.format(Locale.ROOT, "%.0e", value);
        }
        return String.format(Locale.ROOT, value == Math.rint(value) ? "%.0f" : "%.2f", value);
    }

    private static double seconds(Instant from, Instant to) {
        return (to.toEpochMilli() - from.toEpochMilli()) / 1000.0;
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
