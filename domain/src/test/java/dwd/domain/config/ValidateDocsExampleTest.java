package dwd.domain.config;

import static dwd.domain.config.ConfigFixtures.deployment;
import static dwd.domain.config.ConfigFixtures.level;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The example for the {@code dwd validate} documentation: a prober config with exactly five mistakes, and the five
 * lines dwd reports for it. If a message changes, update the documentation with it.
 */
class ValidateDocsExampleTest {

    /** The file as a user would write it; {@link #AS_WRITTEN} is what the YAML loader makes of it. */
    static final String FILE = """
            kubeConfigSecretName: shoot-access-dependency-watchdog-probe
            probeInterval: 0s                # mistake: must be positive
            nodeLeaseFailureFraction: 60     # mistake: a percentage, not a fraction
            dependentResourceInfos:
              - ref: {apiVersion: apps/v1, kind: Deployment, name: kube-controller-manager}
                scaleUp: {level: 0}
                scaleDown: {level: 1, timeout: 30}        # mistake: no unit
              - ref: {apiVersion: apps/v1, kind: Deployment, name: machine-controller-manager}
                scaleUp: {level: 1, initialDelay: 30s}    # mistake: no scaleDown
              - optional: true                            # mistake: no ref
                scaleUp: {level: 2}
                scaleDown: {level: 0}
            """;

    static final ProberConfigAsWritten AS_WRITTEN = new ProberConfigAsWritten(
            "shoot-access-dependency-watchdog-probe", "0s", null, null, null,
            List.of(
                    new DependentResourceInfoAsWritten(deployment("kube-controller-manager"), null,
                            level(0), new ScaleInfoAsWritten(1, null, "30")),
                    new DependentResourceInfoAsWritten(deployment("machine-controller-manager"), null,
                            level(1, "30s"), null),
                    new DependentResourceInfoAsWritten(null, true, level(2), level(0))),
            null, 60.0, null, null);

    @Test
    void reportsAllFiveMistakesWithTheirLocations() {
        Validated<ProberConfig> outcome = ProberConfigs.validate(AS_WRITTEN);

        assertThat(outcome.isValid()).isFalse();
        assertThat(outcome.problems()).extracting(ConfigProblem::toString).containsExactly(
                "dependentResourceInfos[1].scaleDown: must be set; give at least its level, e.g. scaleDown: {level: 0};"
                        + " lower levels are scaled down first",
                "dependentResourceInfos[2].ref: must be set; name the resource to scale, e.g."
                        + " {apiVersion: apps/v1, kind: Deployment, name: kube-controller-manager}",
                "probeInterval: must be positive (was 0s); it is the time between two probes, e.g. 10s",
                "dependentResourceInfos[0].scaleDown.timeout: invalid duration \"30\": missing unit after 30; add one of"
                        + " ns, us, ms, s, m, h, e.g. 30s (only a bare 0 may go without one)",
                "nodeLeaseFailureFraction: must be greater than 0 and at most 1 (was 60.0); it is the fraction of expired"
                        + " node leases at which controllers are scaled down, e.g. 0.6");
    }

    @Test
    void theFileAndItsRecordDescribeTheSameMistakes() {
        assertThat(FILE.lines().filter(line -> line.contains("# mistake")).count()).isEqualTo(5);
        assertThat(ProberConfigs.validate(AS_WRITTEN).problems()).hasSize(5);
    }
}
