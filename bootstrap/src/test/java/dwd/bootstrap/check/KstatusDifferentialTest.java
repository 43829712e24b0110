package dwd.bootstrap.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * kstatus itself against dwd: the kstatus oracle ({@code oracles/kstatus}, cli-utils' {@code status.Compute} built from
 * the Go module proxy by {@code scripts/kstatus-oracle}) computes the status of every object of the corpus
 * ({@code src/test/resources/check/corpus}), {@code dwd check --kstatus} computes its own, and every object on which
 * they differ must be a decision in the table of {@code docs/check-differential.md}, and every decision there must
 * still be a difference. Where both say Unknown, the wording of the error is not compared: dwd names the field in its
 * own words.
 *
 * <p>{@code make test} builds the oracle and names it in {@code DWD_KSTATUS_ORACLE}; without it the test skips.
 */
class KstatusDifferentialTest {

    private static final Path CORPUS = Path.of("src/test/resources/check/corpus");
    private static final Path DECISIONS = Path.of("../docs/check-differential.md");
    /** A row of the decisions table: | `file` | `object` | kstatus | dwd | why | */
    private static final Pattern DECISION_ROW =
            Pattern.compile("^\\| `([^`]+)` \\| `([^`]+)` \\| ([A-Za-z]+(?: [A-Za-z]+)?) \\| ([A-Za-z]+(?: [A-Za-z]+)?) \\|");

    private static Path oracle;

    /** One object's answer: status, reason and message, or for Unknown the status alone. */
    record Answer(String status, String reason, String message) {
        static Answer of(String status, String reason, String message) {
            return status.equals("Unknown") ? new Answer(status, "", "") : new Answer(status, reason, message);
        }

        String brief() {
            return reason.isEmpty() ? status : status + " " + reason;
        }
    }

    @BeforeAll
    static void findTheOracle() {
        String configured = System.getProperty("dwd.kstatusOracle", System.getenv("DWD_KSTATUS_ORACLE"));
        Assumptions.assumeTrue(configured != null && Files.isExecutable(Path.of(configured)),
                "the kstatus oracle is not built: make test builds it (needs Go 1.26+), or set DWD_KSTATUS_ORACLE=$(scripts/kstatus-oracle)");
        oracle = Path.of(configured);
    }

    private static List<Path> corpus() throws IOException {
        try (Stream<Path> files = Files.list(CORPUS)) {
            return files.filter(file -> file.toString().endsWith(".yaml") || file.toString().endsWith(".json")).sorted().toList();
        }
    }

    /** kstatus' answers, by file and object number. */
    private static Map<String, List<Answer>> kstatusAnswers(List<Path> files) throws Exception {
        var command = new ArrayList<String>(List.of(oracle.toString()));
        files.forEach(file -> command.add(file.toString()));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(1, TimeUnit.MINUTES)).as("the oracle ends").isTrue();
        assertThat(process.exitValue()).as("the oracle's exit code").isZero();
        var answers = new LinkedHashMap<String, List<Answer>>();
        var json = new ObjectMapper();
        for (String line : out.lines().toList()) {
            JsonNode answer = json.readTree(line);
            answers.computeIfAbsent(Path.of(answer.get("file").asText()).getFileName().toString(), ignored -> new ArrayList<>())
                    .add(Answer.of(answer.get("status").asText(), text(answer, "reason"), text(answer, "message")));
        }
        return answers;
    }

    /** dwd's answers for one file, with the key each object goes by: {@code kind/name}, else {@code #number}. */
    private static Map<String, Answer> dwdAnswers(Path file) throws Exception {
        var out = new StringWriter();
        var err = new StringWriter();
        new CommandLine(new CheckCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("--kstatus", "--output", "json", "--file", file.toString());
        assertThat(err.toString()).as("dwd's errors on " + file).isEmpty();
        var answers = new LinkedHashMap<String, Answer>();
        int number = 0;
        for (JsonNode object : new ObjectMapper().readTree(out.toString()).get("objects")) {
            number++;
            String kind = object.get("kind").asText();
            String name = object.get("name").asText();
            JsonNode kstatus = object.get("kstatus");
            Answer answer = Answer.of(kstatus.get("status").asText(), text(kstatus, "reason"), kstatus.get("message").asText());
            String key = kind.isEmpty() || name.isEmpty() ? "#" + number : kind + "/" + name;
            assertThat(answers.put(key, answer)).as("kinds and names in " + file + " are unique").isNull();
        }
        return answers;
    }

    private static String text(JsonNode node, String field) {
        return node.has(field) ? node.get(field).asText() : "";
    }

    /** The decisions table: "file object" to "kstatus -> dwd" (statuses, and reasons where they differ). */
    private static Map<String, String> documentedDifferences() throws IOException {
        var documented = new TreeMap<String, String>();
        for (String line : Files.readAllLines(DECISIONS)) {
            Matcher row = DECISION_ROW.matcher(line);
            if (row.find()) {
                documented.put(row.group(1) + " " + row.group(2), row.group(3) + " -> " + row.group(4));
            }
        }
        return documented;
    }

    /** As the decisions table writes it: statuses, with the reasons when those differ; a message differing alone is shown. */
    private static String difference(Answer their, Answer our) {
        String statuses = their.reason().equals(our.reason()) ? their.status() + " -> " + our.status()
                : their.brief() + " -> " + our.brief();
        return their.brief().equals(our.brief())
                ? statuses + " (messages differ: \"" + their.message() + "\" and \"" + our.message() + "\")" : statuses;
    }

    @Test
    void everyDifferenceFromKstatusIsADocumentedDecision() throws Exception {
        List<Path> files = corpus();
        Map<String, List<Answer>> kstatus = kstatusAnswers(files);
        var observed = new TreeMap<String, String>();
        int compared = 0;
        for (Path file : files) {
            String name = file.getFileName().toString();
            List<Answer> theirs = kstatus.getOrDefault(name, List.of());
            List<Map.Entry<String, Answer>> ours = List.copyOf(dwdAnswers(file).entrySet());
            assertThat(ours).as("dwd reads as many objects from " + name + " as kstatus' reader").hasSameSizeAs(theirs);
            for (int index = 0; index < ours.size(); index++) {
                compared++;
                Answer their = theirs.get(index);
                Answer our = ours.get(index).getValue();
                if (!their.equals(our)) {
                    observed.put(name + " " + ours.get(index).getKey(), difference(their, our));
                }
            }
        }
        assertThat(compared).as("objects in the corpus").isGreaterThan(200);
        assertThat(observed).as("differences from kstatus (left) and the decisions in " + DECISIONS
                + " (right); each difference needs a row: | `file` | `object` | kstatus | dwd | why |")
                .isEqualTo(documentedDifferences());
    }
}
