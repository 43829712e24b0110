package dwd.domain.status;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the checker is told about the controller: the condition types it supports, by polarity.
 *
 * @param negativePolarity "abnormal when True" types (e.g. {@code Stalled}, {@code Reconciling},
 *     {@code FetchFailed}), highest priority first; WARN0001, WARN0002 and FAIL0001 use it
 * @param positivePolarity "normal when True" types; validated, but no check uses them (as in the Go
 *     original)
 */
public record CheckConditions(List<String> negativePolarity, List<String> positivePolarity) {

    /** No custom conditions: only the Ready/Reconciling/Stalled and generation checks can fire. */
    public static final CheckConditions NONE = new CheckConditions(List.of(), List.of());

    /**
     * @throws IllegalArgumentException listing every problem {@link #problems(List, List)} finds
     */
    public CheckConditions {
        List<Problem> problems = problems(negativePolarity, positivePolarity);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems.stream().map(Problem::toString).toList()));
        }
        negativePolarity = List.copyOf(negativePolarity);
        positivePolarity = List.copyOf(positivePolarity);
    }

    /** Negative-polarity types only, in priority order. */
    public static CheckConditions negative(String... types) {
        return new CheckConditions(List.of(types), List.of());
    }

    /** A problem with one entry of the configuration, e.g. {@code negativePolarity[2]}. */
    public record Problem(String field, String message) {
        @Override
        public String toString() {
            return field + ": " + message;
        }
    }

    /**
     * Everything wrong with these lists. Stricter than the Go original, which took anything: an
     * entry must be a non-blank type, listed once, in one list, and not {@code Ready} (Ready as
     * negative polarity would make every ready object fail FAIL0001).
     */
    public static List<Problem> problems(List<String> negativePolarity, List<String> positivePolarity) {
        var problems = new ArrayList<Problem>();
        if (negativePolarity == null || positivePolarity == null) {
            problems.add(new Problem(negativePolarity == null ? "negativePolarity" : "positivePolarity",
                    "must be a list (empty is fine)"));
            return problems;
        }
        Map<String, String> seen = new HashMap<>();
        check("negativePolarity", negativePolarity, seen, problems);
        check("positivePolarity", positivePolarity, seen, problems);
        return problems;
    }

    private static void check(String list, List<String> types, Map<String, String> seen, List<Problem> problems) {
        for (int index = 0; index < types.size(); index++) {
            String field = list + "[" + index + "]";
            String type = types.get(index);
            if (type == null || type.isBlank()) {
                problems.add(new Problem(field, "must be a condition type, found an empty entry"));
            } else if (type.equals(Condition.READY)) {
                problems.add(new Problem(field, "Ready cannot be listed: every check already treats it as the summary condition"));
            } else if (seen.containsKey(type)) {
                problems.add(new Problem(field, type + " is already listed at " + seen.get(type)));
            } else {
                seen.put(type, field);
            }
        }
    }
}
