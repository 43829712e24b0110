package dwd.domain.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Immutable copies of values that arrive from the cluster, where absent fields show up as {@code null}.
 *
 * <p>Domain records normalise such input in their constructors, so that "field missing" becomes an empty
 * value the rules can reason about instead of an exception. Not exported: an implementation detail.
 */
public final class NullSafe {

    private NullSafe() {
    }

    /** The text, or {@code ""} when absent. */
    public static String text(String text) {
        return text == null ? "" : text;
    }

    /** The optional, or empty when absent. */
    public static <T> Optional<T> optional(Optional<T> optional) {
        return optional == null ? Optional.empty() : optional;
    }

    /** An unmodifiable copy in the same order, without {@code null} elements; empty when absent. */
    public static <T> List<T> list(Collection<? extends T> elements) {
        if (elements == null) {
            return List.of();
        }
        List<T> copy = new ArrayList<>(elements);
        copy.removeIf(Objects::isNull);
        return List.copyOf(copy);
    }

    /**
     * An unmodifiable copy of string pairs in the same order. A {@code null} key is dropped; a {@code null}
     * value becomes {@code ""}, because for labels and annotations the presence of a key can matter on its own.
     */
    public static Map<String, String> strings(Map<String, String> pairs) {
        if (pairs == null) {
            return Map.of();
        }
        var copy = new LinkedHashMap<String, String>();
        pairs.forEach((key, value) -> {
            if (key != null) {
                copy.put(key, text(value));
            }
        });
        return Collections.unmodifiableMap(copy);
    }

    /** An unmodifiable copy of a map from names to lists, in the same order; entries with a {@code null} key or list are dropped. */
    public static Map<String, List<String>> stringLists(Map<String, ? extends Collection<String>> lists) {
        if (lists == null) {
            return Map.of();
        }
        var copy = new LinkedHashMap<String, List<String>>();
        lists.forEach((key, values) -> {
            if (key != null && values != null) {
                copy.put(key, list(values));
            }
        });
        return Collections.unmodifiableMap(copy);
    }
}
