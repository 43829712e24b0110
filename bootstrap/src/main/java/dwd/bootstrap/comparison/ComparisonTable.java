package dwd.bootstrap.comparison;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.StreamSupport;

/**
 * The comparison with the original as an operator reads it, from the {@code /comparison} pages of the
 * prober and the weeder: per shoot and overall, the episodes and how many were alike, the agreement, dwd's
 * lead (p50 and p99 over the episodes of both, picked-up ones left out; positive: dwd ahead); then every
 * disagreement with what each side did and why dwd decided as it did, the open episodes, and the changes not
 * counted as the original's.
 */
public final class ComparisonTable {

    /** One page as read: where from, and its JSON. */
    public record Page(String source, JsonNode json) { }

    private record Row(String name, List<JsonNode> episodes) { }

    private ComparisonTable() {
    }

    public static String render(List<Page> pages, boolean everyEpisode) {
        var out = new StringBuilder("dwd beside the original dependency-watchdog\n");
        List<JsonNode> episodes = new ArrayList<>();
        List<JsonNode> open = new ArrayList<>();
        List<JsonNode> others = new ArrayList<>();
        for (Page page : pages) {
            JsonNode json = page.json();
            out.append(String.format(Locale.ROOT, "  %-7s %s: since %s, window %s, the original's writes by field manager %s%n",
                    json.path("role").asText(), page.source(), time(json.path("since").asText(), ChronoUnit.SECONDS),
                    json.path("window").asText(), json.path("originalFieldManager").asText()));
            json.path("episodes").forEach(episodes::add);
            json.path("open").forEach(open::add);
            json.path("otherChanges").forEach(others::add);
        }
        out.append('\n');
        table(out, rows(episodes));

        List<JsonNode> disagreements = episodes.stream().filter(e -> !e.path("outcome").asText().equals("both")).toList();
        out.append(String.format(Locale.ROOT, "%nDisagreements (%d)%n", disagreements.size()));
        disagreements.forEach(episode -> details(out, episode, false));
        if (everyEpisode) {
            List<JsonNode> agreements = episodes.stream().filter(e -> e.path("outcome").asText().equals("both")).toList();
            out.append(String.format(Locale.ROOT, "%nAgreements (%d)%n", agreements.size()));
            agreements.forEach(episode -> details(out, episode, false));
        }
        out.append(String.format(Locale.ROOT, "%nOpen, judged as they stand (%d)%n", open.size()));
        open.forEach(episode -> details(out, episode, true));
        out.append(String.format(Locale.ROOT, "%nNot counted as the original's (%d)%n", others.size()));
        others.forEach(change -> out.append(String.format(Locale.ROOT, "  %s  %s %s by %s at %s%n",
                change.path("namespace").asText(), change.path("target").asText(), change.path("change").asText(),
                change.path("writer").asText(), time(change.path("at").asText(), ChronoUnit.MILLIS))));
        return out.toString();
    }

    private static List<Row> rows(List<JsonNode> episodes) {
        Map<String, List<JsonNode>> byShoot = new java.util.TreeMap<>();
        Map<String, List<JsonNode>> byKind = new LinkedHashMap<>();
        for (String kind : List.of("meltdown", "recovery", "weeding")) {
            byKind.put(kind, new ArrayList<>());
        }
        for (JsonNode episode : episodes) {
            byShoot.computeIfAbsent(episode.path("namespace").asText(), shoot -> new ArrayList<>()).add(episode);
            byKind.computeIfAbsent(episode.path("kind").asText(), kind -> new ArrayList<>()).add(episode);
        }
        var rows = new ArrayList<Row>();
        byShoot.forEach((shoot, list) -> rows.add(new Row(shoot, list)));
        byKind.forEach((kind, list) -> {
            if (!list.isEmpty()) {
                rows.add(new Row("all " + (kind.equals("recovery") ? "recoveries" : kind + "s"), list));
            }
        });
        rows.add(new Row("all", episodes));
        return rows;
    }

