package dwd.bootstrap.check;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dwd.adapters.k8s.input.UnusableInput;
import dwd.adapters.k8s.input.YamlParsers;
import dwd.domain.status.FieldProblem;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads YAML (one or more documents) or JSON (one or more values) into plain Java values, keeping
 * the line and column of every field so that errors can point at them. YAML is parsed as everywhere
 * in dwd ({@link YamlParsers}: aliases resolved within a bound).
 *
 * <p>Values are handed on as they end, so memory holds one at a time; with lists split, each item
 * of a list is a value of its own (a 20 MB {@code kubectl get -A -o yaml} is one document). One
 * value may span at most {@link #MAX_VALUE_CHARS} characters.
 *
 * <p>Integers become {@link Integer}, {@link Long} or {@link java.math.BigInteger}; other numbers
 * {@link Double}, except that a YAML number with an integral value that fits a long ({@code 1.0},
 * {@code 1e3}) is a {@link Long}: kubectl converts YAML to JSON, where Go writes such a number as an
 * integer. Duplicate keys are an error: in objects, an error of the object they are in (the value is
 * handed on with its {@link ReadValue#problem()}); elsewhere, of the input.
 */
final class DocumentReader {

    /** The most characters one value may span: Kubernetes objects are at most 1.5 MiB in etcd, YAML adds indentation. */
    static final long MAX_VALUE_CHARS = 8L << 20;

    private static final JsonFactory JSON = new JsonFactory();

    /**
     * A value of the input, with where it starts and where each of its fields is (paths from the value).
     *
     * @param problem the first duplicate key in the value, which makes it unreadable (objects only)
     */
    record ReadValue(Object value, SourceDocument.Location start, Map<String, SourceDocument.Location> locations,
            Optional<FieldProblem> problem) {
    }

    private final String source;
    private final boolean splitLists;
    private final Consumer<ReadValue> each;
    private boolean json;
    private Map<String, SourceDocument.Location> locations;
    private FieldProblem duplicate;
    private SourceDocument.Location duplicateAt;
    private long valueStart;
    private int valueStartLine;

    private DocumentReader(String source, boolean splitLists, Consumer<ReadValue> each) {
        this.source = source;
        this.splitLists = splitLists;
        this.each = each;
    }

    /**
     * Hands on every root value of {@code input}, in order; empty YAML documents are left out. With
     * {@code splitLists} (objects), a root sequence, and a root mapping whose {@code items} is a sequence
     * (a {@code List}, as kubectl tells one), give their items instead, and a duplicate key is a problem
     * of the value it is in.
     *
     * @param source the name errors use for the input
     * @throws InputException naming {@code source:line:column} when the text does not parse or breaks a bound
     */
    static void read(String source, Reader input, boolean splitLists, Consumer<ReadValue> each) {
        var reader = new DocumentReader(source, splitLists, each);
        var buffered = new BufferedReader(input, 1 << 16);
        boolean json = false;
        try {
            json = looksLikeJson(buffered);
            reader.json = json;
            try (JsonParser parser = json ? JSON.createParser(buffered) : YamlParsers.open(buffered)) {
                while (parser.nextToken() != null) {
                    reader.root(parser);
                }
            }
        } catch (JsonProcessingException e) {
            throw new InputException(source + ":" + position(YamlParsers.problem(e)) + ": cannot parse "
                    + (json ? "JSON" : "YAML") + ": " + YamlParsers.problem(e).message(), e);
        } catch (UnusableInput e) {
            throw new InputException(source + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new InputException(source + ": cannot be read: " + e.getMessage(), e);
        }
    }

    /** Whether the first character that is not white space opens a JSON object or array. */
    private static boolean looksLikeJson(BufferedReader input) throws IOException {
        input.mark(1 << 16);
        try {
            for (int read = 0, c; read < 1 << 16 && (c = input.read()) >= 0; read++) {
                if (!Character.isWhitespace(c) && c != 0xFEFF) {
                    return c == '{' || c == '[';
                }
            }
            return false;
        } finally {
            input.reset();
        }
    }

    private void root(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (splitLists && token == JsonToken.START_ARRAY) {
            items(parser);
        } else if (splitLists && token == JsonToken.START_OBJECT) {
            listOrObject(parser);
        } else {
            handOn(parser);
        }
    }

    /**
     * A root mapping: its items when it turns out to be a list, else the mapping itself. A duplicate key
     * of the list itself (outside its items) belongs to no object: it stops the run.
     */
    private void listOrObject(JsonParser parser) throws IOException {
        begin(parser);
        SourceDocument.Location start = location(parser.currentTokenLocation());
        locations.put("", start);
        var map = new LinkedHashMap<String, Object>();
        boolean list = false;
        FieldProblem ownDuplicate = null;
        SourceDocument.Location ownDuplicateAt = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            SourceDocument.Location keyLocation = location(parser.currentTokenLocation());
            if (map.containsKey(key) && ownDuplicate == null) {
                ownDuplicate = duplicateProblem(key, "");
                ownDuplicateAt = keyLocation;
            }
            locations.put(key, keyLocation);
            if (parser.nextToken() == JsonToken.START_ARRAY && key.equals("items") && !list) {
                if (ownDuplicate == null && duplicate != null) {
                    ownDuplicate = duplicate;
                    ownDuplicateAt = duplicateAt;
                }
                list = true;
                map.put(key, null);
                items(parser);
                begin(parser); // what follows the items belongs to the list, not to its last item
            } else {
                map.put(key, value(parser, key));
            }
        }
        if (ownDuplicate == null && duplicate != null) {
            ownDuplicate = duplicate;
            ownDuplicateAt = duplicateAt;
        }
        if (list && ownDuplicate != null) {
            throw new InputException(source + ":" + ownDuplicateAt + ": duplicate key " + ownDuplicate.fieldPath()
                    + " in the list itself (outside its items); a key may appear only once in a mapping");
        }
        if (!list) {
            each.accept(new ReadValue(map, start, Map.copyOf(locations), Optional.ofNullable(ownDuplicate)));
        }
    }

    private void items(JsonParser parser) throws IOException {
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            handOn(parser);
        }
    }

    private void handOn(JsonParser parser) throws IOException {
        begin(parser);
        SourceDocument.Location start = location(parser.currentTokenLocation());
        Object value = value(parser, "");
        if (value != null) {
            each.accept(new ReadValue(value, start, Map.copyOf(locations), Optional.ofNullable(duplicate)));
        }
    }

    private void begin(JsonParser parser) {
        locations = new HashMap<>();
        duplicate = null;
        valueStart = parser.currentTokenLocation().getCharOffset();
        valueStartLine = parser.currentTokenLocation().getLineNr();
    }

    private Object value(JsonParser parser, String path) throws IOException {
        JsonToken token = parser.currentToken();
        JsonLocation at = parser.currentTokenLocation();
        if (at.getCharOffset() - valueStart > MAX_VALUE_CHARS) {
            throw new InputException(source + ":" + location(at) + ": the value that starts at line " + valueStartLine
                    + " is larger than 8 MiB, the most dwd check reads as one object; Kubernetes objects are at most 1.5 MiB");
        }
        locations.putIfAbsent(path, location(at));
        return switch (token) {
            case START_OBJECT -> {
                var map = new LinkedHashMap<String, Object>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    SourceDocument.Location keyLocation = location(parser.currentTokenLocation());
                    if (map.containsKey(key)) {
                        if (!splitLists) {
                            throw duplicateKey(key, keyLocation, path);
                        }
                        if (duplicate == null) {
                            duplicate = duplicateProblem(key, path);
                            duplicateAt = keyLocation;
                        }
                    }
                    String child = path.isEmpty() ? key : path + "." + key;
                    locations.put(child, keyLocation);
                    parser.nextToken();
                    map.put(key, value(parser, child));
                }
                yield map;
            }
            case START_ARRAY -> {
                var list = new ArrayList<Object>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    list.add(value(parser, path + "[" + list.size() + "]"));
                }
                yield list;
            }
            case VALUE_STRING -> parser.getText();
            case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                case INT -> parser.getIntValue();
                case LONG -> parser.getLongValue();
                default -> parser.getBigIntegerValue();
            };
            case VALUE_NUMBER_FLOAT -> json ? parser.getDoubleValue() : asKubectlReadsYaml(parser.getDoubleValue());
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new InputException(source + ":" + location(at) + ": unsupported value "
                    + parser.getText() + (path.isEmpty() ? "" : " at " + path));
        };
    }

    /**
     * A YAML number as kubectl reads it: YAML becomes JSON first, where Go writes a float64 with an
     * integral value below 1e21 without a fraction, which then reads back as an int64 if it fits one.
     */
    private static Object asKubectlReadsYaml(double number) {
        boolean integral = number == Math.rint(number) && !Double.isInfinite(number);
        return integral && number >= -0x1p63 && number < 0x1p63 ? (Object) (long) number : (Object) number;
    }

    private static FieldProblem duplicateProblem(String key, String path) {
        return new FieldProblem(path.isEmpty() ? key : path + "." + key,
                "duplicate key; a key may appear only once in a mapping");
    }

    private InputException duplicateKey(String key, SourceDocument.Location at, String path) {
        return new InputException(source + ":" + at + ": duplicate key '" + key + "'" + (path.isEmpty() ? "" : " in " + path));
    }

    private static SourceDocument.Location location(JsonLocation location) {
        return location == null ? new SourceDocument.Location(0, 0)
                : new SourceDocument.Location(location.getLineNr(), location.getColumnNr());
    }

    private static String position(YamlParsers.Problem problem) {
        return problem.line() + ":" + problem.column();
    }
}
