package dwd.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.bootstrap.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The outputs shown in docs/cli.md are the real outputs: each fenced block after a marker
 * {@code <!-- output: ARGS -->} must equal what {@code dwd ARGS} prints (stdout, then stderr),
 * run from the repository root.
 */
class DocumentedOutputTest {

    private static final Path DOCS = Path.of("../docs/cli.md");

    private static String documented(String args) throws IOException {
        String text = Files.readString(DOCS);
        String marker = "<!-- output: " + args + " -->";
        int at = text.indexOf(marker);
        assertThat(at).as("docs/cli.md has a block for: dwd %s", args).isNotNegative();
        int start = text.indexOf("```", at);
        start = text.indexOf('\n', start) + 1;
        int end = text.indexOf("```", start);
        return text.substring(start, end);
    }

    private static String run(String args, int expectedExit) {
        var out = new StringWriter();
        var err = new StringWriter();
        String[] argv = args.replace("FILE=", "").split(" ");
        for (int i = 0; i < argv.length; i++) {
            if (argv[i].startsWith("bootstrap/") || argv[i].startsWith("deploy/")) {
                argv[i] = "../" + argv[i];
            }
        }
        int exit = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), argv);
        assertThat(exit).as("exit status of dwd %s", args).isEqualTo(expectedExit);
        return (out + err.toString()).replace("../bootstrap/", "bootstrap/").replace("../deploy/", "deploy/");
    }

    @Test
    void planOfTheOriginalsExampleConfig() throws IOException {
        String args = "plan --config-file bootstrap/src/test/resources/configs/original-example-prober.yaml";
        assertThat(run(args, 0)).isEqualTo(documented(args)).as("durations as users write them")
                .doesNotContainPattern("PT\\d");
    }

    @Test
    void validateOfAConfigWithFiveProblems() throws IOException {
        String args = "validate prober --config-file bootstrap/src/test/resources/configs/five-problems-prober.yaml";
        assertThat(run(args, 1)).isEqualTo(documented(args));
    }

    @Test
    void validateQuotesDurationsAsTheyAreWritten() throws IOException {
        String args = "validate prober --config-file bootstrap/src/test/resources/configs/bad-durations-prober.yaml";
        assertThat(run(args, 1)).isEqualTo(documented(args)).doesNotContainPattern("PT\\d");
    }

    @Test
    void aMistypedOptionIsUnknownWithTheNearestOne() throws IOException {
        String args = "prober --config-fil deploy/examples/prober-config.yaml";
        assertThat(run(args, 2)).isEqualTo(documented(args));
    }
}
