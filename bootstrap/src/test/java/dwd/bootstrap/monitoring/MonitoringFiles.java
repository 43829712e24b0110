package dwd.bootstrap.monitoring;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.bootstrap.DwdProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;

/** deploy/monitoring as the tests read it: the dashboard's panels and queries, the rule files, the system tools. */
final class MonitoringFiles {

    static final Path DIR = DwdProcess.REPOSITORY.resolve("deploy/monitoring");
    static final Path DASHBOARD = DIR.resolve("dwd-dashboard.json");
    static final Path RULES = DIR.resolve("dwd-rules.yaml");
    static final Path RULE_TESTS = DIR.resolve("dwd-rules.test.yaml");
    static final Path PROMETHEUS_RULE = DIR.resolve("dwd-prometheusrule.yaml");
    static final Path OPERABILITY = DwdProcess.REPOSITORY.resolve("docs/operability.md");
    static final Path MONITORING = DwdProcess.REPOSITORY.resolve("docs/monitoring.md");

    /** Grafana's own variables a query may use besides the dashboard's. */
    static final List<String> GRAFANA_VARIABLES = List.of("__rate_interval", "__range", "__interval");

    /** A variable reference in a query: {@code $name} or {@code ${name}}. */
    static final Pattern VARIABLE = Pattern.compile("\\$\\{?(\\w+)}?");

    /** One query of a panel, with its legend format ({@code {{label}}} placeholders). */
    record Query(String panel, String refId, String expr, boolean instant, String legend) { }

    private MonitoringFiles() {
    }

    static JsonObject dashboard() {
        try {
            return JsonParser.parseString(Files.readString(DASHBOARD)).getAsJsonObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every panel, rows included, in the order of the file. */
    static List<JsonObject> panels(JsonObject dashboard) {
        var panels = new ArrayList<JsonObject>();
        for (JsonElement panel : dashboard.getAsJsonArray("panels")) {
            panels.add(panel.getAsJsonObject());
            if (panel.getAsJsonObject().has("panels")) { // a collapsed row carries its panels
                panel.getAsJsonObject().getAsJsonArray("panels").forEach(inner -> panels.add(inner.getAsJsonObject()));
            }
        }
        return panels;
    }

    /** The panels that show data (not rows). */
    static List<JsonObject> dataPanels(JsonObject dashboard) {
        return panels(dashboard).stream().filter(panel -> !"row".equals(panel.get("type").getAsString())).toList();
    }

    /** Every query of every data panel. */
    static List<Query> queries(JsonObject dashboard) {
        var queries = new ArrayList<Query>();
        for (JsonObject panel : dataPanels(dashboard)) {
            for (JsonElement target : Optional.ofNullable(panel.getAsJsonArray("targets")).orElseGet(JsonArray::new)) {
                JsonObject t = target.getAsJsonObject();
                queries.add(new Query(panel.get("title").getAsString(), t.get("refId").getAsString(),
                        t.get("expr").getAsString(), t.has("instant") && t.get("instant").getAsBoolean(),
                        t.has("legendFormat") ? t.get("legendFormat").getAsString() : ""));
            }
        }
        return queries;
    }

    /** The dashboard's variables by name, each with its query (none for the datasource variable). */
    static Map<String, Optional<String>> variables(JsonObject dashboard) {
        var variables = new java.util.LinkedHashMap<String, Optional<String>>();
        StreamSupport.stream(dashboard.getAsJsonObject("templating").getAsJsonArray("list").spliterator(), false)
                .map(JsonElement::getAsJsonObject)
                .forEach(variable -> variables.put(variable.get("name").getAsString(),
                        variable.get("query").isJsonObject()
                                ? Optional.of(variable.getAsJsonObject("query").get("query").getAsString())
                                : Optional.empty()));
        return variables;
    }

    /** Replaces every variable in {@code expr} by its value; a variable without a value is an error. */
    static String substitute(String expr, Map<String, String> values) {
        Matcher matcher = VARIABLE.matcher(expr);
        var out = new StringBuilder();
        while (matcher.find()) {
            String value = values.get(matcher.group(1));
            if (value == null) {
                throw new IllegalArgumentException("no value for $" + matcher.group(1) + " in: " + expr);
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    /** The full path of a system tool (on PATH), if installed. */
    static Optional<Path> tool(String name) {
        return Optional.ofNullable(System.getenv("PATH")).stream()
                .flatMap(path -> java.util.Arrays.stream(path.split(java.io.File.pathSeparator)))
                .map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
