package dwd.bootstrap.check;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads YAML (one or more documents) or JSON (one or more values) into plain Java values, keeping
 * the line and column of every field so that errors can point at them.
 *
 * <p>Integers become {@link Integer}, {@link Long} or {@link java.math.BigInteger}; other numbers
 * {@link Double}. Duplicate keys are an error, as they are for kubectl.
 */
final class DocumentReader {

    private static final YAMLFactory YAML = new YAMLFactory();
    private static final JsonFactory JSON = new JsonFactory();

    private DocumentReader() {
    }

    /** A root value of the input, with where it starts and where each of its fields is. */
    record RootValue(Object value, SourceDocument.Location start, Map<String, SourceDocument.Location> locations) {
    }

    /**
     * Every root value of the text, in order; empty YAML documents are left out.
     *
     * @param source the name errors use for the input
     * @throws InputException naming {@code source:line:column} when the text does not parse
     */
    static List<RootValue> read(String source, String text) {
        var values = new ArrayList<RootValue>();
        try (JsonParser parser = looksLikeJson(text) ? JSON.createParser(text) : YAML.createParser(text)) {
            while (parser.nextToken() != null) {
                var locations = new HashMap<String, SourceDocument.Location>();
                SourceDocument.Location start = location(parser.currentTokenLocation());
                Object value = value(parser, "", locations, source);
                if (value != null) {
                    values.add(new RootValue(value, start, Map.copyOf(locations)));
                }
            }
        } catch (JsonProcessingException e) {
            throw new InputException(source + ":" + location(e.getLocation()) + ": cannot parse "
                    + (looksLikeJson(text) ? "JSON" : "YAML") + ": " + oneLine(e.getOriginalMessage()), e);
        } catch (IOException e) {
            throw new InputException(source + ": cannot read: " + e.getMessage(), e);
        }
        return values;
    }

    private static boolean looksLikeJson(String text) {
        String start = text.stripLeading();
        return start.startsWith("{") || start.startsWith("[");
    }

    private static Object value(JsonParser parser, String path, Map<String, SourceDocument.Location> locations, String source)
            throws IOException {
        JsonToken token = parser.currentToken();
        locations.putIfAbsent(path, location(parser.currentTokenLocation()));
        return switch (token) {
            case START_OBJECT -> {
                var map = new LinkedHashMap<String, Object>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    SourceDocument.Location keyLocation = location(parser.currentTokenLocation());
                    String child = path.isEmpty() ? key : path + "." + key;
                    if (map.containsKey(key)) {
                        throw new InputException(source + ":" + keyLocation + ": duplicate key '" + key + "'"
                                + (path.isEmpty() ? "" : " in " + path));
                    }
                    locations.put(child, keyLocation);
                    parser.nextToken();
                    map.put(key, value(parser, child, locations, source));
                }
                yield map;
            }
            case START_ARRAY -> {
                var list = new ArrayList<Object>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    list.add(value(parser, path + "[" + list.size() + "]", locations, source));
                }
                yield list;
            }
            case VALUE_STRING -> parser.getText();
            case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                case INT -> parser.getIntValue();
                case LONG -> parser.getLongValue();
                default -> parser.getBigIntegerValue();
            };
            case VALUE_NUMBER_FLOAT -> parser.getDoubleValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new InputException(source + ":" + location(parser.currentTokenLocation())
                    + ": unsupported value " + parser.getText() + (path.isEmpty() ? "" : " at " + path));
        };
    }

    private static SourceDocument.Location location(JsonLocation location) {
        return location == null ? new SourceDocument.Location(0, 0)
                : new SourceDocument.Location(location.getLineNr(), location.getColumnNr());
    }

    /** SnakeYAML's messages span lines with a caret drawing; keep the sentences. */
    private static String oneLine(String message) {
        if (message == null) {
            return "malformed input";
        }
        // Indented lines are SnakeYAML's "in 'reader', line …" marks and its echo of the input.
        return message.lines()
                .filter(line -> !line.isBlank() && !Character.isWhitespace(line.charAt(0)))
                .map(String::strip)
                .collect(Collectors.joining("; "));
    }
}
