package dwd.bootstrap.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dwd.bootstrap.Main;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code dwd check --file}: output, exit codes and errors, through the real command line. */
class CheckCommandTest {

    private static final String CONFIG = """
            conditions:
              negativePolarity: [Stalled, Reconciling, FetchFailed]
              positivePolarity: [RemoteAvailable]
            """;

    private static final String CLEAN = """
            apiVersion: source.example.com/v1
            kind: GitRepository
            metadata: {name: clean, namespace: flux-system, generation: 2}
            status:
              observedGeneration: 2
              conditions:
              - {type: Ready, status: "True", reason: Succeeded, message: stored artifact, observedGeneration: 2}
            """;

    private static final String ONLY_WARNINGS = """
            apiVersion: source.example.com/v1
            kind: GitRepository
            metadata: {name: warned, namespace: flux-system, generation: 2}
            status:
              observedGeneration: 2
              conditions:
              - {type: Ready, status: "False", reason: Progressing, message: cloning, observedGeneration: 2}
              - {type: FetchFailed, status: "True", reason: GitOperationFailed, message: timeout, observedGeneration: 2}
            """;

    private static final String FAILING = """
            apiVersion: source.example.com/v1
            kind: GitRepository
            metadata: {name: failing, namespace: flux-system, generation: 3}
            status:
              observedGeneration: 4
              conditions:
              - {type: Reconciling, status: "True", reason: Progressing, message: working, observedGeneration: 3}
            """;

    @TempDir
    Path directory;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private String config;

    @BeforeEach
    void writeConfig() throws Exception {
        config = write("cc.yaml", CONFIG);
    }

    private String write(String name, String content) throws Exception {
        return Files.writeString(directory.resolve(name), content).toString();
    }

