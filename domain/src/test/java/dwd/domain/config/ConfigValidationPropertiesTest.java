package dwd.domain.config;

import static dwd.domain.testing.PropertyCheck.forAll;
import static dwd.domain.testing.PropertyCheck.oneOf;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.domain.testing.PropertyCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** Validation holds up against arbitrary files: it never throws, and what it reports is consistent. */
class ConfigValidationPropertiesTest {

    private static final List<String> PROBER_KEYS = List.of("kubeConfigSecretName", "probeInterval", "initialDelay",
            "probeTimeout", "backoffJitterFactor", "dependentResourceInfos", "kcmNodeMonitorGraceDuration",
            "nodeLeaseFailureFraction", "failureThreshold", "successThreshold");

    @Test
    void proberValidationNeverThrowsAndReportsEachLocationAtMostOnce() {
        forAll(3_000, ConfigValidationPropertiesTest::proberAsWritten, written -> {
            Validated<ProberConfig> outcome = ProberConfigs.validate(written);

            assertThat(outcome.isValid()).isEqualTo(outcome.problems().isEmpty());
            assertThat(outcome.problems()).allSatisfy(problem -> {
                assertThat(PROBER_KEYS).anyMatch(key -> problem.path().equals(key) || problem.path().startsWith(key + "["));
                assertThat(problem.message()).as("says what is wrong and how to fix it").contains("; ");
            });
            assertThat(ConfigFixtures.paths(outcome)).doesNotHaveDuplicates();
            assertThat(ProberConfigs.validate(written)).isEqualTo(outcome);
        });
    }

    @Test
    void aValidProberConfigHasTheFilesValuesWhereGivenAndTheDefaultsElsewhere() {
        forAll(ConfigValidationPropertiesTest::validProberConfigAsWritten, written -> {
            ProberConfig config = ConfigFixtures.valid(written);

            assertThat(config.probeInterval()).isEqualTo(parsedOr(written.probeInterval(), ProberConfigs.DEFAULT_PROBE_INTERVAL));
            assertThat(config.initialDelay()).isEqualTo(parsedOr(written.initialDelay(), ProberConfigs.DEFAULT_INITIAL_DELAY));
            assertThat(config.probeTimeout()).isEqualTo(parsedOr(written.probeTimeout(), ProberConfigs.DEFAULT_PROBE_TIMEOUT));
            assertThat(config.kcmNodeMonitorGraceDuration())
                    .isEqualTo(parsedOr(written.kcmNodeMonitorGraceDuration(), ProberConfigs.DEFAULT_KCM_NODE_MONITOR_GRACE_DURATION));
            assertThat(config.backoffJitterFactor())
                    .isEqualTo(written.backoffJitterFactor() == null ? ProberConfigs.DEFAULT_BACKOFF_JITTER_FACTOR : written.backoffJitterFactor());
            assertThat(config.nodeLeaseFailureFraction()).isEqualTo(
                    written.nodeLeaseFailureFraction() == null ? ProberConfigs.DEFAULT_NODE_LEASE_FAILURE_FRACTION : written.nodeLeaseFailureFraction());
            assertThat(config.failureThreshold()).isEqualTo(written.failureThreshold() == null ? 1 : written.failureThreshold());
            assertThat(config.successThreshold()).isEqualTo(written.successThreshold() == null ? 1 : written.successThreshold());
            for (int i = 0; i < written.dependentResourceInfos().size(); i++) {
                DependentResourceInfoAsWritten given = written.dependentResourceInfos().get(i);
                DependentResourceInfo result = config.dependentResourceInfos().get(i);
                assertThat(result.ref().name()).isEqualTo(given.ref().name());
                assertThat(result.optional()).isEqualTo(Boolean.TRUE.equals(given.optional()));
                assertThat(result.scaleUp().level()).isEqualTo(given.scaleUp().level() == null ? 0 : given.scaleUp().level());
                assertThat(result.scaleUp().initialDelay()).isEqualTo(parsedOr(given.scaleUp().initialDelay(), Duration.ZERO));
                assertThat(result.scaleDown().timeout()).isEqualTo(parsedOr(given.scaleDown().timeout(), Duration.ofSeconds(30)));
            }
        });
    }

    @Test
    void weederValidationNeverThrowsAndLocatesEveryProblem() {
        forAll(3_000, ConfigValidationPropertiesTest::weederAsWritten, written -> {
            Validated<WeederConfig> outcome = WeederConfigs.validate(written);

            assertThat(outcome.isValid()).isEqualTo(outcome.problems().isEmpty());
            assertThat(outcome.problems()).allSatisfy(problem -> {
                assertThat(problem.path()).matches("watchDuration|servicesAndDependantSelectors(\\[.*)?");
                assertThat(problem.message()).contains("; ");
            });
            if (outcome instanceof Validated.Valid<WeederConfig>(WeederConfig config)) {
                assertThat(config.servicesAndDependantSelectors().keySet())
                        .containsExactlyElementsOf(written.servicesAndDependantSelectors().keySet());
                config.servicesAndDependantSelectors().values().forEach(selectors ->
                        selectors.forEach(selector -> assertThat(selector.toQueryString()).isNotEmpty()));
            }
        });
    }

    private static Duration parsedOr(String text, Duration fallback) {
        return text == null ? fallback : GoDuration.parse(text);
    }

