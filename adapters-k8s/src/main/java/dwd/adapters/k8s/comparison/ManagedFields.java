package dwd.adapters.k8s.comparison;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dwd.adapters.k8s.JsonFields;
import dwd.domain.comparison.FieldManager;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code metadata.managedFields} as the comparison needs it: per entry, its manager, operation,
 * subresource, time, and whether it owns {@code spec.replicas} and which of dwd's annotations. Fields
 * it cannot read are left out; an entry is never an error.
 */
final class ManagedFields {

    /** dwd's annotations share this prefix; the comparison follows no other. */
    static final String ANNOTATION_PREFIX = "dependency-watchdog.gardener.cloud/";

    private ManagedFields() {
    }

    static List<FieldManager> of(JsonObject object) {
        var entries = new ArrayList<FieldManager>();
        for (JsonObject entry : JsonFields.objects(object, "metadata", "managedFields")) {
            Optional<JsonObject> fields = JsonFields.object(entry, "fieldsV1");
            boolean replicas = fields.flatMap(f -> JsonFields.object(f, "f:spec", "f:replicas")).isPresent();
            entries.add(new FieldManager(JsonFields.string(entry, "manager").orElse(""),
                    JsonFields.string(entry, "operation").orElse(""),
                    JsonFields.string(entry, "subresource").orElse(""),
                    JsonFields.string(entry, "time").flatMap(ManagedFields::instant),
                    replicas, fields.map(ManagedFields::annotations).orElse(Set.of())));
        }
        return entries;
    }

    /** dwd's annotations among an entry's {@code f:metadata.f:annotations}. */
    private static Set<String> annotations(JsonObject fields) {
        var owned = new HashSet<String>();
        JsonFields.object(fields, "f:metadata", "f:annotations").ifPresent(annotations -> {
            for (Map.Entry<String, JsonElement> field : annotations.entrySet()) {
                String key = field.getKey().startsWith("f:") ? field.getKey().substring(2) : field.getKey();
                if (key.startsWith(ANNOTATION_PREFIX)) {
                    owned.add(key);
                }
            }
        });
        return owned;
    }

    private static Optional<Instant> instant(String text) {
        try {
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
