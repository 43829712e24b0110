package dwd.domain.status;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds object documents in tests: {@code map("kind", "Pod", "status", map("phase", "Running"))}. */
final class Documents {

    private Documents() {
    }

    static Map<String, Object> map(Object... keysAndValues) {
        var map = new LinkedHashMap<String, Object>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    static Map<String, Object> condition(String type, String status, String reason, String message) {
        return map("type", type, "status", status, "reason", reason, "message", message);
    }

    static Map<String, Object> condition(String type, String status) {
        return map("type", type, "status", status);
    }

    static List<Object> list(Object... items) {
        return java.util.Arrays.asList(items); // nulls allowed: documents hold them
    }
}
