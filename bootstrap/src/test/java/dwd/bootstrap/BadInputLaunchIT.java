package dwd.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input that cannot be used, given to {@code ./dwd} as an operator gives it: each is refused at once,
 * in one line, with exit status 1, before anything starts. A named pipe would block a reader that opens
 * it until a writer comes, {@code /dev/zero} would fill the heap: neither is read.
 */
class BadInputLaunchIT {

    private static final Path REPOSITORY = LaunchSmokeIT.REPOSITORY;
    private static final String PROBER_CONFIG = REPOSITORY.resolve("deploy/examples/prober-config.yaml").toString();

    @TempDir
    Path directory;

    private record Result(int exitCode, String out, String err) { }

    private Result launch(File stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(REPOSITORY.resolve("dwd").toString()));
        command.addAll(List.of(args));
        Path out = directory.resolve("out.txt");
        Path err = directory.resolve("err.txt");
        var builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        if (stdin != null) {
            builder.redirectInput(stdin);
        }
        Process process = builder.start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("./dwd " + String.join(" ", args) + " did not exit within 2 minutes");
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private Path pipe() throws Exception {
        Path pipe = directory.resolve("pipe.yaml");
        assertThat(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor()).isZero();
        return pipe;
    }

    @Test
    void aNamedPipeAsConfigFileOrKubeconfigIsRefusedInOneLine() throws Exception {
        Path pipe = pipe();
        Result validate = launch(null, "validate", "prober", "--config-file", pipe.toString());
        assertThat(validate.exitCode()).isEqualTo(1);
        assertThat(validate.err()).isEqualTo("the prober config file " + pipe
                + ": is a named pipe (FIFO), not a regular file; dwd reads only regular files\n");

        Result prober = launch(null, "prober", "--config-file", PROBER_CONFIG, "--kubeconfig", pipe.toString());
        assertThat(prober.exitCode()).isEqualTo(1);
        assertThat(prober.err()).isEqualTo("dwd prober: --kubeconfig " + pipe + ": is a named pipe (FIFO), not a"
                + " regular file; dwd reads only regular files\n");
    }

    @Test
    void devZeroAsConfigFileOrAsCheckInputIsRefusedInOneLine() throws Exception {
        Result weeder = launch(null, "weeder", "--config-file", "/dev/zero");
        assertThat(weeder.exitCode()).isEqualTo(1);
        assertThat(weeder.err()).isEqualTo("dwd weeder: the weeder config file /dev/zero: is a character device,"
                + " not a regular file; dwd reads only regular files\n");

        Result check = launch(new File("/dev/zero"), "check", "--kstatus", "--file", "-");
        assertThat(check.exitCode()).isEqualTo(1);
        assertThat(check.out()).isEmpty();
        assertThat(check.err()).isEqualTo("dwd check: stdin: line 1, column 1: the control character U+0000 cannot be"
                + " in YAML or JSON text (is this a binary file?)\n");
    }

    @Test
    void aMetricsPortInUseIsOneLineNamingTheFlag() throws Exception {
        Path kubeconfig = Files.writeString(directory.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters: [{name: seed, cluster: {server: "https://127.0.0.1:1"}}]
                users: [{name: dwd, user: {token: unused}}]
                contexts: [{name: seed, context: {cluster: seed, user: dwd}}]
                current-context: seed
                """);
        try (var taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + taken.getLocalPort();
            Result prober = launch(null, "prober", "--config-file", PROBER_CONFIG, "--kubeconfig", kubeconfig.toString(),
                    "--metrics-bind-addr=" + address, "--health-bind-addr=0", "--log-format=text");
            assertThat(prober.exitCode()).isEqualTo(1);
            List<String> errors = (prober.out() + prober.err()).lines().filter(line -> line.contains("ERROR")).toList();
            assertThat(errors).singleElement().asString().endsWith("dwd prober could not start: cannot listen on "
                    + address + " for metrics: Address already in use; choose another address with"
                    + " --metrics-bind-addr (0 serves nothing)");
            assertThat(prober.out() + prober.err()).as("no stack trace").doesNotContain("\tat ", "Exception");
        }
    }
}
