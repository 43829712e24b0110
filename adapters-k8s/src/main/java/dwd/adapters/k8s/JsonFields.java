package dwd.adapters.k8s;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tolerant reads of Kubernetes JSON: a missing field, a {@code null} or a value of another type
 * reads as absent. Used for objects dwd does not own, whose servers may be newer than client-java's
 * strict models.
 */
public final class JsonFields {

    private JsonFields() {
    }

    /** The value at {@code path}, if every step exists and is not {@code null}. */
    public static Optional<JsonElement> at(JsonObject root, String... path) {
        JsonElement current = root;
        for (String step : path) {
            if (current == null || !current.isJsonObject()) {
                return Optional.empty();
            }
            current = current.getAsJsonObject().get(step);
        }
        return current == null || current.isJsonNull() ? Optional.empty() : Optional.of(current);
    }

    /** The object at {@code path}. */
    public static Optional<JsonObject> object(JsonObject root, String... path) {
        return at(root, path).filter(JsonElement::isJsonObject).map(JsonElement::getAsJsonObject);
    }

    /** The string at {@code path}. */
    public static Optional<String> string(JsonObject root, String... path) {
        return at(root, path)
                .filter(JsonElement::isJsonPrimitive)
                .map(JsonElement::getAsJsonPrimitive)
                .filter(JsonPrimitive::isString)
                .map(JsonPrimitive::getAsString);
    }

    /** The whole number at {@code path}; fractions and numbers beyond {@code long} read as absent. */
    public static Optional<Long> integer(JsonObject root, String... path) {
        return at(root, path)
                .filter(JsonElement::isJsonPrimitive)
                .map(JsonElement::getAsJsonPrimitive)
                .filter(JsonPrimitive::isNumber)
                .flatMap(number -> {
                    try {
                        return Optional.of(number.getAsBigDecimal().longValueExact());
                    } catch (ArithmeticException | NumberFormatException notWhole) {
                        return Optional.empty();
                    }
                });
    }

    /** The string-to-string map at {@code path} (labels, annotations); entries of other types are left out. */
    public static Map<String, String> stringMap(JsonObject root, String... path) {
        Map<String, String> map = new LinkedHashMap<>();
        object(root, path).ifPresent(object -> {
            for (var entry : object.entrySet()) {
                JsonElement value = entry.getValue();
                if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isString()) {
                    map.put(entry.getKey(), value.getAsString());
                }
            }
        });
        return map;
    }

    /** The objects in the list at {@code path}; other elements are left out. */
    public static List<JsonObject> objects(JsonObject root, String... path) {
        List<JsonObject> objects = new ArrayList<>();
        at(root, path).filter(JsonElement::isJsonArray).map(JsonElement::getAsJsonArray).ifPresent(array -> {
            for (JsonElement element : array) {
                if (element.isJsonObject()) {
                    objects.add(element.getAsJsonObject());
                }
            }
        });
        return objects;
    }
}
