package dwd.bootstrap.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dwd.bootstrap.prober.PrometheusText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./dwd demo} run as a newcomer runs it, non-interactively (no terminal, so no colours):
 * its exit status and summary table; that its prober and weeder are {@code dwd prober} and
 * {@code dwd weeder} processes of their own, started like the demo, with Gardener's flags and their
 * own endpoints; {@code --keep}; and that it leaves no process behind, also after Ctrl-C.
 */
class DemoIT {

    static final Path REPOSITORY = Path.of(System.getProperty("dwd.repository.root", "..")).toAbsolutePath().normalize();
    static final Pattern WORK_DIRECTORY = Pattern.compile("files in (\\S+dwd-demo-\\S+)\\)");
    static final Pattern SUMMARY_ROW_OK = Pattern.compile("\\s+(\\d|  ).*\\s(ok|✓)$");
    static final Pattern ROLE_MAIN = Pattern.compile("dwd\\.bootstrap/dwd\\.bootstrap\\.Main (prober|weeder)( |$)");

    @TempDir
    Path temp;

    private Process demo;

    @AfterEach
    void stop() throws InterruptedException {
        if (demo != null && demo.isAlive()) {
            List<ProcessHandle> children = demo.descendants().toList();
            demo.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private Process start(Path output, String... extraArgs) throws IOException {
        var command = new ArrayList<>(List.of(REPOSITORY.resolve("dwd").toString(), "demo",
                "--control-plane-dir", System.getProperty("dwd.controlPlane.dir")));
        command.addAll(List.of(extraArgs));
        var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("NO_COLOR", "1");
        demo = builder.start();
        return demo;
    }

    /** Waits until the demo's output satisfies {@code condition}; on timeout, fails with what it printed. */
    private void awaitOutput(Path output, String what, Duration limit, Predicate<String> condition) throws IOException {
        try {
            await(what).atMost(limit).pollInterval(Duration.ofMillis(100))
                    .until(() -> condition.test(Files.readString(output)));
        } catch (ConditionTimeoutException timeout) {
            throw new AssertionError(what + " not seen within " + limit + "; the demo "
                    + (demo.isAlive() ? "still runs" : "exited with " + demo.exitValue()) + " and printed:\n"
                    + Files.readString(output), timeout);
        }
    }

    private static List<ProcessHandle> processesUsing(String workDirectory) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(args -> String.join(" ", args).contains(workDirectory)).orElse(false))
                .toList();
    }

    private static String workDirectory(Path output) throws IOException {
        Matcher matcher = WORK_DIRECTORY.matcher(Files.readString(output));
        return matcher.find() ? matcher.group(1) : null;
    }

    /** The demo's {@code dwd prober} and {@code dwd weeder} processes, by role. */
    private static Map<String, ProcessHandle> roles(Process demo) {
        var roles = new LinkedHashMap<String, ProcessHandle>();
        demo.descendants().forEach(process -> {
            Matcher main = ROLE_MAIN.matcher(commandLine(process));
            if (main.find()) {
                roles.put(main.group(1), process);
            }
        });
        return roles;
    }

    private static String commandLine(ProcessHandle process) {
        return process.info().arguments().map(args -> String.join(" ", args)).orElse("");
    }

    private static String flag(ProcessHandle process, String name) {
        return Arrays.stream(process.info().arguments().orElseThrow()).filter(arg -> arg.startsWith(name + "="))
                .map(arg -> arg.substring(name.length() + 1)).findFirst().orElseThrow(() -> new AssertionError(
                        "no " + name + " in " + commandLine(process)));
    }

    private static RoleProcess.Response get(String url) throws IOException {
        return RoleProcess.get(url);
    }

