package dwd.adapters.k8s;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.PatchUtils;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;

/**
 * Executes calls built by client-java's request builders ({@code ….buildCall(null)}), each bounded
 * by its own timeout, and reads the response as plain JSON. Responses are never bound to
 * client-java's strict models, so a server newer than the client cannot break a read.
 */
public final class JsonCalls {

    private JsonCalls() {
    }

    /**
     * Executes {@code call} (built by {@code client}, not yet executed) within {@code timeout}.
     *
     * @throws ApiException for an error status or a transport failure (code 0)
     * @throws JsonParseException when the body is not a JSON object
     */
    public static JsonObject execute(ApiClient client, Call call, Duration timeout) throws ApiException {
        call.timeout().timeout(positiveMillis(timeout), TimeUnit.MILLISECONDS);
        String body = client.<String>execute(call, String.class).getData();
        return asObject(body);
    }

    /**
     * Sends the PATCH that {@code patchCall} builds with the media type of {@code patchFormat} (one of
     * {@code V1Patch.PATCH_FORMAT_*}), within {@code timeout}. Goes through {@link PatchUtils}: a
     * generated patch method's own {@code execute()} sends {@code application/json}, which the server
     * answers with 415.
     */
    public static JsonObject patch(ApiClient client, PatchUtils.PatchCallFunc patchCall, String patchFormat,
            Duration timeout) throws ApiException {
        // PatchUtils executes a new call on the client it is given: give it one whose call timeout is
        // ours. It shares the connection pool and dispatcher of the original; the request (with its
        // credentials) is still built by the original.
        ApiClient bounded = new ApiClient(client.getHttpClient().newBuilder()
                .callTimeout(positiveMillis(timeout), TimeUnit.MILLISECONDS)
                .build());
        String body = PatchUtils.patch(String.class, patchCall, patchFormat, bounded);
        return asObject(body);
    }

    private static JsonObject asObject(String body) {
        if (body == null || body.isBlank()) {
            throw new JsonParseException("the response body is empty");
        }
        JsonElement parsed = JsonParser.parseString(body);
        if (!parsed.isJsonObject()) {
            throw new JsonParseException("the response body is not a JSON object");
        }
        return parsed.getAsJsonObject();
    }

    private static long positiveMillis(Duration timeout) {
        // OkHttp reads 0 as "no timeout": never let a rounding turn a bound into none.
        return Math.max(1, timeout.toMillis());
    }
}
