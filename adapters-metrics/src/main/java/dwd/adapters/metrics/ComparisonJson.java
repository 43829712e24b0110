package dwd.adapters.metrics;

import dwd.application.comparison.Comparison;
import dwd.domain.comparison.Act;
import dwd.domain.comparison.Episode;
import dwd.domain.comparison.OtherChange;
import dwd.domain.comparison.Outcome;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The {@code /comparison} page: the comparison with the original as JSON, for {@code dwd compare} and for
 * operators: the totals since dwd started, the decided episodes kept (oldest first), those still open (judged
 * as they stand), and the changes not counted as the original's.
 */
public final class ComparisonJson implements Supplier<String> {

    private final String role;
    private final String originalManager;
    private final Comparison comparison;
    private final Supplier<Instant> now;

    public ComparisonJson(String role, String originalManager, Comparison comparison, Supplier<Instant> now) {
        this.role = role;
        this.originalManager = originalManager;
        this.comparison = comparison;
        this.now = now;
    }

    @Override
    public String get() {
        Comparison.Report report = comparison.report();
        var page = new LinkedHashMap<String, Object>();
        page.put("generatedAt", now.get());
        page.put("role", role);
        page.put("since", report.since());
        page.put("window", report.window());
        page.put("originalFieldManager", originalManager);
        var totals = new LinkedHashMap<String, Object>();
        for (Outcome outcome : Outcome.values()) {
            totals.put(name(outcome), report.totals().getOrDefault(outcome, 0L));
        }
        page.put("totals", totals);
        page.put("episodes", report.decided().stream().map(ComparisonJson::episode).toList());
        page.put("open", report.open().stream().map(ComparisonJson::episode).toList());
        page.put("otherChanges", report.otherChanges().stream().map(ComparisonJson::otherChange).toList());
        return Json.write(page);
    }

    private static Map<String, Object> episode(Episode episode) {
        var out = new LinkedHashMap<String, Object>();
        out.put("namespace", episode.namespace());
        out.put("kind", name(episode.kind()));
        out.put("subject", episode.subject());
        out.put("openedAt", episode.openedAt());
        out.put("decidedAt", episode.decidedAt());
        out.put("outcome", name(episode.outcome()));
        out.put("reason", episode.judgement().reason());
        out.put("leadSeconds", episode.judgement().lead().map(lead -> lead.toMillis() / 1000.0));
        out.put("reconstructed", episode.reconstructed());
        out.put("dwd", acts(episode.dwd()));
        out.put("original", acts(episode.original()));
        return out;
    }

    private static List<Map<String, Object>> acts(List<Act> acts) {
        return acts.stream().map(act -> {
            var out = new LinkedHashMap<String, Object>();
            out.put("target", act.target());
            out.put("label", act.label());
            out.put("from", act.from());
            out.put("to", act.to());
            out.put("at", act.at());
            out.put("why", act.why());
            out.put("reconstructed", act.reconstructed());
            return (Map<String, Object>) out;
        }).toList();
    }

    private static Map<String, Object> otherChange(OtherChange change) {
        var out = new LinkedHashMap<String, Object>();
        out.put("namespace", change.namespace());
        out.put("target", change.target());
        out.put("change", change.change());
        out.put("writer", change.writer());
        out.put("at", change.at());
        return out;
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
