package dwd.bootstrap.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opt-in with {@code BesideOriginalIT} ({@code make test-beside-original}): {@code ./dwd demo --beside-original}
 * as a newcomer runs it; the original acts, every step is observed, and the demo ends with dwd's comparison
 * table, every episode of it both.
 */
@EnabledIf(value = "dwd.bootstrap.gardener.BesideOriginalIT#originalGiven",
        disabledReason = "opt-in: make test-beside-original (builds the original dependency-watchdog with Go)")
class DemoBesideOriginalIT {

    private static final Pattern SUMMARY_ROW_OK = Pattern.compile("\\s+(\\d|  ).*\\s(ok|✓)$");

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

    @Test
    void theOriginalActsDwdComparesAndTheDemoEndsWithTheComparisonTable() throws Exception {
        Path output = temp.resolve("demo-beside-original.out");
        var builder = new ProcessBuilder(DemoIT.REPOSITORY.resolve("dwd").toString(), "demo", "--beside-original",
                "--control-plane-dir", System.getProperty("dwd.controlPlane.dir"))
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("NO_COLOR", "1");
        demo = builder.start();
        assertThat(demo.waitFor(5, TimeUnit.MINUTES)).as("finishes in under 5 minutes").isTrue();
        String text = Files.readString(output);

        assertThat(demo.exitValue()).as(text).isZero();
        assertThat(text).contains("dwd beside the original dependency-watchdog", "All steps observed.");
        assertThat(text.lines().filter(line -> SUMMARY_ROW_OK.matcher(line).matches())).as(text).hasSize(6)
                .anyMatch(line -> line.contains("5 comparison") && line.contains("3 episodes, 3 both"));
        String end = text.substring(text.indexOf("All steps observed."), text.indexOf("Stopping everything the demo started"));
        assertThat(end).as("the demo ends with the comparison table")
                .contains("dwd beside the original dependency-watchdog\n", "Disagreements (0)", "Agreements (3)")
                .containsPattern("\\n  all +3 +3 +0 +0 +0 +100%");
        assertThat(text).doesNotContain("Exception");
    }
}
