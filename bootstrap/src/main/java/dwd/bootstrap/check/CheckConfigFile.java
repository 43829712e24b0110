package dwd.bootstrap.check;

import dwd.adapters.k8s.input.TextInput;
import dwd.adapters.k8s.input.UnusableInput;
import dwd.domain.status.CheckConditions;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code dwd check} config file: the controller's conditions by polarity, in priority order.
 *
 * <pre>
 * conditions:
 *   negativePolarity: [Stalled, Reconciling, FetchFailed]
 *   positivePolarity: [RemoteAvailable]
 * </pre>
 *
 * <p>The bare form of the Go library ({@code negativePolarity}/{@code positivePolarity} at the top)
 * is read too. Keys match case-insensitively, as Go's JSON decoding matches them; unknown keys are
 * ignored with a warning. YAML or JSON.
 */
record CheckConfigFile(CheckConditions conditions, List<String> warnings) {

    private static final String CONDITIONS = "conditions";
    private static final String NEGATIVE = "negativePolarity";
    private static final String POSITIVE = "positivePolarity";
    private static final String SHAPE = "conditions: {negativePolarity: [...], positivePolarity: [...]}";

    /**
     * @throws InputException naming {@code file:line:column} and the entry for every problem found
     */
    static CheckConfigFile read(Path file) {
        String source = file.toString();
        var roots = new ArrayList<DocumentReader.ReadValue>();
        try (Reader text = TextInput.open(file, TextInput.CONFIG_FILE)) {
            DocumentReader.read(source, text, false, roots::add);
        } catch (UnusableInput e) {
            throw new InputException("config " + source + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new InputException("config " + source + ": cannot be read: " + e.getMessage(), e);
        }
        if (roots.isEmpty()) {
            throw new InputException("config " + source + ": is empty; it needs " + SHAPE);
        }
        if (roots.size() > 1) {
            throw new InputException(source + ":" + roots.get(1).start() + ": the config is one document, found a second one");
        }
        return new Parser(source, roots.getFirst()).parse();
    }

    private static final class Parser {
        private final String source;
        private final DocumentReader.ReadValue root;
        private final List<String> warnings = new ArrayList<>();
        private final List<String> errors = new ArrayList<>();

        Parser(String source, DocumentReader.ReadValue root) {
            this.source = source;
            this.root = root;
        }

        CheckConfigFile parse() {
            if (!(root.value() instanceof Map<?, ?> top)) {
                throw new InputException(source + ":" + root.start() + ": expected " + SHAPE);
            }
            Map<String, String> topKeys = keys(top, "", List.of(CONDITIONS, NEGATIVE, POSITIVE));
            String conditionsKey = topKeys.get(CONDITIONS);
            boolean bare = topKeys.containsKey(NEGATIVE) || topKeys.containsKey(POSITIVE);
            if (conditionsKey != null && bare) {
                String stray = topKeys.getOrDefault(NEGATIVE, topKeys.get(POSITIVE));
                throw new InputException(at(stray) + ": " + stray + " belongs under " + conditionsKey
                        + "; write either " + SHAPE + " or the lists at the top, not both");
            }
            if (conditionsKey == null && !bare) {
                throw new InputException(at("") + ": no conditions found; expected " + SHAPE);
            }
            Map<?, ?> lists = top;
            String prefix = "";
            Map<String, String> listKeys = topKeys;
            if (conditionsKey != null) {
                Object value = top.get(conditionsKey);
                prefix = conditionsKey + ".";
                if (value == null) {
                    lists = Map.of();
                } else if (value instanceof Map<?, ?> nested) {
                    lists = nested;
                } else {
                    throw new InputException(at(conditionsKey) + ": " + conditionsKey + " must be a mapping: " + SHAPE);
                }
                listKeys = keys(lists, prefix, List.of(NEGATIVE, POSITIVE));
            }
            List<String> negative = list(lists, listKeys.get(NEGATIVE), prefix);
            List<String> positive = list(lists, listKeys.get(POSITIVE), prefix);
            if (errors.isEmpty()) {
                String negativePath = prefix + listKeys.getOrDefault(NEGATIVE, NEGATIVE);
                String positivePath = prefix + listKeys.getOrDefault(POSITIVE, POSITIVE);
                for (CheckConditions.Problem problem : CheckConditions.problems(negative, positive)) {
                    String path = problem.field().replaceFirst("^" + NEGATIVE, negativePath).replaceFirst("^" + POSITIVE, positivePath);
                    errors.add(at(path) + ": " + path + ": " + problem.message());
                }
            }
            if (!errors.isEmpty()) {
                throw new InputException(String.join("\n", errors));
            }
            return new CheckConfigFile(new CheckConditions(negative, positive), List.copyOf(warnings));
        }

        /** The keys as written, by their canonical name; warns about the others. */
        private Map<String, String> keys(Map<?, ?> map, String prefix, List<String> known) {
            var found = new LinkedHashMap<String, String>();
            for (Object key : map.keySet()) {
                String written = String.valueOf(key);
                String canonical = known.stream().filter(name -> name.equalsIgnoreCase(written)).findFirst().orElse(null);
                if (canonical == null) {
                    warnings.add(at(prefix + written) + ": unknown key '" + written + "' ignored (known keys: "
                            + String.join(", ", known) + ")");
                } else if (found.containsKey(canonical)) {
                    errors.add(at(prefix + written) + ": '" + written + "' repeats '" + found.get(canonical)
                            + "' (keys are matched case-insensitively)");
                } else {
                    found.put(canonical, written);
                }
            }
            return found;
        }

        private List<String> list(Map<?, ?> map, String key, String prefix) {
            if (key == null || map.get(key) == null) {
                return List.of();
            }
            String path = prefix + key;
            if (!(map.get(key) instanceof List<?> entries)) {
                errors.add(at(path) + ": " + path + " must be a list of condition types, e.g. [FetchFailed]");
                return List.of();
            }
            var types = new ArrayList<String>();
            for (int index = 0; index < entries.size(); index++) {
                if (entries.get(index) instanceof String type) {
                    types.add(type);
                } else {
                    String entry = path + "[" + index + "]";
                    errors.add(at(entry) + ": " + entry + ": expected a condition type (a string), found "
                            + (entries.get(index) == null ? "nothing" : entries.get(index)));
                }
            }
            return types;
        }

        private String at(String path) {
            var location = root.locations().get(path);
            return source + ":" + (location != null ? location : root.start());
        }
    }
}
