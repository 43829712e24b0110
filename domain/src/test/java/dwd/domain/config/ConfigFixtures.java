package dwd.domain.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Config files used across the domain's tests, written as drafts (the shape the YAML loader produces). */
public final class ConfigFixtures {

    private ConfigFixtures() {
    }

    public static ResourceRefDraft deployment(String name) {
        return new ResourceRefDraft("apps/v1", "Deployment", name);
    }

    public static ScaleInfoDraft level(int level) {
        return new ScaleInfoDraft(level, null, null);
    }

    public static ScaleInfoDraft level(int level, String initialDelay) {
        return new ScaleInfoDraft(level, initialDelay, null);
    }

    public static DependentResourceInfoDraft resource(String name, boolean optional, ScaleInfoDraft scaleUp, ScaleInfoDraft scaleDown) {
        return new DependentResourceInfoDraft(deployment(name), optional, scaleUp, scaleDown);
    }

    /** The three controllers as the original's example and Gardener list them. */
    public static List<DependentResourceInfoDraft> controlPlaneControllers() {
        return List.of(
                resource("kube-controller-manager", false, level(0), level(1)),
                resource("machine-controller-manager", false, level(1, "30s"), level(0)),
                resource("cluster-autoscaler", true, level(2), level(0)));
    }

    /** {@code example/} of the original (§1.4 of the reference). */
    public static ProberConfigDraft originalProberExample() {
        return new ProberConfigDraft("dwd-api-server-probe-secret", null, null, null, null,
                controlPlaneControllers(), "40s", 0.6, null, null);
    }

    /** What Gardener generates: three keys set, everything else left to the defaults (gardener-usage §1.2). */
    public static ProberConfigDraft gardenerProberConfig() {
        return new ProberConfigDraft("shoot-access-dependency-watchdog-probe", "30s", null, null, null,
                controlPlaneControllers(), null, null, null, null);
    }

    public static RequirementDraft requirement(String key, String operator, String... values) {
        return new RequirementDraft(key, operator, values.length == 0 ? null : Arrays.asList(values));
    }

    public static LabelSelectorDraft expressions(RequirementDraft... requirements) {
        return new LabelSelectorDraft(null, Arrays.asList(requirements));
    }

    public static DependantSelectorsDraft podSelectors(LabelSelectorDraft... selectors) {
        return new DependantSelectorsDraft(Arrays.asList(selectors));
    }

    /** {@code example/} of the original and what Gardener generates (gardener-usage §1.3). */
    public static WeederConfigDraft originalWeederExample() {
        Map<String, DependantSelectorsDraft> services = new LinkedHashMap<>();
        services.put("etcd-main-client", podSelectors(expressions(
                requirement("gardener.cloud/role", "In", "controlplane"),
                requirement("role", "In", "apiserver"))));
        services.put("kube-apiserver", podSelectors(expressions(
                requirement("gardener.cloud/role", "In", "controlplane"),
                requirement("role", "NotIn", "main", "apiserver"))));
        return new WeederConfigDraft("5m0s", services);
    }

    /** The validated config, failing the test with the problems if there are any. */
    public static ProberConfig valid(ProberConfigDraft draft) {
        Validated<ProberConfig> outcome = ProberConfigs.validate(draft);
        assertThat(outcome.problems()).as("problems of a config expected to be valid").isEmpty();
        return ((Validated.Valid<ProberConfig>) outcome).value();
    }

    public static WeederConfig valid(WeederConfigDraft draft) {
        Validated<WeederConfig> outcome = WeederConfigs.validate(draft);
        assertThat(outcome.problems()).as("problems of a config expected to be valid").isEmpty();
        return ((Validated.Valid<WeederConfig>) outcome).value();
    }

    public static List<String> paths(Validated<?> outcome) {
        return outcome.problems().stream().map(ConfigProblem::path).toList();
    }
}
