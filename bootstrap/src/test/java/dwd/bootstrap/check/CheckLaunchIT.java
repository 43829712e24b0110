package dwd.bootstrap.check;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.adapters.k8s.testing.objects.CheckFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./dwd check} launched exactly as users launch it: the packaged app on the module path. Proves
 * that picocli, Jackson and client-java (discovery, TLS) work there, which Surefire's class path
 * cannot show.
 */
@WithLocalControlPlane
class CheckLaunchIT {

    private static final Path REPOSITORY =
            Path.of(System.getProperty("dwd.repository.root", "..")).toAbsolutePath().normalize();

    @TempDir
    static Path directory;

    private static Path config;

    record Result(int exitCode, String out, String err) { }

    @BeforeAll
    static void writeConfig() throws IOException {
        config = Files.writeString(directory.resolve("cc.yaml"), """
                conditions:
                  negativePolarity: [Stalled, Reconciling, FetchFailed]
                """);
    }

    private static Result launch(Path stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(REPOSITORY.resolve("dwd").toString(), "check"));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(directory, "out", ".txt");
        Path err = Files.createTempFile(directory, "err", ".txt");
        var builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        if (stdin != null) {
            builder.redirectInput(stdin.toFile());
        }
        Process process = builder.start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("./dwd check " + String.join(" ", args) + " did not exit within 2 minutes");
        }
        return new Result(process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void checksFilesAndStandardInputOnTheModulePath() throws Exception {
        Path objects = Files.writeString(directory.resolve("objects.yaml"), """
                kind: Widget
                metadata: {name: failing, namespace: ns, generation: 2}
                status:
                  observedGeneration: 3
                ---
                kind: Widget
                metadata: {name: clean, namespace: ns, generation: 1}
                status:
                  observedGeneration: 1
                  conditions: [{type: Ready, status: "True", observedGeneration: 1}]
                """);
        Result files = launch(null, "--config", config.toString(), "--file", objects.toString());
        assertThat(files.exitCode()).as(files.err()).isEqualTo(1);
        assertThat(files.out()).isEqualTo("""
                FAIL0002 failure Widget/ns/failing: Ready condition must always be present
                FAIL0006 failure Widget/ns/failing: The ObservedGeneration must be less than or equal to the object Generation
                checked 2 objects: 0 warnings, 2 failures
                """);

        Result stdin = launch(objects, "--kstatus", "--file", "-", "--output", "json");
        assertThat(stdin.exitCode()).as(stdin.err()).isZero();
        assertThat(stdin.out()).contains("\"status\" : \"InProgress\"", "\"status\" : \"Current\"", "\"passed\" : true");
    }

    @Test
    void aMalformedFileExitsOneNamingFileAndLine() throws Exception {
        Path broken = Files.writeString(directory.resolve("broken.yaml"), "kind: Widget\nmetadata: {name: x\n");
        Result result = launch(null, "--config", config.toString(), "--file", broken.toString());
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).startsWith("dwd check: " + broken + ":").contains("cannot parse YAML");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void checksALiveCustomResourceOnTheModulePath(LocalControlPlane controlPlane) throws Exception {
        CheckFixtures.installWidgetCrd(controlPlane.apiClient());
        String namespace = controlPlane.createNamespace("launch");
        CheckFixtures.createWidget(controlPlane.apiClient(), namespace, "w", Map.of());
        CheckFixtures.patchWidgetStatus(controlPlane.apiClient(), namespace, "w", """
                {"observedGeneration":1,"conditions":[{"type":"Ready","status":"True","observedGeneration":1},
                  {"type":"Stalled","status":"False","observedGeneration":1}]}""");
        Path kubeconfig = Files.writeString(directory.resolve("kubeconfig"), controlPlane.kubeconfig());

        Result result = launch(null, "--config", config.toString(), "--kubeconfig", kubeconfig.toString(),
                "--kind", "Widget", "--name", "w", "--namespace", namespace, "--kstatus");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).isEqualTo("kstatus Current Widget/" + namespace + "/w: Resource is Ready\n"
                + "WARN0001 warning Widget/" + namespace + "/w: Negative polarity condition present when Ready condition is True: [Stalled]\n"
                + "WARN0004 warning Widget/" + namespace + "/w: Stalled condition can be removed when its value is False\n"
                + "checked 1 object: 2 warnings, 0 failures\n");
    }
}
