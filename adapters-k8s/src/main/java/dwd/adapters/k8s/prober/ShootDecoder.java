package dwd.adapters.k8s.prober;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dwd.domain.cluster.ClusterShoot;
import dwd.domain.cluster.LastOperation;
import dwd.domain.cluster.Shoot;
import dwd.domain.cluster.Worker;
import dwd.domain.config.GoDuration;
import dwd.domain.config.InvalidGoDuration;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the shoot embedded in a {@code Cluster} ({@code spec.shoot}) the way the original's decoder
 * does for the fields dwd uses: unknown fields are ignored, {@code null} means unset, and a field of
 * the wrong type makes the whole shoot undecodable. Never throws.
 *
 * <p>Bounded, as the shoot's owner writes much of it: a list read holds at most {@link #MAX_ENTRIES}
 * entries and a string at most {@link #MAX_CHARS} characters, else the shoot is undecodable (no real
 * shoot comes near either); the cached form never keeps more.
 */
final class ShootDecoder {

    /** The most workers, or node conditions of a worker, read. */
    static final int MAX_ENTRIES = 1_000;
    /** The most characters of a string read (names, condition types, times, durations). */
    static final int MAX_CHARS = 1_024;

    private static final String ROOT = "spec.shoot";

    /**
     * The fields of {@code spec.shoot} that {@link #decode} reads, as a tree: a field maps to the
     * fields read below it, or to {@link #WHOLE} when its whole value is read; a list's elements
     * are read with the shape under {@link #EACH}.
     */
    private static final Map<String, Object> WHOLE = Map.of();
    private static final String EACH = "[]";
    private static final Map<String, Object> FIELDS_READ = Map.of(
            "apiVersion", WHOLE,
            "kind", WHOLE,
            "metadata", Map.of("deletionTimestamp", WHOLE),
            "spec", Map.of(
                    "hibernation", Map.of("enabled", WHOLE),
                    "provider", Map.of("workers", Map.of(EACH, Map.of(
                            "name", WHOLE,
                            "machineControllerManager", Map.of("nodeConditions", WHOLE)))),
                    "kubernetes", Map.of("kubeControllerManager", Map.of("nodeMonitorGracePeriod", WHOLE))),
            "status", Map.of(
                    "hibernated", WHOLE,
                    "lastOperation", Map.of("type", WHOLE, "state", WHOLE)));

    private ShootDecoder() {
    }

    /**
     * {@code shoot} (the value of {@code spec.shoot}) with only the fields {@link #decode} reads, for
     * caching: a Gardener Shoot is several kilobytes, of which the prober reads a few fields. A value
     * whose type is not the one expected is kept whole, so the decoder reports it exactly as before:
     * decoding the result gives what decoding {@code shoot} gives.
     */
    static JsonElement fieldsRead(JsonElement shoot) {
        return keep(shoot, FIELDS_READ);
    }

    @SuppressWarnings("unchecked")
    private static JsonElement keep(JsonElement value, Map<String, Object> shape) {
        if (shape.isEmpty()) {
            return bounded(value);
        }
        if (shape.containsKey(EACH)) {
            if (!value.isJsonArray()) {
                return value;
            }
            var kept = new JsonArray();
            for (JsonElement element : value.getAsJsonArray()) {
                if (kept.size() > MAX_ENTRIES) {
                    break; // one more than the bound is enough to refuse the list
                }
                kept.add(keep(element, (Map<String, Object>) shape.get(EACH)));
            }
            return kept;
        }
        if (!value.isJsonObject()) {
            return value;
        }
        var kept = new JsonObject();
        value.getAsJsonObject().entrySet().forEach(field -> {
            Object below = shape.get(field.getKey());
            if (below != null) {
                kept.add(field.getKey(), keep(field.getValue(), (Map<String, Object>) below));
            }
        });
        return kept;
    }

