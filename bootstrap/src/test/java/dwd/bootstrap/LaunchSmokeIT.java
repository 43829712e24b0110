package dwd.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Starts the packaged application exactly as {@code ./dwd} does (module path, deploy/jvm.args).
 * Surefire's class path hides module-path failures (unresolved modules, missing opens, okhttp
 * internals); this does not.
 */
class LaunchSmokeIT {

    static final Path REPOSITORY = Path.of(System.getProperty("dwd.repository.root", "..")).toAbsolutePath().normalize();

    record Result(int exitCode, String out, String err) { }

    static Result launch(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(REPOSITORY.resolve("dwd").toString());
        command.addAll(List.of(args));
        Path out = Files.createTempFile("dwd-out", ".txt");
        Path err = Files.createTempFile("dwd-err", ".txt");
        Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("./dwd " + String.join(" ", args) + " did not exit within 2 minutes");
        }
        return new Result(process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void versionRunsOnTheModulePath() throws Exception {
        Result result = launch("version");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).startsWith("dwd 0.").contains("(revision ", ", Java 25");
        assertThat(result.err()).as("no logging or module-path complaint").isEmpty();
    }

    @Test
    void theLoggingConfigurationLoadsAndTheProberReportsABadKubeconfigPlainly() throws Exception {
        Result result = launch("prober", "--config-file", REPOSITORY.resolve("deploy/examples/prober-config.yaml").toString(),
                "--kubeconfig", "/nonexistent/kubeconfig");
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).isEqualTo("dwd prober: --kubeconfig /nonexistent/kubeconfig: no such file\n");
    }

    /** The AOT cache's training run ({@code scripts/build-app}) reaches both roles' first work on its own seed. */
    @Test
    void theAotTrainingRunBringsBothRolesToTheirFirstWork() throws Exception {
        Result result = launch("aot-training");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err()).contains("dwd aot-training: both roles did their first work")
                .contains("deleted pod kube-apiserver-0", "lease probe: SCALE_UP (3 candidates, 0 expired")
                .doesNotContain("\"level\":\"ERROR\"");
    }

    @Test
    void anUnknownCommandExitsWithTwo() throws Exception {
        Result result = launch("frobnicate");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("unknown command 'frobnicate'");
    }
}
