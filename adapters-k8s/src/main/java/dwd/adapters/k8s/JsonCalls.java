package dwd.adapters.k8s;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.ProxyContentTypeRequestBody;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Executes calls built by client-java's request builders ({@code ….buildCall(null)}), each bounded
 * by its own timeout, and reads the response as plain JSON. Responses are never bound to
 * client-java's strict models, so a server newer than the client cannot break a read.
 */
public final class JsonCalls {

    private JsonCalls() {
    }

    /**
     * Executes {@code call} (built by a client-java request builder, not yet executed) within {@code timeout}.
     *
     * <p>The body is read here rather than by {@code ApiClient.execute(call, String.class)}, which
     * first offers every JSON body to Gson as a string and catches the two exceptions that throws:
     * on every request of every probe run and every scale write.
     *
     * @throws ApiException for an error status (with the status's code, headers and body) or a
     *                      transport failure (code 0), as client-java reports them
     * @throws JsonParseException when the body is not a JSON object
     */
    public static JsonObject execute(Call call, Duration timeout) throws ApiException {
        call.timeout().timeout(positiveMillis(timeout), TimeUnit.MILLISECONDS);
        try (Response response = call.execute()) {
            ResponseBody body = response.body();
            String text = body == null ? null : body.string();
            if (!response.isSuccessful()) {
                throw new ApiException(response.message(), response.code(), response.headers().toMultimap(), text);
            }
            return asObject(text);
        } catch (IOException transport) {
            throw new ApiException(transport);
        }
    }

    /**
     * Sends the PATCH that {@code patchCall} builds (with the client's credentials) with the media
     * type of {@code patchFormat} (one of {@code V1Patch.PATCH_FORMAT_*}), within {@code timeout}: a
     * generated patch method's own call sends {@code application/json}, which the server answers
     * with 415.
     */
    public static JsonObject patch(ApiClient client, PatchUtils.PatchCallFunc patchCall, String patchFormat,
            Duration timeout) throws ApiException {
        Request built = patchCall.getCall().request();
        Request request = built.newBuilder()
                .patch(new ProxyContentTypeRequestBody(built.body(), patchFormat))
                .build();
        return execute(client.getHttpClient().newCall(request), timeout);
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
