package dwd.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.bootstrap.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --compare-with-original} through the launcher's entry point, for both roles: refused without shadow
 * mode, and its other flags without it; accepted with {@code --dry-run}, where the role goes on to its seed
 * (which does not exist here: status 1).
 */
class CompareFlagsTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String role, String... flags) {
        List<String> args = new ArrayList<>(List.of(role, "--config-file", "../deploy/examples/" + role + "-config.yaml",
                "--kubeconfig", "/nonexistent/kubeconfig"));
        args.addAll(List.of(flags));
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
    }

    @ParameterizedTest
    @CsvSource({"prober,", "weeder,", "prober,--dry-run=none", "weeder,--dry-run=false"})
    void withoutShadowModeTheComparisonIsRefusedWithStatusTwo(String role, String dryRun) {
        int status = dryRun == null ? run(role, "--compare-with-original") : run(role, "--compare-with-original", dryRun);

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("--compare-with-original needs --dry-run=server (or client):"
                + " beside the original dependency-watchdog, dwd must change nothing");
    }

    @ParameterizedTest
    @ValueSource(strings = {"prober", "weeder"})
    void inShadowModeItIsAcceptedAndTheRoleGoesOn(String role) {
        assertThat(run(role, "--dry-run=server", "--compare-with-original", "--comparison-window=90s",
                "--original-field-manager=dependency-watchdog")).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("dwd " + role + ": --kubeconfig /nonexistent/kubeconfig: no such file\n");
    }

    @ParameterizedTest
    @CsvSource({"--comparison-window=0s,--comparison-window must be positive, e.g. 5m; was 0s",
        "--comparison-window=5,--comparison-window: ", "--original-field-manager= ,--original-field-manager must not be empty"})
    void badValuesAreUsageErrors(String flag, String message) {
        assertThat(run("prober", "--dry-run=server", "--compare-with-original", flag)).isEqualTo(2);
        assertThat(err.toString()).contains(message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--comparison-window=1m", "--original-field-manager=dwd-original"})
    void itsOtherFlagsWithoutItAreUsageErrors(String flag) {
        assertThat(run("weeder", "--dry-run=server", flag)).isEqualTo(2);
        assertThat(err.toString()).contains("has no effect without --compare-with-original");
    }
}
