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
import dwd.domain.config.GoDuration;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.io.Reader;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Lists a kind of object, then watches it from the list's resourceVersion, and keeps a cache of
 * what it saw: client-go's reflector and informer, reduced to what dwd needs, on one virtual thread.
 * <ul>
 * <li>The first list is served from the API server's watch cache ({@code resourceVersion=0}); every
 *     object is then reported as changed. A watch that ends normally (the server closes it after
 *     5–10 minutes) is resumed from the last resourceVersion seen, without a list; one the server
 *     answers with 410 Gone is followed by a fresh list, after which vanished objects are reported
 *     deleted and the others changed.</li>
 * <li>Failures are retried with exponential back-off (1s, 2s, 4s … 30s, plus up to 20 % jitter),
 *     or after the server's {@code Retry-After} when that is longer; a watch that ends at once,
 *     without an event, counts as a failure.</li>
 * <li>Failures are logged, never with a stack trace above debug level: an unreachable or
 *     overloaded server through the process-wide {@link OutageLog} (one warning per outage), any
 *     other failure once per distinct message, with a line when listing works again.</li>
 * </ul>
 * Objects are read as plain JSON and turned into {@code T} by the caller's decoder, which may keep
 * as little as it needs; the client-java models are not involved, so a server newer than the
 * client cannot break a watch. The handler runs on the watch's thread, in event order; it must be
 * quick and must not throw (a throw is logged and the object skipped).
 *
 * @param <T> what the cache keeps of each object
 */
public final class ListWatch<T> implements AutoCloseable {

    private static final Logger LOG = LogManager.getLogger();

    static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** A watch that ends sooner than this, without an event, counts as failed: a server or proxy that ends every watch at once is backed off, not hammered. */
    static final Duration HEALTHY_WATCH = Duration.ofSeconds(1);
    /** Watches ask the server to end them after 5 to 10 minutes, as client-go's do, so that load spreads after a restart. */
    private static final int MIN_WATCH_SECONDS = 300;
    private static final long MAX_ERROR_BODY = 64 * 1024;
    private static final int GONE = 410;

    /** Builds the list or watch request; client-java's request builders do ({@code …buildCall(null)}). */
    @FunctionalInterface
    public interface Requests {
        /**
         * @param watch           false for the list, true for the watch
         * @param resourceVersion where to list or watch from
         * @param timeoutSeconds  for a watch, when the server should end it; null for a list
         */
        Call build(boolean watch, String resourceVersion, Integer timeoutSeconds) throws ApiException;
    }

    /** Told about every object, on the watch's thread, in event order. */
    public interface Handler<T> {
        /** Added, modified, or still there after a fresh list. */
        void changed(T object);

        /** Deleted, or gone when a fresh list came (the last state seen). */
        void deleted(T object);

        /** Tells nobody: for a cache that is only read. */
        static <T> Handler<T> none() {
            return new Handler<>() {
                @Override
                public void changed(T object) {
                }

                @Override
                public void deleted(T object) {
                }
            };
        }
    }

    /** How a watch ended. */
    private enum WatchEnd { CLOSED, EXPIRED, HEALTHY, AT_ONCE }

    private final String kinds;
    private final Requests requests;
    private final Function<JsonObject, T> decode;
    private final Handler<T> handler;
    private final OutageLog outages;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Map<String, Map<String, T>> byNamespace = new ConcurrentHashMap<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicReference<Call> inFlight = new AtomicReference<>();
    private volatile boolean synced;
    /** Counted down when the first list was delivered, or failed, or the watch closed. */
    private final CountDownLatch firstListAttempt = new CountDownLatch(1);
    private volatile Instant lastRequest;
    private Thread thread;

    // The watch thread's own.
    private String resourceVersion;
    private String lastProblem;

    /**
     * @param kinds    what is watched, plural, for messages: {@code Clusters}, {@code EndpointSlices}
     * @param requests builds the requests, on a client with read timeout 0 (a watch may be quiet for minutes)
     * @param decode   turns an object's JSON into what the cache keeps
     * @param handler  told about changes and deletions
     * @param outages  where an unreachable server is reported
     */
    public ListWatch(String kinds, Requests requests, Function<JsonObject, T> decode, Handler<T> handler,
            OutageLog outages) {
        this(kinds, requests, decode, handler, outages, INITIAL_BACKOFF, MAX_BACKOFF);
    }

    ListWatch(String kinds, Requests requests, Function<JsonObject, T> decode, Handler<T> handler, OutageLog outages,
            Duration initialBackoff, Duration maxBackoff) {
        this.kinds = Objects.requireNonNull(kinds, "kinds");
        this.requests = Objects.requireNonNull(requests, "requests");
        this.decode = Objects.requireNonNull(decode, "decode");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.outages = Objects.requireNonNull(outages, "outages");
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
    }

