package dwd.domain.scaling;

import static dwd.domain.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.domain.config.ConfigFixtures;
import dwd.domain.config.DependentResourceInfo;
import dwd.domain.config.ProberConfig;
import dwd.domain.config.ResourceRef;
import dwd.domain.config.ScaleInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScalePlanTest {

    private static final Duration NONE = Duration.ZERO;
    private static final Duration SECONDS_30 = Duration.ofSeconds(30);
    private static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");
    private static final ResourceRef MCM = new ResourceRef("apps/v1", "Deployment", "machine-controller-manager");
    private static final ResourceRef CA = new ResourceRef("apps/v1", "Deployment", "cluster-autoscaler");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"the original's example", "Gardener's config"})
    void scaleDownStopsMachineControllerAndAutoscalerTogetherThenTheKubeControllerManager(String config) {
        ScalePlan plan = ScalePlan.of(resourcesOf(config), ScaleDirection.DOWN);

        assertThat(plan.direction()).isEqualTo(ScaleDirection.DOWN);
        assertThat(plan.levels()).containsExactly(
                new ScaleLevel(0, List.of(new ScaleStep(MCM, false, NONE, SECONDS_30), new ScaleStep(CA, true, NONE, SECONDS_30))),
                new ScaleLevel(1, List.of(new ScaleStep(KCM, false, NONE, SECONDS_30))));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"the original's example", "Gardener's config"})
    void scaleUpStartsTheKubeControllerManagerThenTheMachineControllerAfter30sThenTheAutoscaler(String config) {
        ScalePlan plan = ScalePlan.of(resourcesOf(config), ScaleDirection.UP);

        assertThat(plan.levels()).containsExactly(
                new ScaleLevel(0, List.of(new ScaleStep(KCM, false, NONE, SECONDS_30))),
                new ScaleLevel(1, List.of(new ScaleStep(MCM, false, SECONDS_30, SECONDS_30))),
                new ScaleLevel(2, List.of(new ScaleStep(CA, true, NONE, SECONDS_30))));
        assertThat(plan.steps()).extracting(step -> step.ref().name())
                .containsExactly("kube-controller-manager", "machine-controller-manager", "cluster-autoscaler");
    }

    @Test
    void describesThePlansInWords() {
        List<DependentResourceInfo> resources = resourcesOf("Gardener's config");

        assertThat(ScalePlan.of(resources, ScaleDirection.DOWN).describe()).containsExactly(
                "scale-down plan: 2 levels, each starts when the one before has finished",
                "level 0, 2 resources in parallel:",
                "  apps/v1 Deployment machine-controller-manager: initialDelay 0s, timeout 30s",
                "  apps/v1 Deployment cluster-autoscaler (optional): initialDelay 0s, timeout 30s",
                "level 1:",
                "  apps/v1 Deployment kube-controller-manager: initialDelay 0s, timeout 30s");
        assertThat(ScalePlan.of(resources, ScaleDirection.UP).describe()).containsExactly(
                "scale-up plan: 3 levels, each starts when the one before has finished",
                "level 0:",
                "  apps/v1 Deployment kube-controller-manager: initialDelay 0s, timeout 30s",
                "level 1:",
                "  apps/v1 Deployment machine-controller-manager: initialDelay 30s, timeout 30s",
                "level 2:",
                "  apps/v1 Deployment cluster-autoscaler (optional): initialDelay 0s, timeout 30s");
    }

    @Test
    void describesSingleLevelAndEmptyPlans() {
        ScaleInfo scale = new ScaleInfo(-3, Duration.ofMillis(1500), Duration.ofMinutes(2));
        assertThat(ScalePlan.of(List.of(new DependentResourceInfo(KCM, false, scale, scale)), ScaleDirection.UP).describe())
                .containsExactly("scale-up plan: 1 level", "level -3:",
                        "  apps/v1 Deployment kube-controller-manager: initialDelay 1.5s, timeout 2m0s");
        assertThat(new ScalePlan(ScaleDirection.DOWN, List.of()).describe()).containsExactly("scale-down plan: nothing to scale");
    }

    @Test
    void negativeLevelsAndGapsKeepTheirOrder() {
        List<DependentResourceInfo> resources = List.of(
                info(KCM, 10, 10), info(MCM, -5, -5), info(CA, 3, 3));

        assertThat(ScalePlan.of(resources, ScaleDirection.UP).levels()).extracting(ScaleLevel::level).containsExactly(-5, 3, 10);
    }

    @Test
    void aPlanRejectsLevelsOutOfOrderOrRepeated() {
        ScaleLevel one = new ScaleLevel(1, List.of(new ScaleStep(KCM, false, NONE, SECONDS_30)));
        ScaleLevel zero = new ScaleLevel(0, List.of(new ScaleStep(MCM, false, NONE, SECONDS_30)));
        ScaleLevel oneAgain = new ScaleLevel(1, List.of(new ScaleStep(CA, false, NONE, SECONDS_30)));

        assertThatThrownBy(() -> new ScalePlan(ScaleDirection.UP, List.of(one, zero)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("levels must be strictly ascending, but level 0 follows level 1");
        assertThatThrownBy(() -> new ScalePlan(ScaleDirection.UP, List.of(one, oneAgain)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScaleLevel(0, List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("level 0 has no steps");
    }

    @Test
    void aPlanRejectsTheSameResourceTwiceEvenUnderAnotherVersion() {
        ResourceRef kcmBeta = new ResourceRef("apps/v1beta2", "Deployment", "kube-controller-manager");

        assertThatThrownBy(() -> ScalePlan.of(List.of(info(KCM, 0, 0), info(kcmBeta, 1, 1)), ScaleDirection.DOWN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("each resource may appear once in a plan, but apps/v1 Deployment kube-controller-manager"
                        + " and apps/v1beta2 Deployment kube-controller-manager are the same resource");
    }

    @Test
    void aStepNeedsANonNegativeDelayAndAPositiveTimeout() {
        assertThatThrownBy(() -> new ScaleStep(KCM, false, Duration.ofMillis(-1), SECONDS_30))
                .hasMessage("initialDelay of apps/v1 Deployment kube-controller-manager must not be negative");
        assertThatThrownBy(() -> new ScaleStep(KCM, false, NONE, NONE))
                .hasMessage("timeout of apps/v1 Deployment kube-controller-manager must be positive");
    }

    @Test
    void everyResourceAppearsOnceInEachDirectionWithThatDirectionsSettings() {
        forAll(ScalePlanTest::resources, resources -> {
            for (ScaleDirection direction : ScaleDirection.values()) {
                ScalePlan plan = ScalePlan.of(resources, direction);

                assertThat(plan.steps()).extracting(ScaleStep::ref)
                        .containsExactlyInAnyOrderElementsOf(resources.stream().map(DependentResourceInfo::ref).toList());
                for (DependentResourceInfo resource : resources) {
                    ScaleInfo expected = direction == ScaleDirection.UP ? resource.scaleUp() : resource.scaleDown();
                    ScaleLevel level = plan.levels().stream()
                            .filter(candidate -> candidate.steps().stream().anyMatch(step -> step.ref().equals(resource.ref())))
                            .findFirst().orElseThrow();
                    ScaleStep step = level.steps().stream().filter(candidate -> candidate.ref().equals(resource.ref())).findFirst().orElseThrow();
                    assertThat(level.level()).isEqualTo(expected.level());
                    assertThat(step).isEqualTo(new ScaleStep(resource.ref(), resource.optional(), expected.initialDelay(), expected.timeout()));
                }
            }
        });
    }

    @Test
    void levelsAreStrictlyAscendingAndKeepConfigOrderWithinALevel() {
        forAll(ScalePlanTest::resources, resources -> {
            for (ScaleDirection direction : ScaleDirection.values()) {
                ScalePlan plan = ScalePlan.of(resources, direction);

                List<Integer> levels = plan.levels().stream().map(ScaleLevel::level).toList();
                assertThat(levels).isSorted().doesNotHaveDuplicates();
                Map<Integer, List<ResourceRef>> configOrderByLevel = resources.stream().collect(Collectors.groupingBy(
                        resource -> (direction == ScaleDirection.UP ? resource.scaleUp() : resource.scaleDown()).level(),
                        Collectors.mapping(DependentResourceInfo::ref, Collectors.toList())));
                assertThat(levels).containsExactlyInAnyOrderElementsOf(configOrderByLevel.keySet());
                plan.levels().forEach(level -> assertThat(level.steps()).extracting(ScaleStep::ref)
                        .containsExactlyElementsOf(configOrderByLevel.get(level.level())));
                assertThat(plan.describe()).hasSize(1 + levels.size() + resources.size());
            }
        });
    }

    private static List<DependentResourceInfo> resourcesOf(String config) {
        ProberConfig prober = ConfigFixtures.valid(config.equals("Gardener's config")
                ? ConfigFixtures.gardenerProberConfig() : ConfigFixtures.originalProberExample());
        return prober.dependentResourceInfos();
    }

    private static DependentResourceInfo info(ResourceRef ref, int upLevel, int downLevel) {
        return new DependentResourceInfo(ref, false, new ScaleInfo(upLevel, NONE, SECONDS_30), new ScaleInfo(downLevel, NONE, SECONDS_30));
    }

    private static List<DependentResourceInfo> resources(RandomGenerator random) {
        List<DependentResourceInfo> resources = new ArrayList<>();
        int count = random.nextInt(12);
        for (int i = 0; i < count; i++) {
            ResourceRef ref = new ResourceRef(random.nextBoolean() ? "apps/v1" : "v1", random.nextBoolean() ? "Deployment" : "StatefulSet",
                    "resource-" + i);
            resources.add(new DependentResourceInfo(ref, random.nextBoolean(), scaleInfo(random), scaleInfo(random)));
        }
        return resources;
    }

    private static ScaleInfo scaleInfo(RandomGenerator random) {
        return new ScaleInfo(random.nextInt(-3, 4), Duration.ofMillis(random.nextInt(0, 60_000)), Duration.ofSeconds(random.nextInt(1, 120)));
    }
}