    private static void table(StringBuilder out, List<Row> rows) {
        int width = Math.max(5, rows.stream().mapToInt(row -> row.name().length()).max().orElse(5));
        String format = "%-" + width + "s  %8s  %4s  %8s  %13s  %9s  %9s  %12s  %8s%n";
        out.append(String.format(Locale.ROOT, format, "shoot", "episodes", "both", "dwd only", "original only",
                "different", "agreement", "dwd lead p50", "p99"));
        for (Row row : rows) {
            long both = count(row.episodes(), "both");
            List<Double> leads = row.episodes().stream()
                    .filter(e -> e.path("outcome").asText().equals("both") && !e.path("reconstructed").asBoolean()
                            && e.path("leadSeconds").isNumber())
                    .map(e -> e.path("leadSeconds").asDouble()).sorted().toList();
            out.append(String.format(Locale.ROOT, format, row.name(), row.episodes().size(), both,
                    count(row.episodes(), "dwd_only"), count(row.episodes(), "original_only"),
                    count(row.episodes(), "different"),
                    row.episodes().isEmpty() ? "-" : Math.round(100.0 * both / row.episodes().size()) + "%",
                    lead(percentile(leads, 0.50)), lead(percentile(leads, 0.99))));
        }
    }

    private static void details(StringBuilder out, JsonNode episode, boolean open) {
        String subject = episode.path("subject").asText();
        out.append(String.format(Locale.ROOT, "  %s  %s%s: %s%s, %s %s%n", episode.path("namespace").asText(),
                episode.path("kind").asText(), subject.isEmpty() ? "" : " of " + subject,
                episode.path("outcome").asText().replace('_', ' '),
                episode.path("leadSeconds").isNumber() ? ", dwd " + lead(episode.path("leadSeconds").asDouble()) : "",
                open ? "opened" : "decided", time(open ? episode.path("openedAt").asText() : episode.path("decidedAt").asText(),
                        ChronoUnit.SECONDS)));
        out.append("    dwd would have:  ").append(acts(episode.path("dwd"), "nothing")).append('\n');
        out.append("    the original:    ").append(acts(episode.path("original"), open ? "nothing yet" : "nothing in the window"))
                .append('\n');
        out.append("    compared:        ").append(episode.path("reason").asText())
                .append(episode.path("reconstructed").asBoolean() ? " (picked up from the seed after dwd started)" : "")
                .append('\n');
    }

    /**
     * Each action with its time, in the side's order as the page lists it (the original's in the order the API
     * server stored its writes); the reason once when every action has the same.
     */
    private static String acts(JsonNode acts, String none) {
        if (acts.isEmpty()) {
            return none;
        }
        List<JsonNode> sorted = StreamSupport.stream(acts.spliterator(), false).toList();
        boolean oneReason = sorted.stream().map(act -> act.path("why").asText()).distinct().count() == 1;
        var parts = new ArrayList<String>();
        for (JsonNode act : sorted) {
            int from = act.path("from").asInt();
            int to = act.path("to").asInt();
            String why = act.path("why").asText();
            parts.add(act.path("label").asText() + (from == to ? "" : " " + from + "→" + to) + " at "
                    + time(act.path("at").asText(), ChronoUnit.MILLIS) + (oneReason || why.isEmpty() ? "" : " (" + why + ")"));
        }
        String reason = sorted.getFirst().path("why").asText();
        return String.join("; ", parts) + (oneReason && !reason.isEmpty() ? "; " + reason : "");
    }

    /** An instant of the page to the given unit, e.g. {@code 2026-11-28T19:45:21.486Z}; as it is when it is none. */
    static String time(String instant, ChronoUnit unit) {
        try {
            return Instant.parse(instant).truncatedTo(unit).toString();
        } catch (DateTimeParseException e) {
            return instant;
        }
    }

    private static long count(List<JsonNode> episodes, String outcome) {
        return episodes.stream().filter(e -> e.path("outcome").asText().equals(outcome)).count();
    }

    /** Nearest rank; NaN for none. */
    static double percentile(List<Double> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size(), rank) - 1));
    }

    /** {@code +19.1s}, {@code -40ms}; {@code -} for none. */
    static String lead(double seconds) {
        if (Double.isNaN(seconds)) {
            return "-";
        }
        String sign = seconds < 0 ? "-" : "+";
        double magnitude = Math.abs(seconds);
        return magnitude < 1 ? sign + Math.round(magnitude * 1000) + "ms"
                : String.format(Locale.ROOT, "%s%.1fs", sign, magnitude);
    }
}