    private static void assertNoStackTraces(String text) {
        assertThat(text).as("no stack traces").doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void theDemoRunsTheRealRolesAsProcessesOfTheirOwnAndEndsWithAllChecksObserved() throws Exception {
        Path output = temp.resolve("demo.out");
        Process process = start(output);
        awaitOutput(output, "the network cut", Duration.ofMinutes(2), text -> text.contains("Network cut"));

        // While the story plays: two processes of the demo's, started like it, with Gardener's flags and their own ports.
        Map<String, ProcessHandle> roles = roles(process);
        assertThat(roles).as("the demo's child processes").containsOnlyKeys("prober", "weeder");
        List<String> demoArguments = List.of(process.info().arguments().orElseThrow());
        List<String> launcher = demoArguments.subList(0, demoArguments.indexOf("demo")).stream()
                .filter(argument -> !RoleProcess.writesAotCache(argument)).toList();
        assertThat(launcher).as("the demo's own launch").contains("--module", RoleProcess.MAIN_MODULE);
        for (var role : roles.entrySet()) {
            List<String> arguments = List.of(role.getValue().info().arguments().orElseThrow());
            assertThat(role.getValue().info().command()).as("the same java").isEqualTo(process.info().command());
            assertThat(arguments.subList(0, launcher.size())).as("the same JVM flags, module path and entrypoint")
                    .isEqualTo(launcher);
            assertThat(arguments.get(launcher.size())).isEqualTo(role.getKey());
            assertThat(arguments).contains("--enable-leader-election=true").anyMatch(arg -> arg.startsWith("--config-file="));
            String metrics = "http://" + flag(role.getValue(), "--metrics-bind-addr");
            String health = "http://" + flag(role.getValue(), "--health-bind-addr");
            assertThat(get(health + "/healthz").statusCode()).as(role.getKey() + " /healthz").isEqualTo(200);
            assertThat(PrometheusText.parse(get(metrics + "/metrics").body()).sum("dwd_leader_status", Map.of()))
                    .as(role.getKey() + " /metrics: leading").isEqualTo(1);
        }
        assertThat(List.of(roles.get("prober").info().arguments().orElseThrow())).as("Gardener's prober flags")
                .containsAll(DemoSettings.GARDENER_PROBER_FLAGS);

        assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("finishes in under 3 minutes").isTrue();
        String text = Files.readString(output);
        assertThat(process.exitValue()).as(text).isZero();
        assertThat(text).contains("Summary", "All steps observed.");
        assertThat(text.lines().filter(line -> SUMMARY_ROW_OK.matcher(line).matches())).as(text).hasSize(5);
        assertThat(text).as("no colours without a terminal").doesNotContain("\u001b[");
        assertNoStackTraces(text);
        assertThat(text).contains("stopped dwd prober (pid " + roles.get("prober").pid() + ")",
                "stopped dwd weeder (pid " + roles.get("weeder").pid() + ")");
        assertThat(roles.values()).noneMatch(ProcessHandle::isAlive);
        String workDirectory = workDirectory(output);
        assertThat(workDirectory).isNotNull();
        assertThat(processesUsing(workDirectory)).as("roles, etcd and kube-apiserver are gone").isEmpty();
        assertThat(Path.of(workDirectory)).doesNotExist();
    }

    @Test
    void inShadowModeTheSameStoryReportsWhatDwdWouldDoAndChangesNothing() throws Exception {
        Path output = temp.resolve("demo-shadow.out");
        Process process = start(output, "--dry-run=server");
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("finishes in under 3 minutes").isTrue();
        String text = Files.readString(output);

        assertThat(process.exitValue()).as(text).isZero();
        assertThat(text).contains("in shadow mode (--dry-run=server)", "All steps observed.");
        assertThat(text.lines().filter(line -> SUMMARY_ROW_OK.matcher(line).matches()))
                .as(text).hasSize(6).anyMatch(line -> line.contains("nothing changed") && line.contains("0 changed"));
        List<String> wouldScale = text.lines().filter(line -> line.contains(" alpha  would scale "))
                .map(line -> line.replaceAll(".* would scale (\\S+) (\\d+) -> (\\d+) replicas: (.*)$", "$1 $2->$3: $4"))
                .toList();
        assertThat(wouldScale).as(text).hasSize(6);
        assertThat(wouldScale.subList(0, 3)).as("scale-down: level 0, then kube-controller-manager")
                .containsExactlyInAnyOrder("machine-controller-manager 2->0: accepted by the API server, not persisted",
                        "cluster-autoscaler 1->0: accepted by the API server, not persisted",
                        "kube-controller-manager 3->0: accepted by the API server, not persisted")
                .last().asString().startsWith("kube-controller-manager");
        assertThat(wouldScale.subList(3, 6)).as("scale-up in level order").containsExactly(
                "kube-controller-manager 0->3: accepted by the API server, not persisted",
                "machine-controller-manager 0->2: accepted by the API server, not persisted",
                "cluster-autoscaler 0->1: accepted by the API server, not persisted");
        assertThat(text.lines().filter(line -> line.contains(" alpha  would delete crash-looping pod "))).hasSize(2);
        assertNoStackTraces(text);
    }

    @Test
    void ctrlCInTheMiddleStopsEverythingItStartedAndSaysWhat() throws Exception {
        Path output = temp.resolve("demo.out");
        Process process = start(output);
        awaitOutput(output, "the network cut", Duration.ofMinutes(2), text -> text.contains("Network cut"));
        String workDirectory = workDirectory(output);
        assertThat(processesUsing(workDirectory)).as("etcd, kube-apiserver and the roles run").hasSize(4);
        List<ProcessHandle> children = process.descendants().toList();

        new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();

        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the demo stops on Ctrl-C").isTrue();
        await("its processes are gone").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> children.stream().noneMatch(ProcessHandle::isAlive) && processesUsing(workDirectory).isEmpty());
        assertThat(Path.of(workDirectory)).doesNotExist();
        String text = Files.readString(output);
        assertThat(text).as(text).contains("asked to stop; stopping everything it started:", "stopped dwd prober (pid ",
                "stopped dwd weeder (pid ", "stopped kube-apiserver (pid ", "stopped etcd (pid ",
                "removed the work directory " + workDirectory);
        assertThat(text).as("no summary after Ctrl-C").doesNotContain("Summary");
        assertNoStackTraces(text);
    }

