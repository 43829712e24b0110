package dwd.domain.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dwd.domain.selector.LabelSelector;
import dwd.domain.selector.Requirement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigValuesTest {

    private static final Duration SECONDS_30 = Duration.ofSeconds(30);

    @ParameterizedTest
    @CsvSource({"apps/v1, apps, v1", "v1, '', v1", "autoscaling.k8s.io/v1beta2, autoscaling.k8s.io, v1beta2"})
    void aRefSplitsItsApiVersionIntoGroupAndVersion(String apiVersion, String group, String version) {
        ResourceRef ref = new ResourceRef(apiVersion, "Deployment", "kcm");

        assertThat(ref.group()).isEqualTo(group);
        assertThat(ref.version()).isEqualTo(version);
    }

    @Test
    void aRefPrintsAsApiVersionKindName() {
        assertThat(new ResourceRef("apps/v1", "Deployment", "kube-controller-manager"))
                .hasToString("apps/v1 Deployment kube-controller-manager");
        assertThat(new ResourceRef("v1", "ReplicationController", "x")).hasToString("v1 ReplicationController x");
    }

    @Test
    void twoRefsNameTheSameObjectWhenGroupKindAndNameAgree() {
        ResourceRef ref = new ResourceRef("apps/v1", "Deployment", "kcm");

        assertThat(ref.refersToSameObjectAs(new ResourceRef("apps/v1beta1", "Deployment", "kcm"))).isTrue();
        assertThat(ref.refersToSameObjectAs(new ResourceRef("extensions/v1beta1", "Deployment", "kcm"))).isFalse();
        assertThat(ref.refersToSameObjectAs(new ResourceRef("apps/v1", "StatefulSet", "kcm"))).isFalse();
        assertThat(ref.refersToSameObjectAs(new ResourceRef("apps/v1", "Deployment", "mcm"))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "apps/v/1", "/v1", "apps/", "apps /v1", " v1"})
    void aRefCannotBeBuiltWithAMalformedApiVersion(String apiVersion) {
        assertThatThrownBy(() -> new ResourceRef(apiVersion, "Deployment", "kcm"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("apiVersion ");
    }

    @Test
    void aRefCannotBeBuiltWithoutKindOrName() {
        assertThatThrownBy(() -> new ResourceRef("apps/v1", " ", "kcm")).hasMessage("kind must not be empty");
        assertThatThrownBy(() -> new ResourceRef("apps/v1", "Deployment", "")).hasMessage("name must not be empty");
        assertThatThrownBy(() -> new ResourceRef(null, "Deployment", "kcm")).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aScaleInfoNeedsANonNegativeDelayAndAPositiveTimeout() {
        assertThat(new ScaleInfo(-1, Duration.ZERO, Duration.ofNanos(1)).level()).isEqualTo(-1);
        assertThatThrownBy(() -> new ScaleInfo(0, Duration.ofSeconds(-1), SECONDS_30))
                .hasMessage("initialDelay must not be negative, was -1s");
        assertThatThrownBy(() -> new ScaleInfo(0, Duration.ZERO, Duration.ZERO)).hasMessage("timeout must be positive, was 0s");
    }

    static Stream<Arguments> brokenProberConfigs() {
        List<DependentResourceInfo> resources = ConfigFixtures.valid(ConfigFixtures.gardenerProberConfig()).dependentResourceInfos();
        Duration zero = Duration.ZERO;
        Duration minus = Duration.ofSeconds(-1);
        return Stream.of(
                arguments(" ", SECONDS_30, SECONDS_30, SECONDS_30, 0.2, resources, SECONDS_30, 0.6, 1, 1, "kubeConfigSecretName must not be empty"),
                arguments("s", zero, SECONDS_30, SECONDS_30, 0.2, resources, SECONDS_30, 0.6, 1, 1, "probeInterval must be positive"),
                arguments("s", SECONDS_30, minus, SECONDS_30, 0.2, resources, SECONDS_30, 0.6, 1, 1, "initialDelay must not be negative"),
                arguments("s", SECONDS_30, SECONDS_30, zero, 0.2, resources, SECONDS_30, 0.6, 1, 1, "probeTimeout must be positive"),
                arguments("s", SECONDS_30, SECONDS_30, SECONDS_30, Double.NaN, resources, SECONDS_30, 0.6, 1, 1, "backoffJitterFactor must be between 0 and 1"),
                arguments("s", SECONDS_30, SECONDS_30, SECONDS_30, -0.1, resources, SECONDS_30, 0.6, 1, 1, "backoffJitterFactor must be between 0 and 1"),
                arguments("s", SECONDS_30, SECONDS_30, SECONDS_30, 1.1, resources, SECONDS_30, 0.6, 1, 1, "backoffJitterFactor must be between 0 and 1"),
                arguments("s", SECONDS_30, SECONDS_30, SECONDS_30, 0.2, List.of(), SECONDS_30, 0.6, 1, 1, "dependentResourceInfos must not be empty"),
                arguments("s", SECONDS_30, SECONDS_30, SECONDS_30, 0.2, resources, zero, 0.6, 1, 1, "kcmNodeMonitorGraceDuration must be positive"),
                arguments("s", SECONDS_30, SECONDS_30, SECONDS_30, 0.2, resources, SECONDS_30, 0.0, 1, 1, "nodeLeaseFailureFraction must be greater than 0 and at most 1"),
                arguments("s", SECONDS_30, SECONDS_30, SECONDS_30, 0.2, resources, SECONDS_30, 1.01, 1, 1, "nodeLeaseFailureFraction must be greater than 0 and at most 1"),
                arguments("s", SECONDS_30, SECONDS_30, SECONDS_30, 0.2, resources, SECONDS_30, 0.6, 0, 1, "failureThreshold must be at least 1"),
                arguments("s", SECONDS_30, SECONDS_30, SECONDS_30, 0.2, resources, SECONDS_30, 0.6, 1, 0, "successThreshold must be at least 1"));
    }

    @ParameterizedTest(name = "{10}")
    @MethodSource("brokenProberConfigs")
    void aProberConfigCannotBeBuiltBreakingTheRulesValidationEnforces(String secret, Duration interval, Duration initialDelay,
            Duration timeout, double jitter, List<DependentResourceInfo> resources, Duration grace, double fraction,
            int failures, int successes, String problem) {
        assertThatThrownBy(() -> new ProberConfig(secret, interval, initialDelay, timeout, jitter, resources, grace, fraction,
                failures, successes))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(problem);
    }

    @Test
    void aProberConfigAcceptsTheEdgesOfEveryRange() {
        List<DependentResourceInfo> resources = ConfigFixtures.valid(ConfigFixtures.gardenerProberConfig()).dependentResourceInfos();
        Duration tiny = Duration.ofNanos(1);

        assertThat(new ProberConfig("s", tiny, Duration.ZERO, tiny, 0, resources, tiny, Double.MIN_VALUE, 1, 1).backoffJitterFactor()).isZero();
        assertThat(new ProberConfig("s", tiny, Duration.ZERO, tiny, 1, resources, tiny, 1, 1, 1).nodeLeaseFailureFraction()).isEqualTo(1);
    }

    @Test
    void aWeederConfigKeepsServiceOrderAndCannotBeChanged() {
        Map<String, List<LabelSelector>> services = new LinkedHashMap<>();
        List<LabelSelector> selectors = new ArrayList<>(List.of(LabelSelector.of(Map.of("role", "apiserver"))));
        services.put("zeta", selectors);
        services.put("alpha", List.of(LabelSelector.of(Map.of(), Requirement.exists("role"))));
        WeederConfig config = new WeederConfig(Duration.ofMinutes(5), services);
        selectors.clear();
        services.clear();

        assertThat(config.servicesAndDependantSelectors().keySet()).containsExactly("zeta", "alpha");
        assertThat(config.servicesAndDependantSelectors().get("zeta")).hasSize(1);
        assertThatThrownBy(() -> config.servicesAndDependantSelectors().get("zeta").clear())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aWeederConfigCannotBeBuiltEmptyOrWithoutAPositiveWatchDuration() {
        Map<String, List<LabelSelector>> one = Map.of("etcd", List.of(LabelSelector.of(Map.of("a", "b"))));

        assertThatThrownBy(() -> new WeederConfig(Duration.ZERO, one)).hasMessage("watchDuration must be positive");
        assertThatThrownBy(() -> new WeederConfig(Duration.ofMinutes(5), Map.of()))
                .hasMessage("servicesAndDependantSelectors must not be empty");
        assertThatThrownBy(() -> new WeederConfig(Duration.ofMinutes(5), Map.of("etcd", List.of())))
                .hasMessage("service etcd has no pod selectors");
    }

    @Test
    void configsAsWrittenKeepNullsAndOrderButNotTheCallersCollections() {
        List<LabelSelectorAsWritten> selectors = new ArrayList<>(Arrays.asList(null, new LabelSelectorAsWritten(null, null)));
        DependantSelectorsAsWritten written = new DependantSelectorsAsWritten(selectors);
        selectors.clear();
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("z", null);
        labels.put("a", "1");
        LabelSelectorAsWritten selector = new LabelSelectorAsWritten(labels, null);
        labels.clear();

        assertThat(written.podSelectors()).hasSize(2).first().isNull();
        assertThat(selector.matchLabels().keySet()).containsExactly("z", "a");
        assertThat(selector.matchExpressions()).isNull();
        assertThat(new RequirementAsWritten("k", "In", null).values()).isNull();
        assertThatThrownBy(() -> written.podSelectors().add(null)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(new WeederConfigAsWritten(null, null).servicesAndDependantSelectors()).isNull();
        assertThat(ProberConfigAsWritten.empty()).isEqualTo(new ProberConfigAsWritten(null, null, null, null, null, null, null, null, null, null));
    }

    @Test
    void aProblemPrintsAsPathColonMessage() {
        assertThat(new ConfigProblem("dependentResourceInfos[2].scaleDown", "must be set"))
                .hasToString("dependentResourceInfos[2].scaleDown: must be set");
        assertThatThrownBy(() -> new ConfigProblem(null, "x")).isInstanceOf(NullPointerException.class);
    }

    @Test
    void validatedIsEitherAValueOrAtLeastOneProblem() {
        Validated<Integer> valid = new Validated.Valid<>(2);
        Validated<Integer> invalid = new Validated.Invalid<>(List.of(new ConfigProblem("a", "b; c")));

        assertThat(valid.isValid()).isTrue();
        assertThat(valid.problems()).isEmpty();
        assertThat(valid.map(n -> n * 10)).isEqualTo(new Validated.Valid<>(20));
        assertThat(invalid.isValid()).isFalse();
        assertThat(invalid.<String>map(n -> "never")).isEqualTo(new Validated.Invalid<String>(invalid.problems()));
        assertThatThrownBy(() -> new Validated.Invalid<>(List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an invalid config has at least one problem");
        assertThatThrownBy(() -> new Validated.Valid<>(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void problemsOfAnInvalidOutcomeCannotBeChanged() {
        List<ConfigProblem> problems = new ArrayList<>(List.of(new ConfigProblem("a", "b")));
        Validated.Invalid<Object> invalid = new Validated.Invalid<>(problems);
        problems.clear();

        assertThat(invalid.problems()).hasSize(1);
        assertThatThrownBy(() -> invalid.problems().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aProberConfigCopiesItsResourceList() {
        List<DependentResourceInfo> resources = new ArrayList<>(
                ConfigFixtures.valid(ConfigFixtures.originalProberExample()).dependentResourceInfos());
        ProberConfig config = new ProberConfig("s", SECONDS_30, SECONDS_30, SECONDS_30, 0.2, resources, SECONDS_30, 0.6, 1, 1);
        resources.clear();

        assertThat(config.dependentResourceInfos()).hasSize(3);
        assertThatThrownBy(() -> config.dependentResourceInfos().clear()).isInstanceOf(UnsupportedOperationException.class);
    }
}
