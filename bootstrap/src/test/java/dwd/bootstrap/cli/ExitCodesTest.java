package dwd.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.bootstrap.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The exit-status table of docs/cli.md is true: each row's example command exits with the row's
 * status; a row without a runnable example names the process test that asserts it.
 */
class ExitCodesTest {

    private static final Path DOCS = Path.of("../docs/cli.md");
    private static final Pattern ROW = Pattern.compile("^\\| (\\d) \\| (.+?) \\| (.+) \\|$");
    private static final Pattern COMMAND = Pattern.compile("^`dwd (.+)`$");
    private static final Pattern PROCESS_TEST = Pattern.compile("^process test `(\\w+IT)`$");

    /** A row of the table. */
    record Row(int status, String when, String example) {
        @Override
        public String toString() {
            return status + ": " + when;
        }
    }

    static List<Row> rows() throws IOException {
        String text = Files.readString(DOCS);
        String table = text.substring(text.indexOf("## Exit status"));
        table = table.substring(0, table.indexOf("\n\n", table.indexOf("| Status |")));
        List<Row> rows = new ArrayList<>();
        for (String line : table.lines().toList()) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                rows.add(new Row(Integer.parseInt(row.group(1)), row.group(2), row.group(3)));
            }
        }
        return rows;
    }

    @Test
    void theTableCoversEveryStatus() throws IOException {
        assertThat(rows()).extracting(Row::status).contains(0, 1, 2).allMatch(status -> status <= 2);
        assertThat(rows()).hasSizeGreaterThan(15);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void everyRowHolds(Row row) throws IOException {
        Matcher command = COMMAND.matcher(row.example());
        if (!command.matches()) {
            Matcher processTest = PROCESS_TEST.matcher(row.example());
            assertThat(processTest.matches()).as("row '%s' has a command or names a process test", row).isTrue();
            String test = processTest.group(1);
            try (var files = Files.walk(Path.of("src/test/java"))) {
                assertThat(files.anyMatch(file -> file.getFileName().toString().equals(test + ".java")))
                        .as("the process test %s of row '%s' exists", test, row).isTrue();
            }
            return;
        }
        var out = new StringWriter();
        var err = new StringWriter();
        String[] args = command.group(1).split(" ");
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("bootstrap/") || args[i].startsWith("deploy/")) {
                args[i] = "../" + args[i];
            }
        }
        int status = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        assertThat(status).as("dwd %s%nstdout: %s%nstderr: %s", command.group(1), out, err).isEqualTo(row.status());
        if (status == 2 && !command.group(1).contains("--dry-run")) {
            assertThat(err.toString()).as("a usage error is one line that points to --help")
                    .hasLineCount(1).contains("--help' for usage.");
            assertThat(out.toString()).isEmpty();
        }
    }
}
