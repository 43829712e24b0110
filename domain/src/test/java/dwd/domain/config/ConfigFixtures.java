package dwd.domain.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Config files used across the domain's tests, as the YAML loader reads them (records of the file as written). */
public final class ConfigFixtures {

    private ConfigFixtures() {
    }

    public static ResourceRefAsWritten deployment(String name) {
        return new ResourceRefAsWritten("apps/v1", "Deployment", name);
    }

    public static ScaleInfoAsWritten level(int level) {
        return new ScaleInfoAsWritten(level, null, null);
    }

    public static ScaleInfoAsWritten level(int level, String initialDelay) {
        return new ScaleInfoAsWritten(level, initialDelay, null);
    }

    public static DependentResourceInfoAsWritten resource(String name, boolean optional, ScaleInfoAsWritten scaleUp, ScaleInfoAsWritten scaleDown) {
        return new DependentResourceInfoAsWritten(deployment(name), optional, scaleUp, scaleDown);
    }

    /** The three controllers as the original's example and Gardener list them. */
    public static List<DependentResourceInfoAsWritten> controlPlaneControllers() {
        return List.of(
                resource("kube-controller-manager", false, level(0), level(1)),
                resource("machine-controller-manager", false, level(1, "30s"), level(0)),
                resource("cluster-autoscaler", true, level(2), level(0)));
    }

    /** {@code example/} of the original (§1.4 of the reference). */
    public static ProberConfigAsWritten originalProberExample() {
        return new ProberConfigAsWritten("dwd-api-server-probe-secret", null, null, null, null,
                controlPlaneControllers(), "40s", 0.6, null, null);
    }

    /** What Gardener generates: three keys set, everything else left to the defaults (gardener-usage §1.2). */
    public static ProberConfigAsWritten gardenerProberConfig() {
        return new ProberConfigAsWritten("shoot-access-dependency-watchdog-probe", "30s", null, null, null,
                controlPlaneControllers(), null, null, null, null);
    }

    public static RequirementAsWritten requirement(String key, String operator, String... values) {
        return new RequirementAsWritten(key, operator, values.length == 0 ? null : Arrays.asList(values));
    }

    public static LabelSelectorAsWritten expressions(RequirementAsWritten... requirements) {
        return new LabelSelectorAsWritten(null, Arrays.asList(requirements));
    }

    public static DependantSelectorsAsWritten podSelectors(LabelSelectorAsWritten... selectors) {
        return new DependantSelectorsAsWritten(Arrays.asList(selectors));
    }

    /** {@code example/} of the original and what Gardener generates (gardener-usage §1.3). */
    public static WeederConfigAsWritten originalWeederExample() {
        Map<String, DependantSelectorsAsWritten> services = new LinkedHashMap<>();
        services.put("etcd-main-client", podSelectors(expressions(
                requirement("gardener.cloud/role", "In", "controlplane"),
                requirement("role", "In", "apiserver"))));
        services.put("kube-apiserver", podSelectors(expressions(
                requirement("gardener.cloud/role", "In", "controlplane"),
                requirement("role", "NotIn", "main", "apiserver"))));
        return new WeederConfigAsWritten("5m0s", services);
    }

    /** The validated config, failing the test with the problems if there are any. */
    public static ProberConfig valid(ProberConfigAsWritten written) {
        Validated<ProberConfig> outcome = ProberConfigs.validate(written);
        assertThat(outcome.problems()).as("problems of a config expected to be valid").isEmpty();
        return ((Validated.Valid<ProberConfig>) outcome).value();
    }

    public static WeederConfig valid(WeederConfigAsWritten written) {
        Validated<WeederConfig> outcome = WeederConfigs.validate(written);
        assertThat(outcome.problems()).as("problems of a config expected to be valid").isEmpty();
        return ((Validated.Valid<WeederConfig>) outcome).value();
    }

    public static List<String> paths(Validated<?> outcome) {
        return outcome.problems().stream().map(ConfigProblem::path).toList();
    }
}
