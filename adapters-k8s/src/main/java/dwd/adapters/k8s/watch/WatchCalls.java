package dwd.adapters.k8s.watch;

import com.google.gson.JsonElement;
import com.google.gson.JsonIOException;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.JsonFields;
import dwd.application.port.out.ApiFailure;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.io.Reader;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

/**
 * The requests of one list-watch and the reading of their answers, as plain JSON: a list read item
 * by item, a watch read event by event. Every failure comes out as an {@link ApiFailure}, translated
 * by {@link ApiFailures}, except 410 Gone, which is {@link Expired}, and a request cut because the
 * server said nothing for longer than the {@link Heartbeat}'s bound, which is {@link Silent}. Every
 * listed object, event and bookmark, the headers of every answer and the end of every watch count
 * as heard. Each watch asks the server to end it after a while ({@code timeoutSeconds}, from the
 * {@link WatchOptions}): its end is what a healthy idle watch is sure to hear within the bound.
 *
 * <p>After a silence the requests go out on new connections ({@link #moveToNewConnections()}): on a
 * connection pool of this watch's own, fresh after each silence, with the client's every other
 * setting. Dropping the client's idle connections is not enough: HTTP/2 carries many requests on one
 * connection, and one the client shares with other watches (the weeder's pod watches) may still be
 * busy with their requests, so the next request would go out on it again.
 */
final class WatchCalls {

    /** One event of a watch: {@code ADDED}, {@code MODIFIED}, {@code DELETED} or {@code BOOKMARK}, and its object. */
    record Event(String type, JsonObject object) {

        /** The resourceVersion the event brings the watch to, if it says. */
        Optional<String> resourceVersion() {
            return JsonFields.string(object, "metadata", "resourceVersion");
        }
    }

    /** How a watch ended. */
    enum WatchEnd {
        /** The list-watch was closed. */
        CLOSED,
        /** The server ended it after a while (its timeout), or after events: watch on from the last version. */
        HEALTHY,
        /** The server ended it at once without an event: a failure, to be backed off. */
        AT_ONCE
    }

