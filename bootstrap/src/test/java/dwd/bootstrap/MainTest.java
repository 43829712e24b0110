package dwd.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class MainTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void versionPrintsTheProductVersionAndTheRevision() {
        assertThat(run("version")).isZero();
        assertThat(out.toString()).matches("dwd \\S+ \\(revision ([0-9a-f]{12}( with uncommitted changes)?"
                + "|unknown: built outside a git checkout), Java 25.*\\)\\R");
    }

    @Test
    void helpListsTheCommands() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("Usage: dwd", "Commands:", "version");
    }

    @Test
    void anUnknownCommandIsAUsageErrorThatSaysWhatToDo() {
        assertThat(run("frobnicate")).isEqualTo(Main.USAGE_ERROR);
        assertThat(err.toString())
                .startsWith("dwd: unknown command 'frobnicate'.")
                .contains("Run 'dwd --help' for usage.");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void anUnknownFlagIsAUsageError() {
        assertThat(run("version", "--frobnicate")).isEqualTo(Main.USAGE_ERROR);
        assertThat(err.toString()).contains("dwd version:", "--frobnicate");
    }
}
