package dwd.domain.scaling;

import static dwd.domain.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ScalingRulesTest {

    @Test
    void annotationKeysAreTheOriginals() {
        assertThat(Annotations.REPLICAS).isEqualTo("dependency-watchdog.gardener.cloud/replicas");
        assertThat(Annotations.MELTDOWN_PROTECTION_ACTIVE).isEqualTo("dependency-watchdog.gardener.cloud/meltdown-protection-active");
        assertThat(Annotations.IGNORE_SCALING).isEqualTo("dependency-watchdog.gardener.cloud/ignore-scaling");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "t", "T", "TRUE", "true", "True"})
    void goTrueValuesMeanIgnoreScaling(String value) {
        assertThat(ScalingRules.ignoreScaling(Map.of(Annotations.IGNORE_SCALING, value))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "f", "false", "False", "tRUE", "yes", "on", "", " true", "true ", "2"})
    void anythingElseMeansScaleAsUsual(String value) {
        assertThat(ScalingRules.ignoreScaling(Map.of(Annotations.IGNORE_SCALING, value))).isFalse();
    }

    @Test
    void noAnnotationMeansScaleAsUsual() {
        assertThat(ScalingRules.ignoreScaling(Map.of())).isFalse();
        assertThat(ScalingRules.ignoreScaling(null)).isFalse();
        assertThat(ScalingRules.ignoreScaling(Map.of("ignore-scaling", "true"))).isFalse();
    }

    @Test
    void withoutAReplicasAnnotationScaleUpRestoresOneReplica() {
        assertThat(ScalingRules.scaleUpTarget(Map.of(), "kcm")).isEqualTo(new ScaleUpTarget.Replicas(1, false));
        assertThat(ScalingRules.scaleUpTarget(null, "kcm")).isEqualTo(new ScaleUpTarget.Replicas(1, false));
    }

    @ParameterizedTest
    @CsvSource({"1, 1", "3, 3", "+3, 3", "007, 7", "2147483647, 2147483647"})
    void theReplicasAnnotationIsReadAsGoReadsAnInt(String value, int replicas) {
        assertThat(ScalingRules.scaleUpTarget(Map.of(Annotations.REPLICAS, value), "kcm"))
                .isEqualTo(new ScaleUpTarget.Replicas(replicas, true));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "abc|is not a whole number",
            "''|is not a whole number",
            "' 3'|is not a whole number",
            "'3 '|is not a whole number",
            "+|is not a whole number",
            "-|is not a whole number",
            "1_000|is not a whole number",
            "0x10|is not a whole number",
            "1.5|is not a whole number",
            "٣|is not a whole number",
            "0|is not a positive replica count",
            "-0|is not a positive replica count",
            "-2|is not a positive replica count",
            "2147483648|is larger than the largest replica count, 2147483647",
            "99999999999999999999999|is larger than the largest replica count, 2147483647",
    })
    void anUnusableAnnotationIsAnErrorNamingTheResourceTheAnnotationAndTheValue(String value, String problem) {
        ScaleUpTarget target = ScalingRules.scaleUpTarget(Map.of(Annotations.REPLICAS, value), "kube-controller-manager");

        assertThat(target).isInstanceOfSatisfying(ScaleUpTarget.UnusableAnnotation.class, unusable -> {
            assertThat(unusable.resourceName()).isEqualTo("kube-controller-manager");
            assertThat(unusable.value()).isEqualTo(value);
            assertThat(unusable.message()).isEqualTo("cannot scale up kube-controller-manager: annotation"
                    + " dependency-watchdog.gardener.cloud/replicas has the value \"" + value + "\", which " + problem
                    + "; set it to the replica count to restore (e.g. \"2\"), or remove it to restore 1 replica");
        });
    }

    @Test
    void everyPositiveIntRoundTripsThroughTheAnnotation() {
        forAll(random -> random.nextInt(1, Integer.MAX_VALUE), replicas -> {
            Map<String, String> annotations = new HashMap<>();
            annotations.put(Annotations.REPLICAS, Integer.toString(replicas));
            assertThat(ScalingRules.scaleUpTarget(annotations, "r")).isEqualTo(new ScaleUpTarget.Replicas(replicas, true));
        });
    }

    @ParameterizedTest
    @CsvSource({
            "UP, 0, true",
            "UP, 1, false",
            "UP, 5, false",
            "UP, -1, false",
            "DOWN, 0, false",
            "DOWN, 1, true",
            "DOWN, 5, true",
            "DOWN, -1, false",
    })
    void onlyAResourceNotYetAtItsTargetNeedsScaling(ScaleDirection direction, int specReplicas, boolean needsAction) {
        assertThat(ScalingRules.needsAction(direction, specReplicas)).isEqualTo(needsAction);
    }
}