    /** Starts listing and watching (once; later calls do nothing). */
    public synchronized void start() {
        if (thread == null && !isClosed()) {
            thread = Thread.ofVirtual().name("dwd-watch-" + kinds).start(this::run);
        }
    }

    /** Whether the first list has been delivered. */
    public boolean hasSynced() {
        return synced;
    }

    /**
     * Waits until the first list request has ended, at most {@code timeout}: for readers that would
     * rather wait for the cache than ask the server themselves while it fills.
     *
     * @return whether the first list has been delivered
     */
    public boolean awaitFirstList(Duration timeout) throws InterruptedException {
        firstListAttempt.await(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
        return synced;
    }

    /** When the last list or watch request started; empty before the first. */
    public Optional<Instant> lastListOrWatch() {
        return Optional.ofNullable(lastRequest);
    }

    /** The cached object {@code namespace/name} ({@code ""} as namespace for cluster-scoped objects). */
    public Optional<T> get(String namespace, String name) {
        Map<String, T> objects = byNamespace.get(namespace);
        return objects == null ? Optional.empty() : Optional.ofNullable(objects.get(name));
    }

    /** The cached objects of {@code namespace}, in no particular order. */
    public List<T> inNamespace(String namespace) {
        Map<String, T> objects = byNamespace.get(namespace);
        return objects == null ? List.of() : List.copyOf(objects.values());
    }

    /** Stops: the request in flight is cancelled and the thread ends; nothing is reported afterwards. */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            closed.countDown();
            firstListAttempt.countDown();
            running = thread;
        }
        Call call = inFlight.get();
        if (call != null) {
            call.cancel();
        }
        if (running != null && running != Thread.currentThread()) {
            running.interrupt(); // a request waiting for the client-side rate limit
            try {
                running.join(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private boolean isClosed() {
        return closed.getCount() == 0;
    }

    private void run() {
        Duration backoff = initialBackoff;
        boolean listed = false;
        String listFrom = "0"; // the first list may come from the watch cache; after 410 Gone, from etcd
        while (!isClosed()) {
            try {
                if (!listed) {
                    list(listFrom);
                    listed = true;
                    backoff = initialBackoff;
                    working();
                }
                switch (watch()) {
                    case CLOSED -> {
                        return;
                    }
                    case EXPIRED -> {
                        listed = false;
                        listFrom = "";
                        LOG.debug("{}: resourceVersion {} is too old (410 Gone), listing again", kinds, resourceVersion);
                    }
                    case HEALTHY -> {
                        backoff = initialBackoff;
                        working();
                    }
                    case AT_ONCE -> throw new ApiFailure(ApiFailure.Kind.INVALID, "watching " + kinds
                            + ": the server ended the watch at once, without an event");
                }
            } catch (Expired expired) {
                listed = false;
                listFrom = "";
            } catch (ApiFailure failure) {
                firstListAttempt.countDown();
                if (isClosed()) {
                    return;
                }
                Duration current = backoff;
                Duration wait = failure.retryAfter().filter(asked -> asked.compareTo(current) > 0)
                        .orElse(jittered(current));
                report(failure, wait);
                try {
                    if (closed.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    return; // only close() interrupts this thread
                }
                backoff = backoff.multipliedBy(2).compareTo(maxBackoff) > 0 ? maxBackoff : backoff.multipliedBy(2);
            } catch (RuntimeException unexpected) {
                firstListAttempt.countDown();
                if (!isClosed()) {
                    LOG.error("{}: the watch stopped unexpectedly; the cache stays as it is", kinds, unexpected);
                }
                return;
            }
        }
    }

    /**
     * Lists from {@code from}. The answer is read item by item, never held whole: a seed's 10,000
     * Clusters or Secrets are tens of MB as JSON and several times that as a parsed tree.
     */
    private void list(String from) {
        String action = "listing " + kinds;
        Set<String> listed = new HashSet<>();
        String listedVersion = "";
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
                            JsonObject object = asObject(JsonParser.parseReader(reader));
                            key(object).ifPresent(key -> {
                                listed.add(key.namespace() + "/" + key.name());
                                store(key, object);
                            });
                        }
                        reader.endArray();
                    }
                    default -> reader.skipValue();
                }
            }
            reader.endObject();
        } catch (IOException e) {
            throw ApiFailures.translate(action, e);
        } catch (JsonIOException e) {
            throw ApiFailures.translate(action, e.getCause() instanceof IOException io ? io : e);
        } catch (JsonParseException | IllegalStateException e) {
            throw ApiFailures.translate(action, new JsonParseException("not a list: " + e.getMessage(), e));
        }
        resourceVersion = listedVersion;
        for (var namespace : byNamespace.entrySet()) {
            for (String name : List.copyOf(namespace.getValue().keySet())) {
                if (!listed.contains(namespace.getKey() + "/" + name)) {
                    forget(new Key(namespace.getKey(), name));
                }
            }
        }
        synced = true;
        firstListAttempt.countDown();
    }

    private WatchEnd watch() {
        String action = "watching " + kinds;
        int timeoutSeconds = MIN_WATCH_SECONDS + ThreadLocalRandom.current().nextInt(MIN_WATCH_SECONDS);
        long opened = System.nanoTime();
        boolean anyEvent = false;
        try (Response response = send(action, true, resourceVersion, timeoutSeconds)) {
            BufferedSource source = response.body().source();
            String line;
            while ((line = source.readUtf8Line()) != null) {
                if (isClosed()) {
                    return WatchEnd.CLOSED;
                }
                if (line.isBlank()) {
                    continue;
                }
                JsonObject event = parseObject(action, Reader.of(line));
                JsonObject object = JsonFields.object(event, "object").orElseGet(JsonObject::new);
                switch (JsonFields.string(event, "type").orElse("")) {
                    case "ADDED", "MODIFIED" -> key(object).ifPresent(key -> store(key, object));
                    case "DELETED" -> key(object).ifPresent(this::forget);
                    case "ERROR" -> {
                        long code = JsonFields.integer(object, "code").orElse(0L);
                        if (code == GONE) {
                            return WatchEnd.EXPIRED;
                        }
                        throw ApiFailures.translate(action, new ApiException((int) code, null, object.toString()));
                    }
                    default -> { } // BOOKMARK: only its resourceVersion counts
                }
                JsonFields.string(object, "metadata", "resourceVersion").ifPresent(version -> resourceVersion = version);
                anyEvent = true;
            }
        } catch (Expired expired) {
            return WatchEnd.EXPIRED;
        } catch (IOException e) {
            if (isClosed()) {
                return WatchEnd.CLOSED;
            }
            throw ApiFailures.translate(action, e);
        }
        if (isClosed()) {
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
            call = requests.build(watch, from, timeoutSeconds);
        } catch (ApiException e) {
            throw ApiFailures.translate(action, e);
        }
        inFlight.set(call);
        if (isClosed()) {
            call.cancel();
        }
        lastRequest = Instant.now();
        Response response;
        try {
            response = call.execute();
        } catch (IOException e) {
            throw isClosed() ? new ApiFailure(ApiFailure.Kind.UNAVAILABLE, action + ": closed")
                    : ApiFailures.translate(action, e);
        }
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

    private record Key(String namespace, String name) {
    }

    private static Optional<Key> key(JsonObject object) {
        return JsonFields.string(object, "metadata", "name")
                .map(name -> new Key(JsonFields.string(object, "metadata", "namespace").orElse(""), name));
    }

    private void store(Key key, JsonObject object) {
        T value;
        try {
            value = decode.apply(object);
        } catch (RuntimeException e) {
            LOG.error("{}: reading {} failed; it is left out", kinds, describe(key), e);
            return;
        }
        byNamespace.computeIfAbsent(key.namespace(), namespace -> new ConcurrentHashMap<>()).put(key.name(), value);
        deliver(key, () -> handler.changed(value));
    }

    private void forget(Key key) {
        Map<String, T> objects = byNamespace.get(key.namespace());
        T last = objects == null ? null : objects.remove(key.name());
        if (last != null) {
            deliver(key, () -> handler.deleted(last));
        }
    }

    private void deliver(Key key, Runnable event) {
        if (isClosed()) {
            return;
        }
        try {
            event.run();
        } catch (RuntimeException e) {
            LOG.error("{}: handling {} failed", kinds, describe(key), e);
        }
    }

    private static String describe(Key key) {
        return key.namespace().isEmpty() ? key.name() : key.namespace() + "/" + key.name();
    }

    private void report(ApiFailure failure, Duration retryIn) {
        if (OutageLog.isOutage(failure)) {
            outages.unreachable(failure, retryIn);
            return;
        }
        String problem = failure.getMessage();
        if (!problem.equals(lastProblem)) {
            lastProblem = problem;
            LOG.warn("{} ({}); retrying in {}, with back-off; repeats are logged at debug level", problem,
                    outages.server(), GoDuration.format(retryIn));
        } else {
            LOG.debug("{} ({}); retrying in {}", problem, outages.server(), GoDuration.format(retryIn), failure);
        }
    }

    private void working() {
        if (lastProblem != null) {
            lastProblem = null;
            LOG.info("{}: listing and watching work again ({})", kinds, outages.server());
        }
    }

    private static Duration jittered(Duration backoff) {
        long extra = (long) (backoff.toMillis() * 0.2 * ThreadLocalRandom.current().nextDouble());
        return backoff.plusMillis(extra).truncatedTo(ChronoUnit.MILLIS);
    }

    /** The server answered 410 Gone: the resourceVersion is too old; list afresh. */
    private static final class Expired extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Expired() {
            super(null, null, false, false);
        }
    }
}
