package dwd.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.bootstrap.LaunchSmokeIT.Result;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code ./dwd prober --dry-run…} as an operator types it (the packaged app on the module path): each
 * form's exit status and what it prints. The seed's kubeconfig does not exist, so a role whose flag
 * parsed stops there with status 1, after the flag's warning and the shadow-mode notice.
 */
class DryRunLaunchIT {

    private static final String KUBECONFIG_MISSING = "dwd prober: --kubeconfig /nonexistent/kubeconfig: no such file";
    private static final String INVALID = "Invalid dry-run value (bogus). Must be \"none\", \"server\", or \"client\".";

    private static Result prober(String dryRunArg) throws Exception {
        List<String> args = new ArrayList<>(List.of("prober", "--config-file",
                LaunchSmokeIT.REPOSITORY.resolve("deploy/examples/prober-config.yaml").toString(),
                "--kubeconfig", "/nonexistent/kubeconfig"));
        args.add(dryRunArg);
        return LaunchSmokeIT.launch(args.toArray(String[]::new));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--dry-run        | 1 | dwd prober: warning: --dry-run is deprecated and can be replaced with --dry-run=client.",
        "--dry-run=true   | 1 | dwd prober: warning: --dry-run=true is deprecated (boolean value) and can be replaced with --dry-run=client.",
        "--dry-run=false  | 1 | dwd prober: warning: --dry-run=false is deprecated (boolean value) and can be replaced with --dry-run=none.",
        "--dry-run=client | 1 | ",
        "--dry-run=server | 1 | ",
        "--dry-run=none   | 1 | ",
    })
    void aValidFormIsAcceptedAndTheProberGoesOnToItsSeed(String arg, int exit, String warning) throws Exception {
        Result result = prober(arg);

        assertThat(result.exitCode()).as(result.err()).isEqualTo(exit);
        List<String> lines = result.err().lines().toList();
        assertThat(lines).last().isEqualTo(KUBECONFIG_MISSING);
        if (warning != null) {
            assertThat(lines).first().isEqualTo(warning);
        }
        boolean shadow = List.of("--dry-run", "--dry-run=true", "--dry-run=client", "--dry-run=server").contains(arg);
        String mode = arg.equals("--dry-run=server") ? "server" : "client";
        assertThat(result.err().contains("dwd prober runs in shadow mode (--dry-run=" + mode + ")"))
                .as("the shadow-mode notice in %s", result.err()).isEqualTo(shadow);
        assertThat(lines).as("nothing else").hasSize(1 + (warning == null ? 0 : 1) + (shadow ? 1 : 0));
    }

    @Test
    void anInvalidValueExitsWithTwoAndKubectlsMessageOnly() throws Exception {
        Result result = prober("--dry-run=bogus");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo(INVALID + "\n");
        assertThat(result.out()).isEmpty();
    }
}
