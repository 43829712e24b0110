package dwd.adapters.k8s.objects;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Turns API server JSON into plain Java values. Numbers keep their JSON form: an integer literal
 * becomes a {@link Long} (a {@link BigInteger} if it does not fit), anything else a {@link Double};
 * Gson's generic parsing would make every number a double and every count unreadable as an integer.
 */
final class JsonDocuments {

    private static final Pattern INTEGER = Pattern.compile("-?\\d+");

    private JsonDocuments() {
    }

    /** The JSON text as an object document, or empty when it is not a JSON object. */
    static Optional<Map<String, Object>> parseObject(String json) {
        try {
            JsonElement element = JsonParser.parseString(json);
            return element.isJsonObject() ? Optional.of(toMap(element.getAsJsonObject())) : Optional.empty();
        } catch (JsonParseException notJson) {
            return Optional.empty();
        }
    }

    static Map<String, Object> toMap(JsonObject object) {
        var map = new LinkedHashMap<String, Object>();
        object.entrySet().forEach(entry -> map.put(entry.getKey(), toValue(entry.getValue())));
        return map;
    }

    private static Object toValue(JsonElement element) {
        if (element == null || element.isJsonNull()) {
            return null;
        }
        if (element.isJsonObject()) {
            return toMap(element.getAsJsonObject());
        }
        if (element.isJsonArray()) {
            return toList(element.getAsJsonArray());
        }
        JsonPrimitive primitive = element.getAsJsonPrimitive();
        if (primitive.isBoolean()) {
            return primitive.getAsBoolean();
        }
        if (primitive.isNumber()) {
            return number(primitive.getAsString());
        }
        return primitive.getAsString();
    }

    private static List<Object> toList(JsonArray array) {
        var list = new ArrayList<Object>(array.size());
        array.forEach(item -> list.add(toValue(item)));
        return list;
    }

    static Object number(String literal) {
        if (INTEGER.matcher(literal).matches()) {
            BigInteger value = new BigInteger(literal);
            return value.bitLength() < Long.SIZE ? (Object) value.longValue() : value;
        }
        return Double.parseDouble(literal);
    }
}