    private static ProberConfigAsWritten proberAsWritten(RandomGenerator random) {
        List<DependentResourceInfoAsWritten> resources = switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> List.of();
            default -> {
                List<DependentResourceInfoAsWritten> list = new ArrayList<>();
                int count = 1 + random.nextInt(5);
                for (int i = 0; i < count; i++) {
                    list.add(random.nextInt(10) == 0 ? null : new DependentResourceInfoAsWritten(
                            random.nextInt(8) == 0 ? null : new ResourceRefAsWritten(
                                    oneOf(random, "apps/v1", "apps/v1", "v1", "", null, "apps/v/1", "/v1", "apps/", " apps/v1", "a//b"),
                                    oneOf(random, "Deployment", "Deployment", "StatefulSet", "", " ", null),
                                    oneOf(random, "kcm", "mcm", "ca", "x", "", null)),
                            oneOf(random, true, false, null),
                            scaleInfo(random),
                            scaleInfo(random)));
                }
                yield list;
            }
        };
        return new ProberConfigAsWritten(
                oneOf(random, "secret", "secret", "", " ", null),
                duration(random), duration(random), duration(random), fraction(random), resources, duration(random),
                fraction(random), count(random), count(random));
    }

    private static ProberConfigAsWritten validProberConfigAsWritten(RandomGenerator random) {
        List<DependentResourceInfoAsWritten> resources = new ArrayList<>();
        int count = 1 + random.nextInt(5);
        for (int i = 0; i < count; i++) {
            resources.add(new DependentResourceInfoAsWritten(ConfigFixtures.deployment("resource-" + i), oneOf(random, true, false, null),
                    new ScaleInfoAsWritten(oneOf(random, null, -1, 0, 1, 2, 10), oneOf(random, null, "0s", "30s", "1m"),
                            oneOf(random, null, "1s", "30s", "1h")),
                    new ScaleInfoAsWritten(oneOf(random, null, -1, 0, 1, 2, 10), oneOf(random, null, "0s", "30s"),
                            oneOf(random, null, "1ms", "2m"))));
        }
        return new ProberConfigAsWritten("secret",
                oneOf(random, null, "1s", "30s", "1m30s"), oneOf(random, null, "0s", "0", "30s"), oneOf(random, null, "5s", "30s"),
                oneOf(random, null, 0.0, 0.2, 1.0), resources, oneOf(random, null, "40s", "2m"),
                oneOf(random, null, 0.01, 0.6, 1.0), oneOf(random, null, 1, 3), oneOf(random, null, 1, 2));
    }

    private static ScaleInfoAsWritten scaleInfo(RandomGenerator random) {
        return random.nextInt(5) == 0 ? null : new ScaleInfoAsWritten(oneOf(random, null, -3, 0, 1, 2), duration(random), duration(random));
    }

    private static String duration(RandomGenerator random) {
        return random.nextInt(6) == 0
                ? PropertyCheck.stringOf(random, "0123456789.-smh ", 6)
                : oneOf(random, null, null, "0", "0s", "10s", "-5s", "1m40s", "10", "10x", "1d", "", " ", "500ms", "9999999999h");
    }

    private static Double fraction(RandomGenerator random) {
        return oneOf(random, null, null, Double.NaN, Double.POSITIVE_INFINITY, -0.5, 0.0, 0.2, 0.6, 1.0, 1.5, random.nextDouble(-2, 2));
    }

    private static Integer count(RandomGenerator random) {
        return oneOf(random, null, null, -1, 0, 1, 3, Integer.MIN_VALUE);
    }

    private static WeederConfigAsWritten weederAsWritten(RandomGenerator random) {
        Map<String, DependantSelectorsAsWritten> services = null;
        if (random.nextInt(5) > 0) {
            services = new LinkedHashMap<>();
            int count = random.nextInt(4);
            for (int i = 0; i < count; i++) {
                services.put(oneOf(random, "etcd-main-client", "kube-apiserver", "Etcd", "", "vpa-" + i),
                        random.nextInt(6) == 0 ? null : new DependantSelectorsAsWritten(selectors(random)));
            }
        }
        return new WeederConfigAsWritten(random.nextBoolean() ? null : duration(random), services);
    }

    private static List<LabelSelectorAsWritten> selectors(RandomGenerator random) {
        if (random.nextInt(6) == 0) {
            return null;
        }
        List<LabelSelectorAsWritten> selectors = new ArrayList<>();
        int count = random.nextInt(3);
        for (int i = 0; i < count; i++) {
            if (random.nextInt(8) == 0) {
                selectors.add(null);
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            int labelCount = random.nextInt(3);
            for (int j = 0; j < labelCount; j++) {
                labels.put(labelKey(random), labelValue(random));
            }
            List<RequirementAsWritten> expressions = new ArrayList<>();
            int expressionCount = random.nextInt(3);
            for (int j = 0; j < expressionCount; j++) {
                List<String> values = random.nextInt(3) == 0 ? null : new ArrayList<>();
                if (values != null) {
                    int valueCount = random.nextInt(3);
                    for (int k = 0; k < valueCount; k++) {
                        values.add(labelValue(random));
                    }
                }
                expressions.add(random.nextInt(10) == 0 ? null : new RequirementAsWritten(
                        labelKey(random), oneOf(random, "In", "NotIn", "Exists", "DoesNotExist", "in", "", null), values));
            }
            selectors.add(new LabelSelectorAsWritten(random.nextInt(4) == 0 ? null : labels, random.nextInt(4) == 0 ? null : expressions));
        }
        return selectors;
    }

    private static String labelKey(RandomGenerator random) {
        return random.nextInt(4) == 0
                ? PropertyCheck.stringOf(random, "ab/.-_ Z9", 6)
                : oneOf(random, "role", "gardener.cloud/role", "app", "", null, "a/b/c", "/x", "x/", "Bad.Prefix/x");
    }

    private static String labelValue(RandomGenerator random) {
        return random.nextInt(4) == 0
                ? PropertyCheck.stringOf(random, "ab.-_ 9", 5)
                : oneOf(random, "apiserver", "main", "", null, "-x", "a b");
    }
}
