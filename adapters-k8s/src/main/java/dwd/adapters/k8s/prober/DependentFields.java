package dwd.adapters.k8s.prober;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.JsonFields;
import dwd.application.port.out.ApiFailure;

/**
 * What dwd reads of a dependent's JSON, as a read, a write's answer or a watch shows it (a Deployment,
 * a StatefulSet, a Scale): its replica counts and its resourceVersion.
 */
final class DependentFields {

    private DependentFields() {
    }

    /** The count at {@code path}; 0 when absent (a server omits a Scale's 0), clamped to an int. */
    static int replicas(JsonObject object, String... path) {
        return JsonFields.integer(object, path)
                .map(count -> (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, count)))
                .orElse(0);
    }

    /** The object's resourceVersion, which every write is made at. */
    static String version(JsonObject object) {
        return JsonFields.string(object, "metadata", "resourceVersion")
                .orElseThrow(() -> new ApiFailure(ApiFailure.Kind.INVALID, "the server sent an object without a resourceVersion"));
    }
}
