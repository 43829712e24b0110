package dwd.bootstrap.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A value of the wrong shape in a config file, in dwd's words: where, the path, what was expected
 * and what was found ({@code line 7, column 14: dependentResourceInfos[0].scaleUp: expected a
 * mapping (key: value lines), found the string 'level:0'}), never Jackson's internals.
 */
final class ShapeProblems {

    private static final Pattern OUT_OF_RANGE = Pattern.compile("^Numeric value \\((.*?)\\) out of range of (int|long)");

    private ShapeProblems() {
    }

    static String describe(JsonMappingException e) {
        var path = new StringBuilder();
        for (JsonMappingException.Reference reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return at(e.getLocation()) + (path.isEmpty() ? "" : path + ": ") + problem(e);
    }

    private static String problem(JsonMappingException e) {
        String message = e.getOriginalMessage();
        int detail = message.indexOf(" at [Source");
        if (detail > 0) {
            message = message.substring(0, detail);
        }
        Matcher outOfRange = OUT_OF_RANGE.matcher(message);
        if (outOfRange.find()) {
            return "expected a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE + ", found "
                    + outOfRange.group(1);
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return "expected " + expected(mismatch.getTargetType()) + found(e);
        }
        // Any other message of Jackson's: its type names and quoting are not for the reader.
        return message.replaceAll("`[a-z]+(\\.[a-zA-Z$]+)+`", "a value").replace("`", "");
    }

    private static String expected(Class<?> type) {
        if (type.isRecord() || Map.class.isAssignableFrom(type)) {
            return "a mapping (key: value lines)";
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        }
        return "a " + type.getSimpleName();
    }

    /** {@code , found …} from the token the parser stands on when it gave up. */
    private static String found(JsonMappingException e) {
        if (!(e.getProcessor() instanceof JsonParser parser) || parser.currentToken() == null) {
            return "";
        }
        JsonToken token = parser.currentToken();
        try {
            return switch (token) {
                case START_ARRAY -> ", found a list";
                case START_OBJECT -> ", found a mapping";
                case VALUE_STRING -> ", found the string '" + parser.getText() + "'";
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> ", found the number " + parser.getText();
                case VALUE_TRUE, VALUE_FALSE -> ", found " + parser.getText();
                default -> "";
            };
        } catch (IOException unreadable) {
            return "";
        }
    }

    private static String at(JsonLocation location) {
        return location == null || location.getLineNr() < 1 ? ""
                : "line " + location.getLineNr() + ", column " + location.getColumnNr() + ": ";
    }
}
