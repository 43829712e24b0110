package dwd.bootstrap.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ./dwd demo} run as a newcomer runs it, non-interactively (no terminal, so no colours):
 * its exit status and summary table, and that it leaves no process behind, also after Ctrl-C.
 */
class DemoIT {

    static final Path REPOSITORY = Path.of(System.getProperty("dwd.repository.root", "..")).toAbsolutePath().normalize();
    static final Pattern WORK_DIRECTORY = Pattern.compile("files in (\\S+dwd-demo-\\S+)\\)");

    private Process demo;

    @AfterEach
    void stop() throws InterruptedException {
        if (demo != null && demo.isAlive()) {
            demo.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private Process start(Path output) throws IOException {
        var builder = new ProcessBuilder(REPOSITORY.resolve("dwd").toString(), "demo",
                "--control-plane-dir", System.getProperty("dwd.controlPlane.dir"))
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("NO_COLOR", "1");
        demo = builder.start();
        return demo;
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

    @Test
    void theDemoPlaysEveryStepAndEndsWithAllChecksObserved() throws Exception {
        Path output = Files.createTempFile("dwd-demo", ".out");
        Process process = start(output);
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("finishes in under 3 minutes").isTrue();
        String text = Files.readString(output);

        assertThat(process.exitValue()).as(text).isZero();
        assertThat(text).contains("Summary", "All steps observed.");
        assertThat(text.lines().filter(line -> line.matches("\\s+(\\d|  ).*\\s(ok|✓)$"))).as(text).hasSize(5);
        assertThat(text).as("no colours without a terminal").doesNotContain("\u001b[");
        assertThat(text).as("no stack traces").doesNotContain("Exception");
        String workDirectory = workDirectory(output);
        assertThat(workDirectory).isNotNull();
        assertThat(processesUsing(workDirectory)).as("etcd and kube-apiserver are gone").isEmpty();
        assertThat(Path.of(workDirectory)).doesNotExist();
    }

    @Test
    void ctrlCInTheMiddleStopsEverythingItStarted() throws Exception {
        Path output = Files.createTempFile("dwd-demo", ".out");
        Process process = start(output);
        await("the network cut").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                .until(() -> Files.readString(output).contains("Network cut"));
        String workDirectory = workDirectory(output);
        assertThat(processesUsing(workDirectory)).as("etcd and kube-apiserver run").hasSize(2);

        new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();

        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the demo stops on Ctrl-C").isTrue();
        await("its processes are gone").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> processesUsing(workDirectory).isEmpty());
        assertThat(Path.of(workDirectory)).doesNotExist();
    }
}
