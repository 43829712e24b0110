package dwd.domain.selector;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A Kubernetes label selector that picks the pods the weeder may delete: all {@code matchLabels} and all
 * {@code matchExpressions} must hold.
 *
 * <p><b>Never empty.</b> A selector without labels and expressions ({@code {}}) matches every pod in the namespace.
 * Kubernetes allows that, and so does the original dependency-watchdog, but a weeder with such a selector would delete
 * any crash-looping pod of the control plane, so dwd rejects it, both here and in config validation.
 *
 * @param matchLabels      labels that must be present with exactly these values; kept sorted by key
 * @param matchExpressions requirements that must all hold, in the order given
 */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions) {

    /** Why an empty selector is refused, here and in config validation. */
    static final String EMPTY_SELECTOR = "must not be empty; a selector without matchLabels and matchExpressions"
            + " matches every pod in the namespace: select the dependent pods with matchLabels or matchExpressions";

    public LabelSelector {
        matchLabels = matchLabels == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(matchLabels));
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
        matchLabels.forEach((key, value) -> {
            Objects.requireNonNull(value, () -> "value of label " + key);
            LabelSyntax.keyProblem(key).ifPresent(LabelSelector::reject);
            LabelSyntax.valueProblem(value).ifPresent(LabelSelector::reject);
        });
        if (matchLabels.isEmpty() && matchExpressions.isEmpty()) {
            reject("a label selector " + EMPTY_SELECTOR);
        }
    }

    /** A selector of {@code matchLabels} and the given expressions. */
    public static LabelSelector of(Map<String, String> matchLabels, Requirement... matchExpressions) {
        return new LabelSelector(matchLabels, List.of(matchExpressions));
    }

    /** Whether a pod with these labels is selected; {@code null} labels count as none. */
    public boolean matches(Map<String, String> labels) {
        Map<String, String> present = labels == null ? Map.of() : labels;
        return matchLabels.entrySet().stream().allMatch(label -> label.getValue().equals(present.get(label.getKey())))
                && matchExpressions.stream().allMatch(requirement -> requirement.matches(present));
    }

    /**
     * The selector as the API server's {@code labelSelector} query parameter, always the same for the same selector:
     * {@code matchLabels} sorted by key as {@code key=value}, then the expressions in order ({@code key in (a,b)},
     * {@code key notin (a,b)}, {@code key}, {@code !key}, values sorted), joined by commas.
     */
    public String toQueryString() {
        List<String> terms = new ArrayList<>();
        matchLabels.forEach((key, value) -> terms.add(key + "=" + value));
        matchExpressions.forEach(requirement -> terms.add(requirement.toQueryTerm()));
        return String.join(",", terms);
    }

    private static void reject(String problem) {
        throw new IllegalArgumentException(problem);
    }
}
