package dwd.domain.selector;

import static dwd.domain.testing.PropertyCheck.forAll;
import static dwd.domain.testing.PropertyCheck.oneOf;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.domain.testing.PropertyCheck;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class LabelSelectorTest {

    private static final LabelSelector KUBE_APISERVER_DEPENDANTS = LabelSelector.of(Map.of(),
            Requirement.in("gardener.cloud/role", "controlplane"),
            Requirement.notIn("role", "main", "apiserver"));

    @Test
    void gardenersSelectorPicksControlPlanePodsOtherThanEtcdAndTheApiServer() {
        assertThat(KUBE_APISERVER_DEPENDANTS.matches(Map.of("gardener.cloud/role", "controlplane", "role", "controller-manager"))).isTrue();
        assertThat(KUBE_APISERVER_DEPENDANTS.matches(Map.of("gardener.cloud/role", "controlplane"))).as("NotIn holds when the key is absent").isTrue();
        assertThat(KUBE_APISERVER_DEPENDANTS.matches(Map.of("gardener.cloud/role", "controlplane", "role", "apiserver"))).isFalse();
        assertThat(KUBE_APISERVER_DEPENDANTS.matches(Map.of("gardener.cloud/role", "controlplane", "role", "main"))).isFalse();
        assertThat(KUBE_APISERVER_DEPENDANTS.matches(Map.of("role", "scheduler"))).isFalse();
        assertThat(KUBE_APISERVER_DEPENDANTS.matches(null)).isFalse();
    }

    @Test
    void eachOperatorHasKubernetesSemantics() {
        Map<String, String> pod = Map.of("role", "apiserver", "empty", "");

        assertThat(Requirement.in("role", "apiserver", "etcd").matches(pod)).isTrue();
        assertThat(Requirement.in("role", "etcd").matches(pod)).isFalse();
        assertThat(Requirement.in("missing", "x").matches(pod)).isFalse();
        assertThat(Requirement.in("empty", "").matches(pod)).isTrue();
        assertThat(Requirement.notIn("role", "etcd").matches(pod)).isTrue();
        assertThat(Requirement.notIn("role", "apiserver").matches(pod)).isFalse();
        assertThat(Requirement.notIn("missing", "x").matches(pod)).isTrue();
        assertThat(Requirement.exists("empty").matches(pod)).isTrue();
        assertThat(Requirement.exists("missing").matches(pod)).isFalse();
        assertThat(Requirement.doesNotExist("missing").matches(pod)).isTrue();
        assertThat(Requirement.doesNotExist("role").matches(pod)).isFalse();
    }

    @Test
    void matchLabelsNeedEveryLabelWithExactlyItsValue() {
        LabelSelector selector = LabelSelector.of(Map.of("app", "kcm", "tier", ""));

        assertThat(selector.matches(Map.of("app", "kcm", "tier", "", "extra", "x"))).isTrue();
        assertThat(selector.matches(Map.of("app", "kcm"))).isFalse();
        assertThat(selector.matches(Map.of("app", "KCM", "tier", ""))).isFalse();
    }

    @Test
    void theQueryStringHasLabelsSortedThenExpressionsInOrderWithSortedValues() {
        LabelSelector selector = LabelSelector.of(Map.of("tier", "control", "app", "kcm"),
                Requirement.notIn("role", "main", "apiserver", "main"),
                Requirement.exists("gardener.cloud/role"),
                Requirement.in("zone", "b", "a"),
                Requirement.doesNotExist("skip"));

        assertThat(selector.toQueryString())
                .isEqualTo("app=kcm,tier=control,role notin (apiserver,main),gardener.cloud/role,zone in (a,b),!skip");
        assertThat(KUBE_APISERVER_DEPENDANTS.toQueryString())
                .isEqualTo("gardener.cloud/role in (controlplane),role notin (apiserver,main)");
        assertThat(LabelSelector.of(Map.of("role", "")).toQueryString()).isEqualTo("role=");
    }

    @Test
    void notInIsTheNegationOfInAndDoesNotExistOfExists() {
        forAll(random -> new Object[] {labels(random), key(random), values(random)}, sample -> {
            @SuppressWarnings("unchecked")
            Map<String, String> labels = (Map<String, String>) sample[0];
            String key = (String) sample[1];
            String[] values = (String[]) sample[2];
            assertThat(Requirement.notIn(key, values).matches(labels)).isEqualTo(!Requirement.in(key, values).matches(labels));
            assertThat(Requirement.doesNotExist(key).matches(labels)).isEqualTo(!Requirement.exists(key).matches(labels));
        });
    }

    @Test
    void aSelectorMadeFromSomeOfAPodsLabelsSelectsThatPod() {
        forAll(random -> {
            Map<String, String> labels = labels(random);
            labels.put("app", oneOf(random, "kcm", "mcm"));
            return labels;
        }, labels -> {
            Map<String, String> some = new HashMap<>();
            List<Requirement> requirements = new ArrayList<>();
            labels.forEach((key, value) -> {
                switch (Math.floorMod(key.hashCode(), 4)) {
                    case 0 -> some.put(key, value);
                    case 1 -> requirements.add(Requirement.in(key, value, "other"));
                    case 2 -> requirements.add(Requirement.exists(key));
                    default -> requirements.add(Requirement.notIn(key, value + "x"));
                }
            });
            requirements.add(Requirement.doesNotExist("never-set"));
            assertThat(new LabelSelector(some, requirements).matches(labels)).isTrue();
        });
    }

    @Test
    void theQueryStringDependsOnlyOnTheSelectorNotOnInsertionOrder() {
        forAll(random -> labels(random), labels -> {
            List<String> keys = new ArrayList<>(labels.keySet());
            Map<String, String> forward = new LinkedHashMap<>();
            keys.forEach(key -> forward.put(key, labels.get(key)));
            Collections.reverse(keys);
            Map<String, String> backward = new LinkedHashMap<>();
            keys.forEach(key -> backward.put(key, labels.get(key)));
            List<String> values = new ArrayList<>(forward.values());
            values.add("z");
            List<String> reversedValues = new ArrayList<>(values);
            Collections.reverse(reversedValues);

            LabelSelector one = new LabelSelector(forward, List.of(new Requirement("k", Operator.IN, values)));
            LabelSelector other = new LabelSelector(backward, List.of(new Requirement("k", Operator.IN, reversedValues)));
            assertThat(one.toQueryString()).isEqualTo(other.toQueryString());
            assertThat(one.matchLabels()).isEqualTo(other.matchLabels());
        });
    }

    @Test
    void whatValidationAcceptsTheTypedSelectorAcceptsAndMeansTheSame() {
        forAll(5_000, LabelSelectorTest::anyInput, input -> {
            List<SelectorProblem> problems = LabelSelectors.validate(input, "s");
            if (problems.isEmpty()) {
                LabelSelector selector = LabelSelectors.toLabelSelector(input);
                assertThat(selector.matchExpressions()).hasSize(input.matchExpressions() == null ? 0 : input.matchExpressions().size());
                assertThat(selector.toQueryString()).isNotEmpty();
            } else {
                assertThat(problems).allSatisfy(problem -> assertThat(problem.path()).startsWith("s"));
            }
        });
    }

    private static LabelSelectorsTest.Input anyInput(RandomGenerator random) {
        Map<String, String> labels = random.nextInt(4) == 0 ? null : new LinkedHashMap<>();
        if (labels != null) {
            int count = random.nextInt(3);
            for (int i = 0; i < count; i++) {
                labels.put(anyText(random), random.nextInt(5) == 0 ? null : anyText(random));
            }
        }
        List<LabelSelectorsTest.Expression> expressions = random.nextInt(4) == 0 ? null : new ArrayList<>();
        if (expressions != null) {
            int count = random.nextInt(3);
            for (int i = 0; i < count; i++) {
                List<String> values = new ArrayList<>();
                int valueCount = random.nextInt(3);
                for (int j = 0; j < valueCount; j++) {
                    values.add(random.nextInt(6) == 0 ? null : anyText(random));
                }
                expressions.add(random.nextInt(10) == 0 ? null : new LabelSelectorsTest.Expression(anyText(random),
                        oneOf(random, "In", "NotIn", "Exists", "DoesNotExist", "in", null), random.nextInt(4) == 0 ? null : values));
            }
        }
        return new LabelSelectorsTest.Input(labels, expressions);
    }

    private static String anyText(RandomGenerator random) {
        return random.nextBoolean() ? key(random) : PropertyCheck.stringOf(random, "aZ9-_./ ", 5);
    }

    private static Map<String, String> labels(RandomGenerator random) {
        Map<String, String> labels = new HashMap<>();
        int count = random.nextInt(5);
        for (int i = 0; i < count; i++) {
            labels.put(key(random), oneOf(random, "", "a", "b", "controlplane", "v1.2"));
        }
        return labels;
    }

    private static String key(RandomGenerator random) {
        return oneOf(random, "role", "app", "gardener.cloud/role", "tier", "x.io/y_z", "a1");
    }

    private static String[] values(RandomGenerator random) {
        return random.nextBoolean() ? new String[] {"a"} : new String[] {"", "b", "controlplane"};
    }
}