    /** The server answered 410 Gone: the resourceVersion is too old; list afresh. */
    static final class Expired extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Expired() {
            super(null, null, false, false);
        }
    }

    /** The server said nothing for longer than the bound (not even a bookmark): the request was cut. */
    static final class Silent extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Silent() {
            super(null, null, false, false);
        }
    }

    /** Builds the list (watch false) or the watch request from a resourceVersion; timeoutSeconds is null for a list. */
    @FunctionalInterface
    interface Builder {
        Call build(boolean watch, String resourceVersion, Integer timeoutSeconds) throws ApiException;
    }

    /** A watch that ends sooner than this, without an event, counts as failed: a server or proxy that ends every watch at once is backed off, not hammered. */
    static final Duration HEALTHY_WATCH = Duration.ofSeconds(1);
    private static final long MAX_ERROR_BODY = 64 * 1024;
    private static final int GONE = 410;

    private final String kinds;
    private final Builder requests;
    private final WatchOptions options;
    private final ApiClient client;
    private final BooleanSupplier closed;
    private final Heartbeat heartbeat;
    private final AtomicReference<Call> inFlight = new AtomicReference<>();
    /** When the last request started, on the monotonic clock; null before the first. */
    private volatile Long lastRequestNanos;
    /** The request in flight was cut for its silence. */
    private volatile boolean silenced;
    /** Since the last silence, the requests go out on this client, whose connection pool is this watch's own. */
    private volatile OkHttpClient ownConnections;

    WatchCalls(String kinds, Builder requests, WatchOptions options, BooleanSupplier closed, Heartbeat heartbeat) {
        this.kinds = kinds;
        this.requests = requests;
        this.options = options;
        this.client = options.client();
        this.closed = closed;
        this.heartbeat = heartbeat;
    }

    /** Since the last list or watch request started; empty before the first. */
    Optional<Duration> sinceLastRequest() {
        Long started = lastRequestNanos;
        return started == null ? Optional.empty() : Optional.of(Duration.ofNanos(System.nanoTime() - started));
    }

    /** Cancels the request in flight, so that a blocked read ends at once. */
    void cancel() {
        Call call = inFlight.get();
        if (call != null) {
            call.cancel();
        }
    }

    /** The watch's loop ended: closes the connections of its own, if a silence gave it some. */
    void releaseOwnConnections() {
        OkHttpClient own = ownConnections;
        if (own != null) {
            own.connectionPool().evictAll();
        }
    }

    /**
     * A request was cut for its silence: the next ones go out on new connections, of a pool of this
     * watch's own (the previous one's are dropped: they carried only this watch's requests). The
     * client's idle connections are dropped too, since the silent one may be among them.
     */
    void moveToNewConnections() {
        OkHttpClient shared = client.getHttpClient();
        shared.connectionPool().evictAll();
        OkHttpClient previous = ownConnections;
        ownConnections = shared.newBuilder().connectionPool(new ConnectionPool()).build();
        if (previous != null) {
            previous.connectionPool().evictAll();
        }
    }

    /**
     * Lists from {@code from}, handing each object to {@code items}. The answer is read item by item,
     * never held whole: a seed's 10,000 Clusters or Secrets are tens of MB as JSON and several times
     * that as a parsed tree.
     *
     * @return the list's resourceVersion, to watch from
     */
    String list(String from, Consumer<JsonObject> items) {
        String action = "listing " + kinds;
        String listedVersion = "";
        Heartbeat.SilenceCheck silence = heartbeat.afterSilence(this::cutForSilence);
        try (Response response = send(action, false, from, null);
             JsonReader reader = new JsonReader(response.body().charStream())) {
            reader.beginObject();
            while (reader.hasNext()) {
                switch (reader.nextName()) {
                    case "metadata" -> listedVersion = JsonFields.string(asObject(JsonParser.parseReader(reader)),
                            "resourceVersion").orElse("");
                    case "items" -> {
                        if (reader.peek() == JsonToken.NULL) {
                            reader.nextNull();
                            continue;
                        }
                        reader.beginArray();
                        while (reader.hasNext()) {
                            JsonObject item = asObject(JsonParser.parseReader(reader));
                            heartbeat.heard();
                            items.accept(item);
                        }
                        reader.endArray();
                    }
                    default -> reader.skipValue();
                }
            }
            reader.endObject();
        } catch (IOException e) {
            throw failure(action, e);
        } catch (JsonIOException e) {
            throw e.getCause() instanceof IOException io ? failure(action, io) : ApiFailures.translate(action, e);
        } catch (JsonParseException | IllegalStateException e) {
            throw ApiFailures.translate(action, new JsonParseException("not a list: " + e.getMessage(), e));
        } finally {
            silence.disarm();
        }
        heartbeat.heard();
        return listedVersion;
    }

    /**
     * Watches from {@code from}, handing each event to {@code events} (bookmarks included), until the
     * server ends the watch (at the latest after the {@code timeoutSeconds} it asks for) or the
     * list-watch is closed.
     *
     * @throws Expired    when the server answers, or the watch ends with, 410 Gone
     * @throws ApiFailure for any other failure
     */
    WatchEnd watch(String from, Consumer<Event> events) {
        String action = "watching " + kinds;
        int timeoutSeconds = options.watchSeconds(ThreadLocalRandom.current().nextInt());
        long opened = System.nanoTime();
        boolean anyEvent = false;
        Heartbeat.SilenceCheck silence = heartbeat.afterSilence(this::cutForSilence);
        try (Response response = send(action, true, from, timeoutSeconds)) {
            BufferedSource source = response.body().source();
            String line;
            while ((line = source.readUtf8Line()) != null) {
                if (closed.getAsBoolean()) {
                    return WatchEnd.CLOSED;
                }
                heartbeat.heard();
                if (line.isBlank()) {
                    continue;
                }
                JsonObject event = parseObject(action, Reader.of(line));
                JsonObject object = JsonFields.object(event, "object").orElseGet(JsonObject::new);
                String type = JsonFields.string(event, "type").orElse("");
                if (type.equals("ERROR")) {
                    long code = JsonFields.integer(object, "code").orElse(0L);
                    if (code == GONE) {
                        throw new Expired();
                    }
                    throw ApiFailures.translate(action, new ApiException((int) code, null, object.toString()));
                }
                events.accept(new Event(type, object));
                anyEvent = true;
            }
            heartbeat.heard(); // the server ended the watch: as much a sign of life as an event
        } catch (IOException e) {
            if (closed.getAsBoolean()) {
                return WatchEnd.CLOSED;
            }
            throw failure(action, e);
        } finally {
            silence.disarm();
        }
        if (closed.getAsBoolean()) {
            return WatchEnd.CLOSED;
        }
        boolean healthy = anyEvent || Duration.ofNanos(System.nanoTime() - opened).compareTo(HEALTHY_WATCH) >= 0;
        return healthy ? WatchEnd.HEALTHY : WatchEnd.AT_ONCE;
    }

    /**
     * Sends a request; returns the response of a success (to be closed by the caller).
     *
     * @throws Expired    when the server answers 410 Gone
     * @throws ApiFailure for any other failure
     */
    private Response send(String action, boolean watch, String from, Integer timeoutSeconds) {
        Call call;
        try {
            call = prepared(requests.build(watch, from, timeoutSeconds), timeoutSeconds);
        } catch (ApiException e) {
            throw ApiFailures.translate(action, e);
        }
        silenced = false;
        inFlight.set(call);
        if (closed.getAsBoolean()) {
            call.cancel();
        }
        lastRequestNanos = System.nanoTime();
        Response response;
        try {
            response = call.execute();
        } catch (IOException e) {
            throw failure(action, e);
        }
        heartbeat.heard();
        if (response.isSuccessful()) {
            return response;
        }
        try (response) {
            if (response.code() == GONE) {
                throw new Expired();
            }
            String body = errorBody(response);
            throw ApiFailures.translate(action, new ApiException(response.code(), response.headers().toMultimap(), body));
        }
    }

    /**
     * {@code built} as it is, or the same request with the {@code timeoutSeconds} of a watch whose
     * builder left it out (the watch's end is what proves an idle connection alive), and after a
     * silence, on this watch's own connections.
     */
    private Call prepared(Call built, Integer timeoutSeconds) {
        Request request = built.request();
        boolean withoutTimeout = timeoutSeconds != null && request.url().queryParameter("timeoutSeconds") == null;
        OkHttpClient own = ownConnections;
        if (own == null && !withoutTimeout) {
            return built;
        }
        if (withoutTimeout) {
            request = request.newBuilder().url(request.url().newBuilder()
                    .setQueryParameter("timeoutSeconds", String.valueOf(timeoutSeconds)).build()).build();
        }
        Call call = (own != null ? own : client.getHttpClient()).newCall(request);
        call.timeout().timeout(built.timeout().timeoutNanos(), TimeUnit.NANOSECONDS);
        return call;
    }

    /** Cuts the request in flight: the server has said nothing for longer than the bound. */
    private void cutForSilence() {
        silenced = true;
        cancel();
    }

    /** A failed read of a request: cut for its silence, the list-watch closed, or the translated failure. */
    private RuntimeException failure(String action, IOException e) {
        if (closed.getAsBoolean()) {
            return new ApiFailure(ApiFailure.Kind.UNAVAILABLE, action + ": closed");
        }
        return silenced ? new Silent() : ApiFailures.translate(action, e);
    }

    private static String errorBody(Response response) {
        try {
            ResponseBody body = response.peekBody(MAX_ERROR_BODY);
            return body.string();
        } catch (IOException e) {
            return "";
        }
    }

    private static JsonObject asObject(JsonElement element) {
        if (!element.isJsonObject()) {
            throw new JsonParseException("not a JSON object");
        }
        return element.getAsJsonObject();
    }

    private static JsonObject parseObject(String action, Reader reader) {
        try {
            return asObject(JsonParser.parseReader(reader));
        } catch (JsonIOException e) {
            throw ApiFailures.translate(action, e.getCause() instanceof IOException io ? io : e);
        } catch (JsonParseException e) {
            throw ApiFailures.translate(action, e);
        }
    }
}
