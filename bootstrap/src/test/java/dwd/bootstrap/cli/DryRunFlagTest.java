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
import org.junit.jupiter.api.Test;

/**
 * {@code --dry-run} through the launcher's entry point ({@link Main#run}), for both roles: each form's
 * exit status and exactly what it prints before the role would start. The seed's kubeconfig does
 * not exist, so a role whose flag parsed ends there with status 1.
 */
class DryRunFlagTest {

    private static final String CONFIG = "../deploy/examples/prober-config.yaml";
    private static final String WEEDER_CONFIG = "../deploy/examples/weeder-config.yaml";
    private static final String MISSING_KUBECONFIG = "/nonexistent/kubeconfig";

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String role, String... dryRunArgs) {
        List<String> args = new ArrayList<>(List.of(role, "--config-file", role.equals("prober") ? CONFIG : WEEDER_CONFIG,
                "--kubeconfig", MISSING_KUBECONFIG));
        args.addAll(List.of(dryRunArgs));
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
    }

    private static String kubeconfigMissing(String role) {
        return "dwd " + role + ": --kubeconfig " + MISSING_KUBECONFIG + ": no such file\n";
    }

    @ParameterizedTest
    @ValueSource(strings = {"prober", "weeder"})
    void noFlagActsForReal(String role) {
        assertThat(run(role)).isEqualTo(1);
        assertThat(err.toString()).isEqualTo(kubeconfigMissing(role));
    }

    @ParameterizedTest
    @CsvSource({"prober,client", "prober,server", "prober,none", "weeder,client", "weeder,server", "weeder,none"})
    void theThreeModesAreAcceptedSilently(String role, String mode) {
        assertThat(run(role, "--dry-run=" + mode)).isEqualTo(1);
        assertThat(err.toString()).isEqualTo(kubeconfigMissing(role));
    }

    @ParameterizedTest
    @ValueSource(strings = {"prober", "weeder"})
    void theFlagAloneIsClientWithADeprecationWarning(String role) {
        assertThat(run(role, "--dry-run")).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("dwd " + role
                + ": warning: --dry-run is deprecated and can be replaced with --dry-run=client.\n" + kubeconfigMissing(role));
    }

    @ParameterizedTest
    @CsvSource({"prober,true,client", "prober,false,none", "weeder,true,client", "weeder,false,none",
        "prober,1,client", "weeder,F,none"})
    void booleansAreDeprecatedForms(String role, String value, String replacement) {
        assertThat(run(role, "--dry-run=" + value)).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("dwd " + role + ": warning: --dry-run=" + value
                + " is deprecated (boolean value) and can be replaced with --dry-run=" + replacement + ".\n"
                + kubeconfigMissing(role));
    }

    @ParameterizedTest
    @CsvSource({"prober,bogus", "weeder,bogus", "prober,''", "prober,Client", "weeder,yes"})
    void anyOtherValueExitsWithTwoAndKubectlsMessageOnly(String role, String value) {
        assertThat(run(role, "--dry-run=" + value)).isEqualTo(2);
        assertThat(err.toString())
                .isEqualTo("Invalid dry-run value (" + value + "). Must be \"none\", \"server\", or \"client\".\n");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aValueMayAlsoFollowAsTheNextArgument() {
        assertThat(run("prober", "--dry-run", "bogus")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("Invalid dry-run value (bogus). Must be \"none\", \"server\", or \"client\".\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"prober", "weeder"})
    void theRolesHelpShowsTheFlagAndItsModes(String role) {
        assertThat(Main.run(new PrintWriter(out, true), new PrintWriter(err, true), role, "--help")).isZero();
        assertThat(out.toString().replaceAll("\\s+", " ")).as("help, lines joined")
                .contains("--dry-run[=MODE]", "Shadow mode: none (the default) acts; client",
                        "server sends every change with dryRun=All");
    }

    @Test
    void theRootHelpNamesShadowMode() {
        assertThat(Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "--help")).isZero();
        assertThat(out.toString()).contains("Shadow mode: 'dwd prober' and 'dwd weeder' take --dry-run=none|client|server");
    }
}
