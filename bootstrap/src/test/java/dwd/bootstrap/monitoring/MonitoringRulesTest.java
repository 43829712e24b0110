package dwd.bootstrap.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The alerting rules: valid and unit-tested by promtool (every alert firing and not firing), the
 * PrometheusRule carrying exactly the plain file's groups, and every alert documented.
 */
class MonitoringRulesTest {

    @Test
    void promtoolAcceptsTheRules() throws Exception {
        assertThat(promtool("check", "rules", MonitoringFiles.RULES.toString())).contains("SUCCESS");
    }

    @Test
    void promtoolUnitTestsPass() throws Exception {
        assertThat(promtool("test", "rules", MonitoringFiles.RULE_TESTS.getFileName().toString())).contains("SUCCESS");
    }

    @Test
    @SuppressWarnings("unchecked")
    void thePrometheusRuleCarriesThePlainFilesGroups() throws Exception {
        Map<String, Object> plain = load(MonitoringFiles.RULES);
        Map<String, Object> manifest = load(MonitoringFiles.PROMETHEUS_RULE);
        assertThat(manifest).containsEntry("apiVersion", "monitoring.coreos.com/v1").containsEntry("kind", "PrometheusRule");
        assertThat(((Map<String, Object>) manifest.get("spec")).get("groups"))
                .as("spec.groups of %s equals groups of %s: copy the groups over, indented under spec:",
                        MonitoringFiles.PROMETHEUS_RULE.getFileName(), MonitoringFiles.RULES.getFileName())
                .isEqualTo(plain.get("groups"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyAlertHasASeveritySummaryDescriptionAndRunbookSection() throws Exception {
        String runbooks = Files.readString(MonitoringFiles.MONITORING);
        List<Map<String, Object>> alerts = alerts();
        assertThat(alerts).hasSizeGreaterThanOrEqualTo(6);
        for (Map<String, Object> alert : alerts) {
            String name = (String) alert.get("alert");
            assertThat((Map<String, Object>) alert.get("labels")).as("labels of %s", name).containsKey("severity");
            var annotations = (Map<String, Object>) alert.get("annotations");
            assertThat(annotations).as("annotations of %s", name).containsKeys("summary", "description");
            assertThat(annotations.get("runbook_url"))
                    .isEqualTo("docs/monitoring.md#" + name.toLowerCase(Locale.ROOT));
            assertThat(runbooks).as("docs/monitoring.md has a runbook section for %s", name)
                    .contains("\n### " + name + "\n");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyAlertIsTestedFiringAndNotFiring() throws Exception {
        List<Map<String, Object>> tests = (List<Map<String, Object>>) load(MonitoringFiles.RULE_TESTS).get("tests");
        for (Map<String, Object> alert : alerts()) {
            String name = (String) alert.get("alert");
            var firing = new ArrayList<Object>();
            var silent = new ArrayList<Object>();
            for (Map<String, Object> test : tests) {
                for (Map<String, Object> check : (List<Map<String, Object>>) test.getOrDefault("alert_rule_test", List.of())) {
                    if (name.equals(check.get("alertname"))) {
                        ((List<?>) check.get("exp_alerts")).stream().findAny()
                                .ifPresentOrElse(any -> firing.add(check), () -> silent.add(check));
                    }
                }
            }
            assertThat(firing).as("cases where %s fires", name).isNotEmpty();
            assertThat(silent).as("cases where %s does not fire", name).isNotEmpty();
            assertThat(firing.size() + silent.size()).as("cases of %s", name).isGreaterThanOrEqualTo(2);
        }
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> alerts() throws IOException {
        var alerts = new ArrayList<Map<String, Object>>();
        for (Map<String, Object> group : (List<Map<String, Object>>) load(MonitoringFiles.RULES).get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                if (rule.containsKey("alert")) {
                    alerts.add(rule);
                }
            }
        }
        return alerts;
    }

    static Map<String, Object> load(Path file) throws IOException {
        return new Yaml().load(Files.readString(file));
    }

    /** Runs promtool in deploy/monitoring and returns its output; fails with the output when it fails. */
    private static String promtool(String... args) throws Exception {
        Path promtool = MonitoringFiles.tool("promtool").orElse(null);
        Assumptions.assumeTrue(promtool != null, "promtool not found: install Debian's prometheus package");
        var command = new ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(MonitoringFiles.DIR.toFile()).redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        assertThat(process.exitValue()).as("promtool %s:%n%s", String.join(" ", args), output).isZero();
        return output;
    }
}
