package dwd.bootstrap.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The keys of a config document that its record type does not have, each named by its path in the
 * style of the validation's messages: {@code dependentResourceInfos[0].scaleUp.replicas},
 * {@code servicesAndDependantSelectors[etcd-main-client].podSelectors[0].other}. Keys match record
 * components case-insensitively, as the reader binds them. Values of the wrong shape are not looked
 * into: reading the document reports them.
 */
final class UnknownKeys {

    private UnknownKeys() {
    }

    /** The unknown keys of {@code document} read as {@code type}, in document order. */
    static List<String> of(JsonNode document, Class<?> type) {
        var found = new ArrayList<String>();
        walk(document, type, "", found);
        return found;
    }

    private static void walk(JsonNode node, Type type, String path, List<String> found) {
        if (node == null || node.isNull()) {
            return;
        }
        if (type instanceof Class<?> record && record.isRecord()) {
            if (!node.isObject()) {
                return;
            }
            for (var field : node.properties()) {
                Optional<RecordComponent> component = component(record, field.getKey());
                String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                if (component.isEmpty()) {
                    found.add(child);
                } else {
                    walk(field.getValue(), component.get().getGenericType(), child, found);
                }
            }
        } else if (type instanceof ParameterizedType generic && generic.getRawType() instanceof Class<?> raw) {
            Type[] arguments = generic.getActualTypeArguments();
            if (Collection.class.isAssignableFrom(raw) && node.isArray()) {
                for (int i = 0; i < node.size(); i++) {
                    walk(node.get(i), arguments[0], path + "[" + i + "]", found);
                }
            } else if (Map.class.isAssignableFrom(raw) && node.isObject()) {
                for (var entry : node.properties()) {
                    walk(entry.getValue(), arguments[1], path + "[" + entry.getKey() + "]", found);
                }
            }
        }
    }

    private static Optional<RecordComponent> component(Class<?> record, String key) {
        String wanted = key.toLowerCase(Locale.ROOT);
        for (RecordComponent component : record.getRecordComponents()) {
            if (component.getName().toLowerCase(Locale.ROOT).equals(wanted)) {
                return Optional.of(component);
            }
        }
        return Optional.empty();
    }
}