    @Test
    void withKeepTheRolesStayUpAtThePrintedUrlsUntilCtrlCStopsEverything() throws Exception {
        Path output = temp.resolve("demo-keep.out");
        Process process = start(output, "--keep", "--verbose");
        awaitOutput(output, "the story and the URLs", Duration.ofMinutes(3),
                text -> text.lines().filter(line -> line.trim().startsWith("/readyz")).count() == 2);
        String text = Files.readString(output);
        assertThat(text).as(text).contains("All steps observed.", "Ctrl-C stops everything.");
        assertThat(process.isAlive()).as("still running after the story").isTrue();
        assertThat(text.lines()).as("--verbose: the roles' own log lines, by role")
                .anyMatch(line -> line.matches("prober [│|] \\{.*") && line.contains("became leader of Lease garden/dwd-prober-leader-election"))
                .anyMatch(line -> line.matches("weeder [│|] \\{.*") && line.contains("became leader of Lease garden/dwd-weeder-leader-election"));

        Map<String, Map<String, String>> urls = urlsByRole(text);
        assertThat(urls).containsOnlyKeys("prober", "weeder");
        assertThat(urls.get("prober")).containsOnlyKeys("/metrics", "/probes", "/healthz", "/readyz");
        assertThat(urls.get("weeder")).containsOnlyKeys("/metrics", "/weeders", "/healthz", "/readyz");
        Map<String, ProcessHandle> roles = roles(process);
        assertThat(roles).containsOnlyKeys("prober", "weeder");
        for (String role : roles.keySet()) {
            assertThat(text).containsPattern("dwd " + role + "\\s+pid " + roles.get(role).pid());
            assertThat(get(urls.get(role).get("/healthz")).statusCode()).as(role + " /healthz").isEqualTo(200);
            assertThat(get(urls.get(role).get("/readyz")).statusCode()).as(role + " /readyz").isEqualTo(200);
        }

        var proberMetrics = PrometheusText.parse(get(urls.get("prober").get("/metrics")).body());
        assertThat(proberMetrics.sum("dwd_scale_operations_total",
                Map.of("shoot", DemoSettings.ALPHA, "direction", "down", "result", "scaled"))).as("the meltdown").isEqualTo(3);
        assertThat(proberMetrics.sum("dwd_scale_operations_total", Map.of("shoot", DemoSettings.BETA))).isZero();
        String probes = get(urls.get("prober").get("/probes")).body();
        assertThat(probes).contains("\"count\":2", "\"namespace\":\"" + DemoSettings.ALPHA + "\"",
                "\"namespace\":\"" + DemoSettings.BETA + "\"");
        var weederMetrics = PrometheusText.parse(get(urls.get("weeder").get("/metrics")).body());
        assertThat(weederMetrics.sum("dwd_pods_deleted_total", Map.of("service", "etcd-main-client"))).isEqualTo(2);
        assertThat(get(urls.get("weeder").get("/weeders")).body()).contains("\"weeders\":");

        // The printed kubectl command works (its cache goes to this test's HOME).
        String kubectl = text.lines().map(String::trim).filter(line -> line.startsWith("kubectl "))
                .findFirst().orElseThrow().substring("kubectl".length()).trim();
        var look = new ProcessBuilder(List.of(kubectl.split(" "))).redirectErrorStream(true);
        look.environment().put("HOME", temp.toString());
        Process kubectlRun = look.start();
        String listed = new String(kubectlRun.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kubectlRun.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kubectlRun.exitValue()).as(listed).isZero();
        assertThat(listed).contains("kube-controller-manager", "dwd-prober-leader-election", "dwd-weeder-leader-election");

        String workDirectory = workDirectory(output);
        List<ProcessHandle> children = process.descendants().toList();
        assertThat(children).hasSize(4);
        new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();

        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("Ctrl-C stops the kept demo").isTrue();
        assertThat(children).noneMatch(ProcessHandle::isAlive);
        assertThat(processesUsing(workDirectory)).isEmpty();
        assertThat(Path.of(workDirectory)).doesNotExist();
        String stopped = Files.readString(output);
        assertThat(stopped).contains("stopped dwd prober (pid " + roles.get("prober").pid() + ")",
                "stopped dwd weeder (pid " + roles.get("weeder").pid() + ")", "stopped kube-apiserver (pid ",
                "stopped etcd (pid ", "removed the work directory " + workDirectory);
        assertThatThrownBy(() -> get(urls.get("prober").get("/metrics"))).as("nothing answers any more")
                .isInstanceOf(IOException.class);
        assertNoStackTraces(stopped.lines().filter(line -> !line.matches("(prober|weeder) [│|] .*"))
                .collect(java.util.stream.Collectors.joining("\n")));
    }

    /** The URL block {@code --keep} prints: {@code dwd prober   pid N} followed by {@code /path  URL} lines. */
    private static Map<String, Map<String, String>> urlsByRole(String text) {
        var urls = new LinkedHashMap<String, Map<String, String>>();
        Optional<String> role = Optional.empty();
        for (String line : text.lines().map(String::trim).toList()) {
            Matcher header = Pattern.compile("^dwd (prober|weeder)\\s+pid \\d+$").matcher(line);
            Matcher url = Pattern.compile("^(/\\w+)\\s+(http://\\S+)$").matcher(line);
            if (header.matches()) {
                role = Optional.of(header.group(1));
                urls.put(role.get(), new LinkedHashMap<>());
            } else if (url.matches() && role.isPresent()) {
                urls.get(role.get()).put(url.group(1), url.group(2));
            }
        }
        return urls;
    }
}
