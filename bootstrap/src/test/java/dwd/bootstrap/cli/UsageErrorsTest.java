package dwd.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.bootstrap.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A command line that cannot be run says what is wrong, and for a typo what was probably meant. */
class UsageErrorsTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @ParameterizedTest
    @CsvSource({
        "prober, --config-fil, --config-file",
        "weeder, --config-fil=w.yaml, --config-file",
        "prober, --kubeconfg, --kubeconfig",
        "prober, --kube-api-qsp, --kube-api-qps",
        "weeder, --enable-leader-elction, --enable-leader-election",
        "prober, --zap-log-levle, --zap-log-level",
        "plan, --confg-file, --config-file",
    })
    void aTypoIsAnUnknownOptionWithTheNearestOneEvenWhenARequiredOptionIsMissing(String command, String typed,
            String meant) {
        assertThat(run(command, typed, "x.yaml")).isEqualTo(2);
        String name = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
        assertThat(err.toString()).isEqualTo("dwd " + command + ": unknown option '" + name + "'; did you mean " + meant
                + "? Run 'dwd " + command + " --help' for usage.\n");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void anUnknownOptionFarFromEveryOneIsReportedWithoutAGuess() {
        assertThat(run("prober", "--frobnicate", "--config-file", "x.yaml")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("dwd prober: unknown option '--frobnicate'. Run 'dwd prober --help' for usage.\n");
    }

    @Test
    void hiddenOptionsAreNeverSuggested() {
        assertThat(run("prober", "--zap-encodr", "json", "--config-file", "x.yaml")).isEqualTo(2);
        assertThat(err.toString()).doesNotContain("did you mean");
    }

    @Test
    void aMistypedCommandGetsTheNearestCommand() {
        assertThat(run("versio")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("dwd: unknown command 'versio'; did you mean version? Run 'dwd --help' for usage.\n");
    }

    @Test
    void aMissingRequiredOptionIsNamedWhenNothingElseIsWrong() {
        assertThat(run("validate", "weeder")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("dwd validate: missing required option: '--config-file=FILE'."
                + " Run 'dwd validate --help' for usage.\n");
    }

    @Test
    void badValuesNameTheOptionAndWhatItTakes() {
        assertThat(run("prober", "--config-file", "x.yaml", "--kube-api-qps=fast")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("dwd prober: invalid value for option '--kube-api-qps': 'fast' is not a"
                + " number of requests per second, e.g. 20. Run 'dwd prober --help' for usage.\n");
    }

    @Test
    void leaderElectionDurationsThatDoNotFitAreAUsageErrorInGoSyntax() {
        assertThat(run("weeder", "--config-file", "x.yaml", "--enable-leader-election",
                "--leader-elect-lease-duration=1m30s", "--leader-elect-renew-deadline=2m")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("dwd weeder: --leader-elect-lease-duration (1m30s) must be longer than"
                + " --leader-elect-renew-deadline (2m0s). Run 'dwd weeder --help' for usage.\n");
    }

    @Test
    void distanceCountsASwapOfNeighboursAsOneEdit() {
        assertThat(UsageErrors.distance("--kube-api-qsp", "--kube-api-qps")).isEqualTo(1);
        assertThat(UsageErrors.distance("--config-fil", "--config-file")).isEqualTo(1);
        assertThat(UsageErrors.closest("--x", List.of("--config-file", "--kubeconfig"))).isEmpty();
    }
}