    private int check(String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "check";
        System.arraycopy(args, 0, command, 1, args.length);
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), command);
    }

    @Nested
    class ExitCodesAndOutput {

        @Test
        void aCleanObjectExitsZeroAndPrintsOnlyTheSummary() throws Exception {
            assertThat(check("--config", config, "--file", write("clean.yaml", CLEAN))).isZero();
            assertThat(out.toString()).isEqualTo("checked 1 object: 0 warnings, 0 failures\n");
            assertThat(err.toString()).isEmpty();
        }

        @Test
        void anObjectWithOnlyWarningsExitsZero() throws Exception {
            assertThat(check("--config", config, "--file", write("warned.yaml", ONLY_WARNINGS))).isZero();
            assertThat(out.toString()).isEqualTo("""
                    WARN0002 warning GitRepository/flux-system/warned: Ready condition should have the value of the \
                    negative polarity condition that's present with the highest priority: Ready != FetchFailed \
                    (reason "Progressing" != "GitOperationFailed", message "cloning" != "timeout")
                    checked 1 object: 1 warning, 0 failures
                    """);
        }

        @Test
        void theShippedExampleConfigIsAccepted() throws Exception {
            String example = "../deploy/examples/cc.yaml";
            assertThat(check("--config", example, "--file", write("clean.yaml", CLEAN))).isZero();
            assertThat(err.toString()).as("no config warning").isEmpty();
            assertThat(check("--config", example, "--file", write("warned.yaml", ONLY_WARNINGS))).isZero();
            assertThat(out.toString()).contains("WARN0002 warning GitRepository/flux-system/warned");
        }

        @Test
        void anObjectWithFailuresExitsOne() throws Exception {
            assertThat(check("--config", config, "--file", write("failing.yaml", FAILING))).isEqualTo(1);
            assertThat(out.toString()).isEqualTo("""
                    FAIL0002 failure GitRepository/flux-system/failing: Ready condition must always be present
                    FAIL0006 failure GitRepository/flux-system/failing: The ObservedGeneration must be less than or equal to the object Generation
                    FAIL0010 failure GitRepository/flux-system/failing: The root ObservedGeneration must be less than the Reconciling condition ObservedGeneration when Reconciling condition is True
                    checked 1 object: 0 warnings, 3 failures
                    """);
        }

        @Test
        void warningsOfAllObjectsComeBeforeAnyFailure() throws Exception {
            String file = write("all.yaml", FAILING + "---\n" + CLEAN + "---\n" + ONLY_WARNINGS);
            assertThat(check("--config", config, "--file", file)).isEqualTo(1);
            assertThat(out.toString().lines().map(line -> line.substring(0, 8)))
                    .containsExactly("WARN0002", "FAIL0002", "FAIL0006", "FAIL0010", "checked ");
            assertThat(out.toString()).endsWith("checked 3 objects: 1 warning, 3 failures\n");
        }

        @Test
        void jsonOutputListsEachObjectWithItsFindings() throws Exception {
            String file = write("all.yaml", CLEAN + "---\n" + FAILING);
            assertThat(check("--config", config, "--file", file, "--output", "json")).isEqualTo(1);
            JsonNode report = new ObjectMapper().readTree(out.toString());
            assertThat(report.get("failures").asInt()).isEqualTo(3);
            assertThat(report.get("warnings").asInt()).isZero();
            assertThat(report.get("passed").asBoolean()).isFalse();
            assertThat(report.get("objects")).hasSize(2);
            JsonNode failing = report.get("objects").get(1);
            assertThat(failing.get("kind").asText()).isEqualTo("GitRepository");
            assertThat(failing.get("namespace").asText()).isEqualTo("flux-system");
            assertThat(failing.get("name").asText()).isEqualTo("failing");
            assertThat(failing.get("source").asText()).isEqualTo(file + ":9");
            assertThat(failing.get("findings").get(0).get("code").asText()).isEqualTo("FAIL0002");
            assertThat(failing.get("findings").get(0).get("severity").asText()).isEqualTo("failure");
            assertThat(failing.get("findings").get(0).get("message").asText()).isEqualTo("Ready condition must always be present");
            assertThat(failing.has("kstatus")).isFalse();
        }

        @Test
        void kstatusIsPrintedForEachObjectWhenAskedFor() throws Exception {
            String file = write("all.yaml", CLEAN + "---\n" + FAILING);
            assertThat(check("--config", config, "--file", file, "--kstatus")).isEqualTo(1);
            assertThat(out.toString()).startsWith("""
                    kstatus Current GitRepository/flux-system/clean: Resource is Ready
                    kstatus InProgress GitRepository/flux-system/failing: GitRepository generation is 3, but latest \
                    observed generation is 4 (reason LatestGenerationNotObserved)
                    FAIL0002""");
        }

        @Test
        void kstatusAloneNeedsNoConfigAndNeverFails() throws Exception {
            assertThat(check("--kstatus", "--file", write("failing.yaml", FAILING), "-o", "json")).isZero();
            JsonNode object = new ObjectMapper().readTree(out.toString()).get("objects").get(0);
            assertThat(object.get("kstatus").get("status").asText()).isEqualTo("InProgress");
            assertThat(object.get("kstatus").get("reason").asText()).isEqualTo("LatestGenerationNotObserved");
            assertThat(object.get("findings")).isEmpty();
        }

        @Test
        void readsObjectsFromStandardInput() throws Exception {
            var command = new CommandLine(new CheckCommand(
                    new ByteArrayInputStream(FAILING.getBytes(StandardCharsets.UTF_8))))
                    .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
            assertThat(command.execute("--config", config, "--file", "-")).isEqualTo(1);
            assertThat(out.toString()).contains("FAIL0002 failure GitRepository/flux-system/failing");
        }

        /**
         * The size of a {@code kubectl get deploy -A -o yaml} of a large cluster: 20 MB, 15,000 Deployments in one
         * List document. docs/check.md gives the time it takes and the command that builds the same input.
         */
        @Test
        void readsTwentyMegabytesOfFifteenThousandObjectsFromStandardInput() throws Exception {
            String item = Files.readString(Path.of("src/test/resources/check/list-item.yaml"));
            var list = new StringBuilder("apiVersion: v1\nitems:\n");
            for (int i = 1; i <= 15_000; i++) {
                list.append(item.replace("NAME", "app-%05d".formatted(i)));
            }
            list.append("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
            byte[] input = list.toString().getBytes(StandardCharsets.UTF_8);
            assertThat(input.length).isGreaterThan(20_000_000);

            var command = new CommandLine(new CheckCommand(new ByteArrayInputStream(input)))
                    .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
            assertThat(command.execute("--kstatus", "--file", "-")).isZero();
            assertThat(err.toString()).isEmpty();
            var lines = out.toString().lines().toList();
            assertThat(lines).hasSize(15_001);
            assertThat(lines.getFirst()).isEqualTo("kstatus Current Deployment/team-a/app-00001: Deployment is available."
                    + " Replicas: 2");
            assertThat(lines.get(14_999)).startsWith("kstatus Current Deployment/team-a/app-15000: ");
            assertThat(lines.getLast()).isEqualTo("checked 15000 objects: 0 warnings, 0 failures");
        }

        @Test
        void configWarningsGoToStandardErrorAndDoNotStopTheCheck() throws Exception {
            String sloppy = write("sloppy.yaml", "conditions:\n  negativePolarity: [FetchFailed]\n  exclude: [WARN0003]\n");
            assertThat(check("--config", sloppy, "--file", write("clean.yaml", CLEAN))).isZero();
            assertThat(err.toString()).isEqualTo("dwd check: warning: " + sloppy
                    + ":3:3: unknown key 'exclude' ignored (known keys: negativePolarity, positivePolarity)\n");
        }
    }

    @Nested
    class UnreadableInputExitsOne {

        @Test
        void aMalformedFileNamesTheFileAndTheLine() throws Exception {
            String file = write("broken.yaml", CLEAN + "---\nkind: Foo\nmetadata:\n  name: x\n status: [1\n");
            assertThat(check("--config", config, "--file", file)).isEqualTo(1);
            assertThat(err.toString()).startsWith("dwd check: " + file + ":12:2: cannot parse YAML: ");
            assertThat(out.toString()).isEmpty();
        }

        @Test
        void aDeviceOrBinaryInputIsRefusedAtOnceInOneLine() throws Exception {
            assertThat(check("--config", config, "--file", "/dev/zero")).isEqualTo(1);
            assertThat(err.toString()).isEqualTo(
                    "dwd check: /dev/zero: is a character device, not a regular file; dwd reads only regular files\n");
            err.getBuffer().setLength(0);
            try (var zeros = new java.io.FileInputStream("/dev/zero")) {
                var command = new CommandLine(new CheckCommand(zeros))
                        .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
                assertThat(command.execute("--config", config, "--file", "-")).isEqualTo(1);
            }
            assertThat(err.toString()).isEqualTo("dwd check: stdin: line 1, column 1: the control character U+0000"
                    + " cannot be in YAML or JSON text (is this a binary file?)\n");
            assertThat(out.toString()).isEmpty();
        }

        @Test
        void aMissingFileIsNamed() {
            String missing = directory.resolve("missing.yaml").toString();
            assertThat(check("--config", config, "--file", missing)).isEqualTo(1);
            assertThat(err.toString()).isEqualTo("dwd check: " + missing + ": no such file\n");
        }

        @Test
        void aBadConfigIsNamedWithItsLine() throws Exception {
            String bad = write("bad.yaml", "conditions:\n  negativePolarity: [Ready]\n");
            assertThat(check("--config", bad, "--file", write("clean.yaml", CLEAN))).isEqualTo(1);
            assertThat(err.toString()).isEqualTo("dwd check: " + bad + ":2:22: conditions.negativePolarity[0]: "
                    + "Ready cannot be listed: every check already treats it as the summary condition\n");
        }

        @Test
        void anUnreachableClusterIsAReadError() throws Exception {
            String kubeconfig = write("kubeconfig", """
                    apiVersion: v1
                    kind: Config
                    current-context: dead
                    clusters: [{name: dead, cluster: {server: "http://127.0.0.1:1"}}]
                    contexts: [{name: dead, context: {cluster: dead, user: me}}]
                    users: [{name: me, user: {token: abc}}]
                    """);
            assertThat(check("--config", config, "--kind", "Widget", "--name", "w", "--kubeconfig", kubeconfig)).isEqualTo(1);
            assertThat(err.toString()).startsWith("dwd check: cannot discover the kinds served by http://127.0.0.1:1: ");
        }
    }

    /** An object that cannot be read as the rules need gets a result of its own; every other object is still checked. */
    @Nested
    class EachObjectJudgedOnItsOwn {

        /** The Rollout as an item of a List. */
        private static final String ROLLOUT = "- " + readResource("argo-rollout.yaml").lines()
                .filter(line -> !line.startsWith("#")).reduce((a, b) -> a + "\n  " + b).orElseThrow() + "\n";

        private static String readResource(String name) {
            try {
                return Files.readString(Path.of("src/test/resources/check/" + name));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** What {@code kubectl get deploy,rollouts -A -o yaml} prints: 1,000 Deployments and, among them, one Argo Rollout. */
        private static String thousandDeploymentsAndARollout() {
            String item = readResource("list-item.yaml");
            var list = new StringBuilder("apiVersion: v1\nitems:\n");
            for (int i = 1; i <= 1_000; i++) {
                list.append(item.replace("NAME", "app-%04d".formatted(i)));
                if (i == 500) {
                    list.append(ROLLOUT);
                }
            }
            return list.append("kind: List\nmetadata:\n  resourceVersion: \"\"\n").toString();
        }

        private int checkStdin(String input, String... args) {
            var command = new CommandLine(new CheckCommand(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8))))
                    .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
            return command.execute(args);
        }

        /**
         * The issue's case: Argo Rollouts' CRD stores status.observedGeneration as a string. Every object has a result in
         * every output format, the Rollout's says which field and why, and the exit code is 1 (docs/check.md, Exit codes).
         */
        @Test
        void aRolloutWithAStringObservedGenerationAmongAThousandObjects() throws Exception {
            String input = thousandDeploymentsAndARollout();
            int line = input.lines().toList().indexOf("    observedGeneration: \"12\"") + 1;
            String location = "stdin:" + line + ":5";
            String why = "status.observedGeneration: expected an integer, found \"12\" (a string)";

            assertThat(checkStdin(input, "--config", config, "--kstatus", "--file", "-")).isEqualTo(1);
            assertThat(err.toString()).isEmpty();
            List<String> lines = out.toString().lines().toList();
            assertThat(lines.stream().filter(text -> text.startsWith("kstatus "))).hasSize(1_001)
                    .filteredOn(text -> !text.startsWith("kstatus Current Deployment/team-a/app-"))
                    .containsExactly("kstatus Unknown Rollout/shop/web: " + why + " (" + location + ")");
            assertThat(lines).contains("FAIL0000 failure Rollout/shop/web: The object cannot be read as the checks need it: "
                    + why + "; not run: [FAIL0006 FAIL0007 FAIL0009 FAIL0010] (" + location + ")");
            assertThat(lines).contains("FAIL0002 failure Rollout/shop/web: Ready condition must always be present");
            assertThat(lines.getLast()).isEqualTo("checked 1001 objects: 1001 warnings, 1002 failures, 1 unreadable");

            for (String format : List.of("json", "yaml")) {
                out.getBuffer().setLength(0);
                assertThat(checkStdin(input, "--config", config, "--kstatus", "--file", "-", "-o", format)).as(format).isEqualTo(1);
                var mapper = format.equals("json") ? new ObjectMapper()
                        : new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
                JsonNode report = mapper.readTree(out.toString());
                assertThat(report.get("objects")).as(format).hasSize(1_001)
                        .allSatisfy(object -> assertThat(object.get("kstatus").get("status").asText()).isIn("Current", "Unknown"));
                JsonNode rollout = report.get("objects").get(500);
                assertThat(rollout.get("name").asText()).isEqualTo("web");
                assertThat(rollout.get("readable").asBoolean()).isFalse();
                assertThat(rollout.get("kstatus").get("status").asText()).isEqualTo("Unknown");
                assertThat(rollout.get("kstatus").get("message").asText()).isEqualTo(why);
                assertThat(rollout.get("kstatus").get("field").asText()).isEqualTo("status.observedGeneration");
                assertThat(rollout.get("kstatus").get("location").asText()).isEqualTo(location);
                assertThat(rollout.get("findings")).filteredOn(finding -> finding.get("code").asText().equals("FAIL0000"))
                        .singleElement().satisfies(finding -> {
                            assertThat(finding.get("field").asText()).isEqualTo("status.observedGeneration");
                            assertThat(finding.get("location").asText()).isEqualTo(location);
                        });
                assertThat(report.get("objects").get(501).get("name").asText()).isEqualTo("app-0501");
                assertThat(report.get("unreadable").asInt()).isEqualTo(1);
                assertThat(report.get("passed").asBoolean()).isFalse();
            }
        }

        @Test
        void kstatusAloneExitsOneForAnObjectItCannotReadAndZeroWithout() {
            String input = thousandDeploymentsAndARollout();
            assertThat(checkStdin(input, "--kstatus", "--file", "-")).isEqualTo(1);
            assertThat(out.toString()).endsWith("checked 1001 objects: 0 warnings, 0 failures, 1 unreadable\n");
            out.getBuffer().setLength(0);
            assertThat(checkStdin(input.replace("observedGeneration: \"12\"", "observedGeneration: 12"), "--kstatus", "--file", "-"))
                    .isZero();
            assertThat(out.toString()).contains("kstatus Current Rollout/shop/web: Resource is current")
                    .endsWith("checked 1001 objects: 0 warnings, 0 failures\n");
        }

        @Test
        void aDocumentThatIsNotAnObjectAndAnObjectWithoutNameHaveResultsOfTheirOwn() throws Exception {
            String file = write("mixed.yaml", CLEAN + "---\njust text\n---\nkind: Foo\nmetadata: {namespace: ns}\n---\n" + FAILING);
            assertThat(check("--config", config, "--kstatus", "--file", file)).isEqualTo(1);
            assertThat(out.toString()).contains(
                    "kstatus Current GitRepository/flux-system/clean: Resource is Ready",
                    "kstatus Unknown object 2 (" + file + ":9): expected an object (a mapping with apiVersion, kind, metadata"
                            + " and status), found the string \"just text\"\n",
                    "kstatus Unknown object 3 (" + file + ":11): metadata.name: missing; every object needs kind and"
                            + " metadata.name (" + file + ":12:1)",
                    "FAIL0000 failure object 2 (" + file + ":9): The object cannot be read as the checks need it: expected an"
                            + " object (a mapping with apiVersion, kind, metadata and status), found the string \"just text\"; no"
                            + " check ran\n",
                    "FAIL0002 failure GitRepository/flux-system/failing: Ready condition must always be present");
            assertThat(out.toString()).endsWith("checked 4 objects: 0 warnings, 5 failures, 2 unreadable\n");
            assertThat(err.toString()).isEmpty();
        }

        @Test
        void aFieldOfTheWrongTypeNamesItsFileLineAndColumn() throws Exception {
            String file = write("typed.yaml", CLEAN + "---\n" + """
                    kind: Foo
                    metadata: {name: x}
                    status:
                      conditions:
                      - type: Ready
                        status: True
                    """);
            assertThat(check("--config", config, "--file", file)).isEqualTo(1);
            assertThat(out.toString()).isEqualTo("FAIL0000 failure Foo/x: The object cannot be read as the checks need it: "
                    + "status.conditions[0].status: expected a string, found true (a boolean); YAML reads an unquoted True as a"
                    + " boolean, quote it: \"True\"; not run: [WARN0001 WARN0002 WARN0003 WARN0004 WARN0005 FAIL0001 FAIL0002"
                    + " FAIL0003 FAIL0004 FAIL0005 FAIL0007 FAIL0008 FAIL0009 FAIL0010] (" + file + ":14:5)\n"
                    + "checked 2 objects: 0 warnings, 1 failure, 1 unreadable\n");
        }

        @Test
        void emptyInputExitsZeroWithANote() {
            assertThat(checkStdin("# nothing\n---\n", "--config", config, "--file", "-")).isZero();
            assertThat(err.toString()).isEqualTo("dwd check: note: stdin holds no object to check\n");
            assertThat(out.toString()).isEqualTo("checked 0 objects: 0 warnings, 0 failures\n");
            out.getBuffer().setLength(0);
            assertThat(checkStdin("", "--kstatus", "--file", "-", "-o", "json")).isZero();
            assertThat(out.toString()).contains("\"objects\" : [ ]", "\"passed\" : true");
        }
    }

    @Nested
    class UsageErrorsExitTwo {

        @Test
        void nothingToCheck() {
            assertThat(check("--config", config)).isEqualTo(2);
            assertThat(err.toString()).startsWith("dwd check: say what to check: --kind KIND --name NAME for a live "
                    + "object, or --file FILE. Run 'dwd check --help' for usage.");
        }

        @Test
        void liveAndFilesAtOnce() {
            assertThat(check("--config", config, "--kind", "Foo", "--name", "x", "--file", "a.yaml")).isEqualTo(2);
            assertThat(err.toString()).contains("--file cannot be combined with --kind/--name");
        }

        @Test
        void aKindWithoutName() {
            assertThat(check("--config", config, "--kind", "Foo")).isEqualTo(2);
            assertThat(err.toString()).contains("--kind needs --name");
        }

        @Test
        void liveOptionsWithFiles() {
            assertThat(check("--config", config, "--file", "a.yaml", "--namespace", "ns")).isEqualTo(2);
            assertThat(err.toString()).contains("--namespace, --api-version and --kubeconfig apply to live objects");
        }

        @Test
        void noConfig() {
            assertThat(check("--file", "a.yaml")).isEqualTo(2);
            assertThat(err.toString()).contains("--config FILE is required");
        }

        @Test
        void anUnknownOutputFormat() {
            assertThat(check("--config", config, "--file", "a.yaml", "--output", "xml")).isEqualTo(2);
            assertThat(err.toString()).startsWith("dwd check: ").contains("--output").contains("text, json, yaml");
        }
    }

    @Test
    void helpShowsTheExitCodes() {
        assertThat(check("--help")).isZero();
        assertThat(out.toString()).contains("Usage: dwd check", "Exit codes:", "1   at least one failure");
    }

    @Test
    void theRootCommandListsCheck() {
        assertThat(Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "--help")).isZero();
        assertThat(out.toString()).contains("check");
    }
}