    /** A string or list of strings cut to one more than the bounds, enough for the decoder to refuse it. */
    private static JsonElement bounded(JsonElement value) {
        if (isString(value) && value.getAsString().length() > MAX_CHARS) {
            return new JsonPrimitive(value.getAsString().substring(0, MAX_CHARS + 1));
        }
        if (value.isJsonArray() && value.getAsJsonArray().size() > MAX_ENTRIES) {
            var kept = new JsonArray();
            for (int i = 0; i <= MAX_ENTRIES; i++) {
                kept.add(bounded(value.getAsJsonArray().get(i)));
            }
            return kept;
        }
        if (value.isJsonArray()) {
            var kept = new JsonArray();
            value.getAsJsonArray().forEach(element -> kept.add(bounded(element)));
            return kept;
        }
        return value;
    }

    /** What {@code cluster} (a whole Cluster object) holds in {@code spec.shoot}. */
    static ClusterShoot decode(JsonObject cluster) {
        JsonElement spec = cluster.get("spec");
        if (spec == null || spec.isJsonNull()) {
            return new ClusterShoot.Missing();
        }
        if (!spec.isJsonObject()) {
            return new ClusterShoot.Undecodable("spec: expected an object, found " + describe(spec));
        }
        JsonElement shoot = spec.getAsJsonObject().get("shoot");
        if (shoot == null || shoot.isJsonNull()) {
            return new ClusterShoot.Missing();
        }
        try {
            return new ClusterShoot.Present(shoot(shoot));
        } catch (WrongType wrong) {
            return new ClusterShoot.Undecodable(wrong.getMessage());
        }
    }

    private static Shoot shoot(JsonElement element) {
        JsonObject shoot = asObject(element, ROOT);
        // Type metadata is not used, but a decoder of the typed Shoot rejects it when mistyped.
        string(shoot, "apiVersion", ROOT);
        string(shoot, "kind", ROOT);

        Optional<JsonObject> metadata = object(shoot, "metadata", ROOT);
        boolean deletionRequested = metadata
                .flatMap(meta -> time(meta, "deletionTimestamp", ROOT + ".metadata"))
                .isPresent();

        String specPath = ROOT + ".spec";
        Optional<JsonObject> spec = object(shoot, "spec", ROOT);
        Optional<Boolean> hibernationEnabled = spec
                .flatMap(s -> object(s, "hibernation", specPath))
                .flatMap(hibernation -> bool(hibernation, "enabled", specPath + ".hibernation"));
        List<Worker> workers = spec
                .flatMap(s -> object(s, "provider", specPath))
                .map(provider -> workers(provider, specPath + ".provider"))
                .orElse(List.of());
        String kcmPath = specPath + ".kubernetes.kubeControllerManager";
        Optional<Duration> nodeMonitorGracePeriod = spec
                .flatMap(s -> object(s, "kubernetes", specPath))
                .flatMap(kubernetes -> object(kubernetes, "kubeControllerManager", specPath + ".kubernetes"))
                .flatMap(kcm -> duration(kcm, "nodeMonitorGracePeriod", kcmPath));

        String statusPath = ROOT + ".status";
        Optional<JsonObject> status = object(shoot, "status", ROOT);
        boolean hibernated = status.flatMap(s -> bool(s, "hibernated", statusPath)).orElse(false);
        Optional<LastOperation> lastOperation = status
                .flatMap(s -> object(s, "lastOperation", statusPath))
                .map(operation -> new LastOperation(
                        string(operation, "type", statusPath + ".lastOperation").orElse(""),
                        string(operation, "state", statusPath + ".lastOperation").orElse("")));

        return new Shoot(deletionRequested, hibernationEnabled, hibernated, lastOperation, workers,
                nodeMonitorGracePeriod);
    }

    private static List<Worker> workers(JsonObject provider, String providerPath) {
        Optional<JsonArray> list = array(provider, "workers", providerPath);
        if (list.isEmpty()) {
            return List.of();
        }
        List<Worker> workers = new ArrayList<>();
        JsonArray elements = list.get();
        for (int i = 0; i < elements.size(); i++) {
            String path = providerPath + ".workers[" + i + "]";
            JsonObject worker = asObject(elements.get(i), path);
            String name = string(worker, "name", path).orElse("");
            Optional<JsonObject> mcm = object(worker, "machineControllerManager", path);
            List<String> nodeConditions = mcm
                    .flatMap(settings -> array(settings, "nodeConditions", path + ".machineControllerManager"))
                    .map(conditions -> strings(conditions, path + ".machineControllerManager.nodeConditions"))
                    .orElse(List.of());
            workers.add(new Worker(name, mcm.isPresent(), nodeConditions));
        }
        return workers;
    }

