package dwd.domain.selector;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One {@code matchExpressions} entry of a label selector, valid by Kubernetes' rules: the key is a qualified name,
 * {@code In}/{@code NotIn} carry at least one value, {@code Exists}/{@code DoesNotExist} carry none, and every value is
 * a valid label value.
 *
 * @param values in the order given; duplicates are harmless (Kubernetes treats them as a set)
 */
public record Requirement(String key, Operator operator, List<String> values) {

    public Requirement {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(operator, "operator");
        values = values == null ? List.of() : List.copyOf(values);
        LabelSyntax.keyProblem(key).ifPresent(Requirement::reject);
        valuesProblem(operator, values.size()).ifPresent(Requirement::reject);
        values.forEach(value -> LabelSyntax.valueProblem(value).ifPresent(Requirement::reject));
    }

    /** {@code key In (values)}. */
    public static Requirement in(String key, String... values) {
        return new Requirement(key, Operator.IN, List.of(values));
    }

    /** {@code key NotIn (values)}. */
    public static Requirement notIn(String key, String... values) {
        return new Requirement(key, Operator.NOT_IN, List.of(values));
    }

    /** The label {@code key} is present, with any value. */
    public static Requirement exists(String key) {
        return new Requirement(key, Operator.EXISTS, List.of());
    }

    /** The label {@code key} is absent. */
    public static Requirement doesNotExist(String key) {
        return new Requirement(key, Operator.DOES_NOT_EXIST, List.of());
    }

    /**
     * Whether a pod with these labels satisfies the requirement. As in Kubernetes, {@code NotIn} holds when the label
     * is absent.
     */
    public boolean matches(Map<String, String> labels) {
        Map<String, String> present = labels == null ? Map.of() : labels;
        boolean hasKey = present.containsKey(key);
        return switch (operator) {
            case IN -> hasKey && values.contains(present.get(key));
            case NOT_IN -> !hasKey || !values.contains(present.get(key));
            case EXISTS -> hasKey;
            case DOES_NOT_EXIST -> !hasKey;
        };
    }

    /** This requirement in the API server's {@code labelSelector} syntax, values sorted and without duplicates. */
    public String toQueryTerm() {
        return switch (operator) {
            case IN -> key + " in (" + String.join(",", new TreeSet<>(values)) + ")";
            case NOT_IN -> key + " notin (" + String.join(",", new TreeSet<>(values)) + ")";
            case EXISTS -> key;
            case DOES_NOT_EXIST -> "!" + key;
        };
    }

    static Optional<String> valuesProblem(Operator operator, int valueCount) {
        if (operator.takesValues() && valueCount == 0) {
            return Optional.of("must not be empty for operator " + operator.kubernetesName()
                    + "; list the values to compare the label with, e.g. values: [apiserver]");
        }
        if (!operator.takesValues() && valueCount > 0) {
            return Optional.of("must be empty for operator " + operator.kubernetesName()
                    + "; remove the values, or use In or NotIn to compare the label with them");
        }
        return Optional.empty();
    }

    private static void reject(String problem) {
        throw new IllegalArgumentException(problem);
    }
}
