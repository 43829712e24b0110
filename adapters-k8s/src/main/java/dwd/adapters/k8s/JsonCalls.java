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
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
     * The most of a successful answer read as one JSON object: far above any object an API server
     * stores (etcd keeps at most 1.5 MiB each), far below what would strain the heap.
     */
    public static final long MAX_OBJECT_BYTES = 16L * 1024 * 1024;

    /** The most of an error answer read: its Status says what went wrong in far fewer bytes; the rest is left unread. */
    static final int MAX_ERROR_BYTES = 64 * 1024;

    /** Reads a successful answer's body as it streams in. */
    @FunctionalInterface
    public interface BodyReader<T> {
        T read(InputStream body) throws IOException;
    }

    /**
     * Executes {@code call} (built by a client-java request builder, not yet executed) within
     * {@code timeout} and reads its answer as a JSON object of at most {@link #MAX_OBJECT_BYTES}.
     *
     * <p>The body is read here rather than by {@code ApiClient.execute(call, String.class)}, which
     * first offers every JSON body to Gson as a string and catches the two exceptions that throws:
     * on every request of every probe run and every scale write.
     *
     * @throws ApiException for an error status (with the status's code, headers and body) or a
     *                      transport failure (code 0), as client-java reports them
     * @throws JsonParseException when the body is not a JSON object
     * @throws AnswerOutOfBounds when the body is larger than that
     */
    public static JsonObject execute(Call call, Duration timeout) throws ApiException {
        return execute(call, timeout, MAX_OBJECT_BYTES);
    }

    /** As {@link #execute(Call, Duration)}, for an answer of at most {@code maxBytes}. */
    public static JsonObject execute(Call call, Duration timeout, long maxBytes) throws ApiException {
        return execute(call, timeout, body -> asObject(readAtMost(body, maxBytes)));
    }

    /**
     * Executes {@code call} within {@code timeout} and hands a successful answer's body to {@code reader}
     * as it streams in; of an error answer, at most {@link #MAX_ERROR_BYTES} are read.
     *
     * <p>{@code reader} reports an answer it refuses with an unchecked exception of its own choosing
     * ({@link AnswerOutOfBounds}, {@link MalformedAnswer}); an {@link IOException} it throws is the
     * transport's.
     *
     * @throws ApiException for an error status or a transport failure, as client-java reports them
     */
    public static <T> T execute(Call call, Duration timeout, BodyReader<T> reader) throws ApiException {
        call.timeout().timeout(positiveMillis(timeout), TimeUnit.MILLISECONDS);
        try (Response response = call.execute()) {
            ResponseBody body = response.body();
            if (!response.isSuccessful()) {
                String text = null;
                if (body != null) {
                    byte[] head = body.byteStream().readNBytes(MAX_ERROR_BYTES + 1);
                    if (head.length > MAX_ERROR_BYTES) {
                        call.cancel(); // rather than read the rest to keep the connection
                    }
                    text = new String(head, 0, Math.min(head.length, MAX_ERROR_BYTES), StandardCharsets.UTF_8);
                }
                throw new ApiException(response.message(), response.code(), response.headers().toMultimap(), text);
            }
            if (body == null) {
                throw new JsonParseException("the response body is empty");
            }
            try {
                return reader.read(body.byteStream());
            } catch (IOException | RuntimeException refused) {
                // Closing a response reads what is left of it, to keep the connection; a refused answer's
                // rest is not worth a byte.
                call.cancel();
                throw refused;
            }
        } catch (IOException transport) {
            throw new ApiException(transport);
        }
    }

    /** The whole of {@code body}, refused when it is longer than {@code maxBytes}. */
    private static String readAtMost(InputStream body, long maxBytes) throws IOException {
        byte[] bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        if (bytes.length > maxBytes) {
            throw new AnswerOutOfBounds("the answer is larger than " + maxBytes + " bytes, the most dwd reads of one");
        }
        return new String(bytes, StandardCharsets.UTF_8);
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