    private static List<String> strings(JsonArray array, String path) {
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            strings.add(checkedString(array.get(i), path + "[" + i + "]"));
        }
        return strings;
    }

    private static Optional<Duration> duration(JsonObject parent, String field, String parentPath) {
        return string(parent, field, parentPath).map(text -> {
            try {
                return GoDuration.parse(text);
            } catch (InvalidGoDuration invalid) {
                throw new WrongType(parentPath + "." + field + ": " + invalid.getMessage());
            }
        });
    }

    private static Optional<OffsetDateTime> time(JsonObject parent, String field, String parentPath) {
        return string(parent, field, parentPath).map(text -> {
            try {
                return OffsetDateTime.parse(text);
            } catch (DateTimeParseException invalid) {
                throw new WrongType(parentPath + "." + field + ": \"" + text + "\" is not an RFC 3339 time");
            }
        });
    }

    private static JsonObject asObject(JsonElement element, String path) {
        if (!element.isJsonObject()) {
            throw new WrongType(path, "an object", element);
        }
        return element.getAsJsonObject();
    }

    private static Optional<JsonObject> object(JsonObject parent, String field, String parentPath) {
        return present(parent, field).map(value -> asObject(value, parentPath + "." + field));
    }

    private static Optional<JsonArray> array(JsonObject parent, String field, String parentPath) {
        return present(parent, field).map(value -> {
            if (!value.isJsonArray()) {
                throw new WrongType(parentPath + "." + field, "a list", value);
            }
            if (value.getAsJsonArray().size() > MAX_ENTRIES) {
                throw new WrongType(parentPath + "." + field + ": more than " + String.format("%,d", MAX_ENTRIES)
                        + " entries, the most dwd reads");
            }
            return value.getAsJsonArray();
        });
    }

    private static Optional<String> string(JsonObject parent, String field, String parentPath) {
        return present(parent, field).map(value -> checkedString(value, parentPath + "." + field));
    }

    private static String checkedString(JsonElement value, String path) {
        if (!isString(value)) {
            throw new WrongType(path, "a string", value);
        }
        if (value.getAsString().length() > MAX_CHARS) {
            throw new WrongType(path + ": longer than " + String.format("%,d", MAX_CHARS)
                    + " characters, the most dwd reads");
        }
        return value.getAsString();
    }

    private static Optional<Boolean> bool(JsonObject parent, String field, String parentPath) {
        return present(parent, field).map(value -> {
            if (!value.isJsonPrimitive() || !value.getAsJsonPrimitive().isBoolean()) {
                throw new WrongType(parentPath + "." + field, "true or false", value);
            }
            return value.getAsBoolean();
        });
    }

    /** The field's value; {@code null} is unset, as in Go. */
    private static Optional<JsonElement> present(JsonObject parent, String field) {
        JsonElement value = parent.get(field);
        return value == null || value.isJsonNull() ? Optional.empty() : Optional.of(value);
    }

    private static boolean isString(JsonElement element) {
        return element.isJsonPrimitive() && element.getAsJsonPrimitive().isString();
    }

    private static String describe(JsonElement element) {
        if (element.isJsonObject()) {
            return "an object";
        }
        if (element.isJsonArray()) {
            return "a list";
        }
        if (element.isJsonNull()) {
            return "null";
        }
        var primitive = element.getAsJsonPrimitive();
        if (primitive.isBoolean()) {
            return primitive.getAsBoolean() ? "true" : "false";
        }
        return primitive.isNumber() ? "the number " + primitive.getAsString() : "a string";
    }

    /** A field of {@code spec.shoot} has a type the shoot's schema does not allow. */
    private static final class WrongType extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WrongType(String path, String expected, JsonElement found) {
            this(path + ": expected " + expected + ", found " + describe(found));
        }

        WrongType(String message) {
            super(message, null, false, false);
        }
    }
}
