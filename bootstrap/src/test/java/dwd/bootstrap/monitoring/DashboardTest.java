package dwd.bootstrap.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard's structure, as far as it can be checked without Grafana: what its queries
 * return is {@link MonitoringIT}'s part.
 */
class DashboardTest {

    private static final Pattern DWD_SERIES = Pattern.compile("\\bdwd_[a-z_]+\\b");
    private final JsonObject dashboard = MonitoringFiles.dashboard();

    @Test
    void everyPanelHasAUniqueIdATitleAndAPlaceOnTheGrid() {
        var ids = new HashSet<Integer>();
        var cells = new HashSet<String>();
        for (JsonObject panel : MonitoringFiles.panels(dashboard)) {
            String title = panel.get("title").getAsString();
            assertThat(ids.add(panel.get("id").getAsInt())).as("id of %s is unique", title).isTrue();
            assertThat(title).isNotBlank();
            JsonObject grid = panel.getAsJsonObject("gridPos");
            int x = grid.get("x").getAsInt();
            int y = grid.get("y").getAsInt();
            int w = grid.get("w").getAsInt();
            int h = grid.get("h").getAsInt();
            assertThat(w).as("width of %s", title).isPositive();
            assertThat(h).as("height of %s", title).isPositive();
            assertThat(x + w).as("%s fits the 24 columns", title).isLessThanOrEqualTo(24);
            for (int column = x; column < x + w; column++) {
                for (int row = y; row < y + h; row++) {
                    assertThat(cells.add(column + "," + row)).as("%s overlaps another panel at %d,%d", title, column, row)
                            .isTrue();
                }
            }
        }
    }

    @Test
    void everyDataPanelQueriesTheSeedPrometheusWithAtLeastOneExpression() {
        List<JsonObject> panels = MonitoringFiles.dataPanels(dashboard);
        assertThat(panels).hasSizeGreaterThanOrEqualTo(20);
        for (JsonObject panel : panels) {
            String title = panel.get("title").getAsString();
            assertThat(panel.get("description").getAsString()).as("description of %s", title).isNotBlank();
            assertThat(panel.getAsJsonObject("datasource").get("uid").getAsString()).as("datasource of %s", title)
                    .isEqualTo("${datasource}");
            assertThat(panel.getAsJsonArray("targets")).as("targets of %s", title).isNotEmpty();
            var refIds = new HashSet<String>();
            for (JsonElement element : panel.getAsJsonArray("targets")) {
                JsonObject target = element.getAsJsonObject();
                assertThat(target.getAsJsonObject("datasource").get("uid").getAsString()).isEqualTo("${datasource}");
                assertThat(refIds.add(target.get("refId").getAsString())).as("refIds of %s are unique", title).isTrue();
                assertThat(target.get("expr").getAsString()).as("query %s of %s", target.get("refId"), title).isNotBlank();
            }
        }
    }

    @Test
    void everyVariableUsedExistsAndEveryVariableIsUsed() {
        var defined = MonitoringFiles.variables(dashboard);
        assertThat(defined).containsKeys("datasource", "role", "shoot");
        var used = new TreeSet<String>();
        var texts = new ArrayList<String>();
        MonitoringFiles.queries(dashboard).forEach(query -> texts.add(query.expr()));
        defined.values().forEach(query -> query.ifPresent(texts::add));
        for (String text : texts) {
            Matcher matcher = MonitoringFiles.VARIABLE.matcher(text);
            while (matcher.find()) {
                used.add(matcher.group(1));
            }
        }
        for (String variable : used) {
            assertThat(defined.containsKey(variable) || MonitoringFiles.GRAFANA_VARIABLES.contains(variable))
                    .as("$%s is a variable of the dashboard or of Grafana", variable).isTrue();
        }
        assertThat(used).as("every query variable is used").contains("role", "shoot");
    }

    @Test
    void everyDwdSeriesOfTheDashboardAndTheRulesIsDocumented() throws Exception {
        String documented = Files.readString(MonitoringFiles.OPERABILITY);
        String used = Files.readString(MonitoringFiles.DASHBOARD) + Files.readString(MonitoringFiles.RULES);
        Set<String> series = new TreeSet<>();
        Matcher matcher = DWD_SERIES.matcher(used);
        while (matcher.find()) {
            series.add(matcher.group().replaceAll("_(bucket|sum|count|max)$", ""));
        }
        assertThat(series).isNotEmpty();
        for (String name : series) {
            assertThat(documented).as("%s is in the metrics table of docs/operability.md", name).contains("`" + name + "`");
        }
    }
}
