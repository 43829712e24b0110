package dwd.domain.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

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

class LabelSelectorsTest {

    /** A selector as a config file gives it. */
    record Input(Map<String, String> matchLabels, List<Expression> matchExpressions) implements LabelSelectorInput {
    }

    record Expression(String key, String operator, List<String> values) implements RequirementInput {
    }

    static Input expressions(Expression... expressions) {
        return new Input(null, Arrays.asList(expressions));
    }

    static Input labels(String key, String value) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(key, value);
        return new Input(labels, null);
    }

    static Expression expression(String key, String operator, String... values) {
        return new Expression(key, operator, Arrays.asList(values));
    }

    @Test
    void gardenersSelectorsAreValid() {
        assertThat(LabelSelectors.validate(expressions(
                expression("gardener.cloud/role", "In", "controlplane"),
                expression("role", "NotIn", "main", "apiserver")), "s")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "role", "app.kubernetes.io/name", "gardener.cloud/role", "A_b-c.D", "x/Y9", "1",
            "a.b-c.d/e", "kubernetes.io/service-name"})
    void acceptsValidKeys(String key) {
        assertThat(LabelSelectors.validate(labels(key, "v"), "s")).isEmpty();
        assertThat(LabelSelectors.validate(expressions(expression(key, "Exists")), "s")).isEmpty();
    }

    @Test
    void acceptsKeysAndValuesAtTheirLengthLimits() {
        String name63 = "n".repeat(63);
        String prefix253 = ("p".repeat(63) + ".").repeat(3) + "p".repeat(61);
        assertThat(prefix253).hasSize(253);

        assertThat(LabelSelectors.validate(labels(prefix253 + "/" + name63, "v".repeat(63)), "s")).isEmpty();
        assertThat(LabelSelectors.validate(labels(name63 + "x", "v"), "s")).singleElement()
                .extracting(SelectorProblem::message).asString().contains("the name has 64 characters, at most 63 are allowed");
        assertThat(LabelSelectors.validate(labels("p" + prefix253 + "/n", "v"), "s")).singleElement()
                .extracting(SelectorProblem::message).asString().contains("the prefix has 254 characters, at most 253 are allowed");
        assertThat(LabelSelectors.validate(labels("k", "v".repeat(64)), "s")).singleElement()
                .extracting(SelectorProblem::message).asString().contains("it has 64 characters, at most 63 are allowed");
    }

    @ParameterizedTest(name = "key {0}")
    @CsvSource(delimiter = '|', value = {
            "a/b/c|it has more than one '/'",
            "/role|the prefix before '/' is empty",
            "gardener.cloud/|the name after '/' is empty",
            "Gardener.cloud/role|the prefix \"Gardener.cloud\" must be a lowercase DNS subdomain",
            "-x.io/role|must be a lowercase DNS subdomain",
            "x..io/role|must be a lowercase DNS subdomain",
            "-role|the name must consist of letters, digits, '-', '_' and '.', and start and end with a letter or digit",
            "role.|the name must consist of letters",
            "my role|the name must consist of letters",
            "rôle|the name must consist of letters",
    })
    void rejectsInvalidKeysSayingWhyAndWhatAKeyLooksLike(String key, String reason) {
        assertThat(LabelSelectors.validate(expressions(expression(key, "Exists")), "s")).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("s.matchExpressions[0].key");
            assertThat(problem.message()).contains(reason).endsWith("; a key is a name with an optional DNS prefix, e.g. app or gardener.cloud/role");
        });
    }

    @Test
    void anEmptyLabelKeyIsRejected() {
        assertThat(LabelSelectors.validate(labels("", "v"), "s")).singleElement().hasToString(
                "s.matchLabels[]: \"\" is not a valid label key: it is empty; a key is a name with an optional DNS prefix,"
                        + " e.g. app or gardener.cloud/role");
        assertThat(LabelSelectors.validate(labels(null, "v"), "s")).singleElement()
                .extracting(SelectorProblem::message).asString().contains("it is empty");
    }

    @ParameterizedTest(name = "value {0}")
    @ValueSource(strings = {"-a", "a-", "a b", "a/b", "a,b", "ä", "(x)"})
    void rejectsInvalidValues(String value) {
        assertThat(LabelSelectors.validate(labels("role", value), "s")).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("s.matchLabels[role]");
            assertThat(problem.message()).startsWith("\"" + value + "\" is not a valid label value: a value must consist of letters");
        });
        assertThat(LabelSelectors.validate(expressions(expression("role", "In", "ok", value)), "s")).singleElement()
                .extracting(SelectorProblem::path).isEqualTo("s.matchExpressions[0].values[1]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a", "A-b_c.9", "v1.2.3"})
    void acceptsValidValuesIncludingEmpty(String value) {
        assertThat(LabelSelectors.validate(labels("role", value), "s")).isEmpty();
    }

    static Stream<Arguments> operatorProblems() {
        return Stream.of(
                arguments(expression("role", "In"), "values", "must not be empty for operator In; list the values"),
                arguments(new Expression("role", "NotIn", null), "values", "must not be empty for operator NotIn"),
                arguments(expression("role", "Exists", "x"), "values", "must be empty for operator Exists; remove the values, or use In or NotIn"),
                arguments(expression("role", "DoesNotExist", "x"), "values", "must be empty for operator DoesNotExist"),
                arguments(expression("role", "in", "x"), "operator", "\"in\" is not a valid operator; use In, NotIn, Exists or DoesNotExist"),
                arguments(expression("role", "Gt", "1"), "operator", "\"Gt\" is not a valid operator"),
                arguments(expression("role", null, "x"), "operator", "must be set; use In, NotIn, Exists or DoesNotExist"),
                arguments(expression(null, "Exists"), "key", "must be set; name the label to test, e.g. key: role"),
                arguments(expression("", "Exists"), "key", "must be set"));
    }

    @ParameterizedTest
    @MethodSource("operatorProblems")
    void rejectsRequirementsThatBreakKubernetesRules(Expression expression, String field, String messageStart) {
        assertThat(LabelSelectors.validate(expressions(expression), "p")).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("p.matchExpressions[0]." + field);
            assertThat(problem.message()).startsWith(messageStart);
        });
    }

    @Test
    void aNullRequirementIsAProblem() {
        assertThat(LabelSelectors.validate(expressions(expression("a", "Exists"), null), "p")).singleElement()
                .hasToString("p.matchExpressions[1]: must not be null; give a key and an operator (In, NotIn, Exists or DoesNotExist)");
    }

    @Test
    void reportsEveryProblemInSelectorOrder() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("b b", "ok");
        labels.put("a", "x y");
        Input input = new Input(labels, List.of(expression("-k", "Foo", "x"), expression("k", "In")));

        assertThat(LabelSelectors.validate(input, "")).extracting(SelectorProblem::path).containsExactly(
                "matchLabels[b b]", "matchLabels[a]", "matchExpressions[0].key", "matchExpressions[0].operator",
                "matchExpressions[1].values");
    }

    @Test
    void anEmptyOrMissingSelectorIsRejectedBecauseItMatchesEveryPod() {
        assertThat(LabelSelectors.validate(new Input(Map.of(), List.of()), "p")).singleElement()
                .hasToString("p: " + LabelSelector.EMPTY_SELECTOR);
        assertThat(LabelSelectors.validate(new Input(null, null), "p")).singleElement()
                .hasToString("p: " + LabelSelector.EMPTY_SELECTOR);
        assertThat(LabelSelectors.validate(null, "p")).singleElement().hasToString("p: " + LabelSelectors.NULL_SELECTOR);
        assertThat(LabelSelector.EMPTY_SELECTOR).contains("matches every pod in the namespace");
        assertThat(LabelSelectors.selectsEverything(new Input(Map.of(), null))).isTrue();
        assertThat(LabelSelectors.selectsEverything(labels("a", "b"))).isFalse();
        assertThatThrownBy(() -> new LabelSelector(Map.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("a label selector must not be empty; a selector without matchLabels");
    }

    @Test
    void toLabelSelectorBuildsTheSelectorOrListsEveryProblem() {
        assertThat(LabelSelectors.toLabelSelector(expressions(expression("role", "NotIn", "main", "apiserver"))))
                .isEqualTo(LabelSelector.of(Map.of(), Requirement.notIn("role", "main", "apiserver")));
        assertThatThrownBy(() -> LabelSelectors.toLabelSelector(expressions(expression("role", "In"), expression("x", "Exists", "y"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid label selector: labelSelector.matchExpressions[0].values: must not be empty")
                .hasMessageContaining("; labelSelector.matchExpressions[1].values: must be empty");
    }

    @Test
    void theTypedSelectorRejectsWhatValidationRejects() {
        assertThatThrownBy(() -> Requirement.in("role")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("must not be empty for operator In");
        assertThatThrownBy(() -> new Requirement("role", Operator.EXISTS, List.of("x"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Requirement.exists("a/b/c")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than one '/'");
        assertThatThrownBy(() -> Requirement.in("role", "a b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LabelSelector.of(Map.of("role", "a b"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LabelSelector.of(Map.of("-role", "a"))).isInstanceOf(IllegalArgumentException.class);
        Map<String, String> withoutValue = new LinkedHashMap<>();
        withoutValue.put("role", null);
        assertThatThrownBy(() -> LabelSelector.of(withoutValue)).isInstanceOf(NullPointerException.class)
                .hasMessage("value of label role");
    }

    @ParameterizedTest
    @CsvSource({"In, IN", "NotIn, NOT_IN", "Exists, EXISTS", "DoesNotExist, DOES_NOT_EXIST"})
    void operatorsParseFromTheirKubernetesSpellingOnly(String text, Operator operator) {
        assertThat(Operator.parse(text)).contains(operator);
        assertThat(operator.kubernetesName()).isEqualTo(text);
        assertThat(Operator.parse(text.toLowerCase())).isEmpty();
        assertThat(Operator.parse(null)).isEmpty();
    }
}
