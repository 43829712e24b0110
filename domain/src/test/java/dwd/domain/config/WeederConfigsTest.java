package dwd.domain.config;

import static dwd.domain.config.ConfigFixtures.expressions;
import static dwd.domain.config.ConfigFixtures.originalWeederExample;
import static dwd.domain.config.ConfigFixtures.paths;
import static dwd.domain.config.ConfigFixtures.podSelectors;
import static dwd.domain.config.ConfigFixtures.requirement;
import static dwd.domain.config.ConfigFixtures.valid;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.domain.selector.LabelSelector;
import dwd.domain.selector.Requirement;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WeederConfigsTest {

    private static final String ETCD = "servicesAndDependantSelectors[etcd-main-client]";

    @Test
    void theOriginalsExampleIsValidAndKeepsTheServicesInFileOrder() {
        WeederConfig config = valid(originalWeederExample());

        assertThat(config.watchDuration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(config.servicesAndDependantSelectors()).containsExactly(
                Map.entry("etcd-main-client", List.of(LabelSelector.of(Map.of(),
                        Requirement.in("gardener.cloud/role", "controlplane"),
                        Requirement.in("role", "apiserver")))),
                Map.entry("kube-apiserver", List.of(LabelSelector.of(Map.of(),
                        Requirement.in("gardener.cloud/role", "controlplane"),
                        Requirement.notIn("role", "main", "apiserver")))));
    }

    @Test
    void anAbsentWatchDurationDefaultsToFiveMinutes() {
        WeederConfig config = valid(new WeederConfigAsWritten(null, originalWeederExample().servicesAndDependantSelectors()));

        assertThat(config.watchDuration()).isEqualTo(WeederConfigs.DEFAULT_WATCH_DURATION).isEqualTo(Duration.ofMinutes(5));
    }

    /** The original's fixture: an {@code In} expression without values is exactly one error. */
    @Test
    void anInExpressionWithoutValuesIsOneProblem() {
        Validated<WeederConfig> outcome = WeederConfigs.validate(weeder("etcd-main-client",
                podSelectors(expressions(requirement("role", "In")))));

        assertThat(outcome.problems()).extracting(ConfigProblem::toString).containsExactly(
                ETCD + ".podSelectors[0].matchExpressions[0].values: must not be empty for operator In; list the values"
                        + " to compare the label with, e.g. values: [apiserver]");
    }

    /** The original's fixture: one service mapped to null next to a valid one is exactly one error. */
    @Test
    void aServiceWithoutSelectorsNextToAValidOneIsOneProblem() {
        Map<String, DependantSelectorsAsWritten> services = new LinkedHashMap<>();
        services.put("etcd-main-client", null);
        services.put("kube-apiserver", originalWeederExample().servicesAndDependantSelectors().get("kube-apiserver"));

        assertThat(WeederConfigs.validate(new WeederConfigAsWritten("5m", services)).problems())
                .extracting(ConfigProblem::toString)
                .containsExactly(ETCD + ".podSelectors: must not be empty; list at least one label selector of the pods"
                        + " that depend on this service");
    }

    @Test
    void anEmptyPodSelectorListIsAProblem() {
        assertThat(paths(WeederConfigs.validate(weeder("etcd-main-client", new DependantSelectorsAsWritten(List.of())))))
                .containsExactly(ETCD + ".podSelectors");
    }

    @Test
    void noServicesIsAProblemAndSoIsAnEmptyFile() {
        String expected = "servicesAndDependantSelectors: must not be empty; map each service name to the pods to restart"
                + " when it turns ready, e.g. etcd-main-client: {podSelectors: [{matchLabels: {role: apiserver}}]}";
        assertThat(WeederConfigs.validate(new WeederConfigAsWritten("5m", Map.of())).problems())
                .extracting(ConfigProblem::toString).containsExactly(expected);
        assertThat(WeederConfigs.validate(null).problems()).extracting(ConfigProblem::toString).containsExactly(expected);
    }

    @Test
    void anEmptySelectorIsRejectedBecauseItWouldMatchEveryPod() {
        Validated<WeederConfig> outcome = WeederConfigs.validate(weeder("etcd-main-client",
                podSelectors(new LabelSelectorAsWritten(Map.of(), List.of()))));

        assertThat(outcome.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo(ETCD + ".podSelectors[0]");
            assertThat(problem.message()).startsWith("must not be empty; a selector without matchLabels and"
                    + " matchExpressions matches every pod in the namespace");
        });
    }

    @Test
    void aNullSelectorIsRejectedBecauseItWouldMatchEveryPod() {
        Validated<WeederConfig> outcome = WeederConfigs.validate(weeder("etcd-main-client",
                new DependantSelectorsAsWritten(Arrays.asList(expressions(requirement("role", "Exists")), null))));

        assertThat(outcome.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo(ETCD + ".podSelectors[1]");
            assertThat(problem.message()).startsWith("must not be null; a missing selector would match every pod in the namespace");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"0s", "0", "-5m"})
    void aWatchDurationThatIsNotPositiveIsAProblem(String watchDuration) {
        Validated<WeederConfig> outcome = WeederConfigs.validate(
                new WeederConfigAsWritten(watchDuration, originalWeederExample().servicesAndDependantSelectors()));

        assertThat(outcome.problems()).singleElement().hasToString("watchDuration: must be positive (was "
                + GoDuration.format(GoDuration.parse(watchDuration)) + "); it is how long dependent pods are watched"
                + " after the service turns ready, e.g. 5m");
    }

    @Test
    void anUnparsableWatchDurationIsAProblem() {
        Validated<WeederConfig> outcome = WeederConfigs.validate(
                new WeederConfigAsWritten("5 minutes", originalWeederExample().servicesAndDependantSelectors()));

        assertThat(outcome.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("watchDuration");
            assertThat(problem.message()).startsWith("invalid duration \"5 minutes\": unknown unit \" minutes\"");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"Etcd-Main-Client", "etcd_main", "1etcd", "", "etcd-", "a-very-long-service-name-that-is-longer-than-sixty-three-characters"})
    void aKeyNoServiceCanHaveIsAProblem(String service) {
        Validated<WeederConfig> outcome = WeederConfigs.validate(weeder(service, podSelectors(expressions(requirement("role", "Exists")))));

        assertThat(outcome.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("servicesAndDependantSelectors[" + service + "]");
            assertThat(problem.message()).startsWith("is not a Service name, so no EndpointSlice would ever match it");
        });
    }

    @Test
    void selectorProblemsAreLocatedInsideTheSelector() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("gardener.cloud/role", "control plane");
        labels.put("Gardener.cloud/x", "ok");
        Validated<WeederConfig> outcome = WeederConfigs.validate(weeder("kube-apiserver", podSelectors(new LabelSelectorAsWritten(labels,
                List.of(requirement("role", "in", "main"), requirement("role", "Exists", "x"))))));

        assertThat(paths(outcome)).containsExactly(
                "servicesAndDependantSelectors[kube-apiserver].podSelectors[0].matchLabels[gardener.cloud/role]",
                "servicesAndDependantSelectors[kube-apiserver].podSelectors[0].matchLabels[Gardener.cloud/x]",
                "servicesAndDependantSelectors[kube-apiserver].podSelectors[0].matchExpressions[0].operator",
                "servicesAndDependantSelectors[kube-apiserver].podSelectors[0].matchExpressions[1].values");
    }

    @Test
    void theOriginalsProblemsComeFirstThenDwdsOwn() {
        Map<String, DependantSelectorsAsWritten> services = new LinkedHashMap<>();
        services.put("Etcd", podSelectors(new LabelSelectorAsWritten(null, null)));
        services.put("kube-apiserver", podSelectors(expressions(requirement("role", "In"))));
        services.put("vpa", new DependantSelectorsAsWritten(null));

        assertThat(paths(WeederConfigs.validate(new WeederConfigAsWritten("0s", services)))).containsExactly(
                "servicesAndDependantSelectors[kube-apiserver].podSelectors[0].matchExpressions[0].values",
                "servicesAndDependantSelectors[vpa].podSelectors",
                "watchDuration",
                "servicesAndDependantSelectors[Etcd]",
                "servicesAndDependantSelectors[Etcd].podSelectors[0]");
    }

    @Test
    void aNullLabelValueCountsAsEmptyAsInTheOriginal() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("role", null);
        WeederConfig config = valid(weeder("etcd-main-client", podSelectors(new LabelSelectorAsWritten(labels,
                List.of(new RequirementAsWritten("tier", "In", Arrays.asList("a", null)))))));

        LabelSelector selector = config.servicesAndDependantSelectors().get("etcd-main-client").getFirst();
        assertThat(selector.matchLabels()).containsExactly(Map.entry("role", ""));
        assertThat(selector.matchExpressions().getFirst().values()).containsExactly("a", "");
    }

    @Test
    void theConfigCannotBeChangedThroughTheFileAsWrittenOrItsOwnMaps() {
        Map<String, DependantSelectorsAsWritten> services = new LinkedHashMap<>(originalWeederExample().servicesAndDependantSelectors());
        WeederConfigAsWritten written = new WeederConfigAsWritten(null, services);
        services.clear();
        WeederConfig config = valid(written);

        assertThat(config.servicesAndDependantSelectors()).hasSize(2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> config.servicesAndDependantSelectors().clear())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    private static WeederConfigAsWritten weeder(String service, DependantSelectorsAsWritten selectors) {
        Map<String, DependantSelectorsAsWritten> services = new LinkedHashMap<>();
        services.put(service, selectors);
        return new WeederConfigAsWritten("5m", services);
    }
}
