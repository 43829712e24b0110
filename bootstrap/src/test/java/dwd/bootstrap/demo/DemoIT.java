package dwd.bootstrap.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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

    private Process start(Path output, String... extraArgs) throws IOException {
        var command = new ArrayList<>(List.of(REPOSITORY.resolve("dwd").toString(), "demo",
                "--control-plane-dir", System.getProperty("dwd.controlPlane.dir")));
        command.addAll(List.of(extraArgs));
        var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
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
    void inShadowModeTheSameStoryReportsWhatDwdWouldDoAndChangesNothing() throws Exception {
        Path output = Files.createTempFile("dwd-demo-shadow", ".out");
        Process process = start(output, "--dry-run=server");
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("finishes in under 3 minutes").isTrue();
        String text = Files.readString(output);

        assertThat(process.exitValue()).as(text).isZero();
        assertThat(text).contains("in shadow mode (--dry-run=server)", "All steps observed.");
        assertThat(text.lines().filter(line -> line.matches("\\s+(\\d|  ).*\\s(ok|✓)$")))
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
        assertThat(text).as("no stack traces").doesNotContain("Exception");
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
