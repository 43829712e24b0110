package dwd.domain.selector;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Validation of label selectors from config files, by Kubernetes' rules plus one of dwd's: a selector must not be
 * missing or empty, since it would match every pod in the namespace (see {@link LabelSelector}).
 *
 * <p>As in the original (whose JSON decoding turns {@code null} into the zero value), a {@code null} label value or
 * {@code null} entry of {@code values} counts as the empty string, which is a valid label value.
 */
public final class LabelSelectors {

    static final String NULL_SELECTOR = "must not be null; a missing selector would match every pod in the namespace:"
            + " select the dependent pods with matchLabels or matchExpressions";
    private static final String OPERATORS = "use In, NotIn, Exists or DoesNotExist (spelled exactly so)";

    private LabelSelectors() {
    }

    /** {@code true} when the selector is missing or has neither labels nor expressions: it would select every pod. */
    public static boolean selectsEverything(LabelSelectorInput input) {
        return input == null || (isEmpty(input.matchLabels()) && isEmpty(input.matchExpressions()));
    }

    /**
     * Every problem of a selector, each located under {@code path} (e.g. {@code path + ".matchExpressions[1].values"}),
     * in the order they appear in the selector. Empty when the selector is valid.
     */
    public static List<SelectorProblem> validate(LabelSelectorInput input, String path) {
        List<SelectorProblem> problems = new ArrayList<>();
        if (input == null) {
            problems.add(new SelectorProblem(path, NULL_SELECTOR));
            return problems;
        }
        if (selectsEverything(input)) {
            problems.add(new SelectorProblem(path, LabelSelector.EMPTY_SELECTOR));
            return problems;
        }
        if (input.matchLabels() != null) {
            input.matchLabels().forEach((key, value) -> {
                String labelPath = child(path, "matchLabels[" + key + "]");
                LabelSyntax.keyProblem(orEmpty(key)).ifPresent(message -> problems.add(new SelectorProblem(labelPath, message)));
                LabelSyntax.valueProblem(orEmpty(value)).ifPresent(message -> problems.add(new SelectorProblem(labelPath, message)));
            });
        }
        List<? extends RequirementInput> expressions = input.matchExpressions();
        if (expressions != null) {
            for (int i = 0; i < expressions.size(); i++) {
                validateRequirement(expressions.get(i), child(path, "matchExpressions[" + i + "]"), problems);
            }
        }
        return problems;
    }

    /**
     * The selector, if {@link #validate} finds no problem.
     *
     * @throws IllegalArgumentException listing every problem otherwise
     */
    public static LabelSelector toLabelSelector(LabelSelectorInput input) {
        List<SelectorProblem> problems = validate(input, "labelSelector");
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid label selector: "
                    + problems.stream().map(SelectorProblem::toString).collect(Collectors.joining("; ")));
        }
        Map<String, String> matchLabels = new LinkedHashMap<>();
        if (input.matchLabels() != null) {
            input.matchLabels().forEach((key, value) -> matchLabels.put(key, orEmpty(value)));
        }
        List<Requirement> requirements = new ArrayList<>();
        if (input.matchExpressions() != null) {
            for (RequirementInput expression : input.matchExpressions()) {
                List<String> values = expression.values() == null ? List.of()
                        : expression.values().stream().map(LabelSelectors::orEmpty).toList();
                requirements.add(new Requirement(expression.key(), Operator.parse(expression.operator()).orElseThrow(), values));
            }
        }
        return new LabelSelector(matchLabels, requirements);
    }

    private static void validateRequirement(RequirementInput expression, String path, List<SelectorProblem> problems) {
        if (expression == null) {
            problems.add(new SelectorProblem(path, "must not be null; give a key and an operator (In, NotIn, Exists or DoesNotExist)"));
            return;
        }
        String keyPath = child(path, "key");
        if (expression.key() == null || expression.key().isEmpty()) {
            problems.add(new SelectorProblem(keyPath, "must be set; name the label to test, e.g. key: role"));
        } else {
            LabelSyntax.keyProblem(expression.key()).ifPresent(message -> problems.add(new SelectorProblem(keyPath, message)));
        }
        String operatorPath = child(path, "operator");
        Optional<Operator> operator = Operator.parse(expression.operator());
        if (expression.operator() == null) {
            problems.add(new SelectorProblem(operatorPath, "must be set; " + OPERATORS));
        } else if (operator.isEmpty()) {
            problems.add(new SelectorProblem(operatorPath,
                    LabelSyntax.quote(expression.operator()) + " is not a valid operator; " + OPERATORS));
        }
        List<String> values = expression.values() == null ? List.of() : expression.values();
        operator.flatMap(known -> Requirement.valuesProblem(known, values.size()))
                .ifPresent(message -> problems.add(new SelectorProblem(child(path, "values"), message)));
        for (int j = 0; j < values.size(); j++) {
            String valuePath = child(path, "values[" + j + "]");
            LabelSyntax.valueProblem(orEmpty(values.get(j))).ifPresent(message -> problems.add(new SelectorProblem(valuePath, message)));
        }
    }

    private static String child(String path, String name) {
        return path == null || path.isEmpty() ? name : path + "." + name;
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }

    private static boolean isEmpty(Map<?, ?> map) {
        return map == null || map.isEmpty();
    }

    private static boolean isEmpty(List<?> list) {
        return list == null || list.isEmpty();
    }
}
