package dwd.adapters.k8s.prober;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dwd.adapters.k8s.AnswerOutOfBounds;
import dwd.adapters.k8s.JsonCalls;
import dwd.application.port.out.NodeLeaseWatch;
import dwd.domain.lease.NodeLease;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import okhttp3.Call;
import okhttp3.OkHttpClient;

/**
 * A watch of one shoot's leases in {@code kube-node-lease}, from the list a probe run just read, on a connection
 * of its own (HTTP/1.1: a watch holds its connection) and a virtual thread. It keeps the leases as the verdict
 * reads them (name and {@code renewTime}) and tells its listener after every change.
 *
 * <ul>
 * <li>Bounded as the probe's lease list: at most {@link BoundedList#MAX_ITEMS} leases, strings of at most
 *     {@link BoundedList#MAX_STRING_LENGTH} characters, nesting at most {@link BoundedList#MAX_NESTING} deep, an
 *     event of at most {@link JsonCalls#MAX_OBJECT_BYTES}; a list it reads again (after 410 Gone or a failure)
 *     has the list's own bounds. An answer beyond a bound is a failure.</li>
 * <li>The server ends each watch after {@link #WATCH_SECONDS}, and it is resumed from the last resourceVersion
 *     seen; bookmarks keep that version current. A watch silent for {@link #SILENCE_BOUND} (no event, no
 *     bookmark: a connection that died without a word) is given up and resumed the same way.</li>
 * <li>A failure is retried after a back-off of 1 s doubling to {@link #LONGEST_BACKOFF}, from a fresh list;
 *     410 Gone lists afresh at once.</li>
 * </ul>
 * Failures are logged at debug level: the probe runs, which go on beside the watch, report the shoot's state.
 */
final class ShootLeaseWatch implements NodeLeaseWatch {

    private static final Logger LOG = LogManager.getLogger();

    /** How long the server keeps one watch request open. */
    static final int WATCH_SECONDS = 300;
    /** A watch that hears nothing for this long is given up: a minute of bookmarks and a margin. */
    static final Duration SILENCE_BOUND = Duration.ofSeconds(75);
    static final Duration LONGEST_BACKOFF = Duration.ofSeconds(30);

    private static final JsonFactory EVENTS = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxDocumentLength(-1) // a watch's stream has no end; each event is bounded below
                    .maxStringLength(BoundedList.MAX_STRING_LENGTH)
                    .maxNestingDepth(BoundedList.MAX_NESTING)
                    .build())
            .build();

    private final String shoot;
    private final ApiClient client;
    private final OkHttpClient transport;
    private final Duration listTimeout;
    private final Runnable changed;
    private final Runnable ended;
    private final CountDownLatch closed = new CountDownLatch(1);
    /** Written by the watch's thread only. */
    private final Map<String, NodeLease> leases = new HashMap<>();
    private volatile List<NodeLease> view;
    private volatile Call current;
    /** Where the next watch starts; none: list first. The watch's thread's own. */
    private String resourceVersion;

    /**
     * @param client        builds the requests (server, credentials)
     * @param transport     sends them: the shoot's client with no call timeout and a read timeout of
     *                      {@link #SILENCE_BOUND}, on connections of its own
     * @param listTimeout   bound of a list (all of its pages)
     * @param initial       the leases a probe run listed at {@code listedVersion}
     * @param listedVersion where the watch starts; empty: it lists first
     * @param changed       told after each change, on the watch's thread
     * @param ended         told once the watch has stopped for good
     */
    ShootLeaseWatch(String shoot, ApiClient client, OkHttpClient transport, Duration listTimeout,
            List<NodeLease> initial, Optional<String> listedVersion, Runnable changed, Runnable ended) {
        this.shoot = shoot;
        this.client = client;
        this.transport = transport;
        this.listTimeout = listTimeout;
        this.changed = changed;
        this.ended = ended;
        initial.forEach(lease -> leases.put(lease.name(), lease));
        this.view = List.copyOf(leases.values());
        this.resourceVersion = listedVersion.orElse(null);
    }

    /** Starts watching on a virtual thread of its own. */
    ShootLeaseWatch start() {
        Thread.ofVirtual().name("dwd-lease-watch").start(this::loop);
        return this;
    }

    @Override
    public List<NodeLease> leases() {
        return view;
    }

    @Override
    public void close() {
        closed.countDown();
        Call call = current;
        if (call != null) {
            call.cancel();
        }
    }

    private boolean isClosed() {
        return closed.getCount() == 0;
    }

    private void loop() {
        int failures = 0;
        try {
            while (!isClosed()) {
                Exception failure;
                try {
                    if (resourceVersion == null) {
                        list();
                    }
                    long started = System.nanoTime();
                    if (watch() || System.nanoTime() - started > TimeUnit.SECONDS.toNanos(1)) {
                        failures = 0;
                        continue;
                    }
                    failure = new IOException("the watch ended at once, without an event");
                } catch (ApiException | IOException | RuntimeException failed) {
                    failure = failed;
                }
                if (isClosed()) {
                    break;
                }
                boolean gone = failure instanceof Gone || failure instanceof ApiException api && api.getCode() == 410;
                resourceVersion = null;
                // 410 Gone lists afresh at once, unless the last try failed too: nothing a shoot answers makes a loop.
                long millis = gone && failures == 0 ? 0 : Math.min(LONGEST_BACKOFF.toMillis(), 1000L << Math.min(failures, 10));
                failures++;
                Exception reported = failure;
                LOG.debug(() -> shoot + ": watching the node leases failed ("
                        + describe(reported) + "); again in " + millis + " ms, from a new list");
                closed.await(millis + ThreadLocalRandom.current().nextLong(millis / 5 + 1), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            ended.run();
        }
    }

    private static String describe(Exception failure) {
        return failure instanceof ApiException api && api.getCode() != 0 ? "HTTP " + api.getCode()
                : String.valueOf(failure.getMessage());
    }

    /** Lists the leases afresh (within the probe's bounds), replacing what the watch kept. */
    private void list() throws ApiException, IOException {
        CoordinationV1Api coordination = new CoordinationV1Api(client);
        var list = new BoundedList<>("leases in " + KubernetesShootApi.NODE_LEASE_NAMESPACE, KubernetesShootApi::readLease);
        long deadline = System.nanoTime() + listTimeout.toNanos();
        Optional<String> token = Optional.empty();
        do {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new IOException("not all pages of the lease list arrived within " + listTimeout);
            }
            String continueToken = token.orElse(null);
            list.beforeNextPage();
            Call call = send(coordination.listNamespacedLease(KubernetesShootApi.NODE_LEASE_NAMESPACE)
                    .limit(BoundedList.PAGE_SIZE)._continue(continueToken).buildCall(null));
            token = JsonCalls.execute(call, Duration.ofNanos(remaining), list::readPage);
        } while (token.isPresent());
        leases.clear();
        list.items().forEach(lease -> leases.put(lease.name(), lease));
        resourceVersion = list.resourceVersion().orElseThrow(() -> new IOException("the lease list has no resourceVersion"));
        publish();
    }

    /** One watch request, until the server ends it (true: it delivered events) or it fails. */
    private boolean watch() throws ApiException, IOException {
        Call call = send(new CoordinationV1Api(client).listNamespacedLease(KubernetesShootApi.NODE_LEASE_NAMESPACE)
                .watch(true).allowWatchBookmarks(true).resourceVersion(resourceVersion).timeoutSeconds(WATCH_SECONDS)
                .buildCall(null));
        return JsonCalls.execute(call, Duration.ofSeconds(WATCH_SECONDS).plus(SILENCE_BOUND), this::readEvents);
    }

    private Call send(Call built) throws IOException {
        Call call = transport.newCall(built.request());
        current = call;
        if (isClosed()) {
            call.cancel();
            throw new IOException("closed");
        }
        return call;
    }

    private boolean readEvents(InputStream body) throws IOException {
        var bounded = new EventBound(body);
        boolean any = false;
        try (JsonParser parser = EVENTS.createParser(bounded)) {
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                bounded.startEvent();
                event(parser);
                any = true;
            }
        }
        return any;
    }

    /** What an event's object says: a Lease's name, version and renewal, or a Status's code. */
    private record Seen(String name, String version, Optional<Instant> renewTime, int code) { }

    private void event(JsonParser parser) throws IOException {
        var fields = new BoundedList.Fields(parser, new BoundedList<>("a watch event", item -> null));
        String type = "";
        Seen seen = new Seen("", "", Optional.empty(), 0);
        while (fields.next()) {
            switch (fields.name()) {
                case "type" -> type = fields.text().orElse("");
                case "object" -> seen = fields.object().isPresent() ? seen(parser) : seen;
                default -> fields.skip();
            }
        }
        switch (type) {
            case "ADDED", "MODIFIED" -> {
                NodeLease lease = new NodeLease(seen.name(), seen.renewTime());
                if (!leases.containsKey(lease.name()) && leases.size() >= BoundedList.MAX_ITEMS) {
                    throw new AnswerOutOfBounds("more than " + BoundedList.MAX_ITEMS + " leases in "
                            + KubernetesShootApi.NODE_LEASE_NAMESPACE + ", the most a probe reads");
                }
                NodeLease before = leases.put(lease.name(), lease);
                version(seen);
                if (!lease.equals(before)) {
                    publish();
                }
            }
            case "DELETED" -> {
                version(seen);
                if (leases.remove(seen.name()) != null) {
                    publish();
                }
            }
            case "BOOKMARK" -> version(seen);
            case "ERROR" -> {
                if (seen.code() == 410) {
                    throw new Gone();
                }
                throw new IOException("the watch answered an error, code " + seen.code());
            }
            default -> throw new IOException("a watch event of type '" + type + "'");
        }
    }

    private void version(Seen seen) {
        if (!seen.version().isEmpty()) {
            resourceVersion = seen.version();
        }
    }

    private void publish() {
        view = List.copyOf(leases.values());
        changed.run();
    }

    /** Reads an event's object, the parser at its {@code START_OBJECT}. */
    private static Seen seen(JsonParser parser) throws IOException {
        var object = new BoundedList.Fields(parser, new BoundedList<>("a watch event", item -> null));
        String name = "";
        String version = "";
        Optional<Instant> renewTime = Optional.empty();
        int code = 0;
        while (object.next()) {
            switch (object.name()) {
                case "metadata" -> {
                    Optional<BoundedList.Fields> metadata = object.object();
                    while (metadata.isPresent() && metadata.get().next()) {
                        switch (metadata.get().name()) {
                            case "name" -> name = metadata.get().text().orElse("");
                            case "resourceVersion" -> version = metadata.get().text().orElse("");
                            default -> metadata.get().skip();
                        }
                    }
                }
                case "spec" -> {
                    Optional<BoundedList.Fields> spec = object.object();
                    while (spec.isPresent() && spec.get().next()) {
                        if (spec.get().name().equals("renewTime")) {
                            renewTime = spec.get().text().flatMap(KubernetesShootApi::instant);
                        } else {
                            spec.get().skip();
                        }
                    }
                }
                case "code" -> code = parser.currentToken() == JsonToken.VALUE_NUMBER_INT ? parser.getIntValue() : 0;
                default -> object.skip();
            }
        }
        if (version.length() > BoundedList.MAX_CONTINUE_TOKEN_LENGTH) {
            throw new AnswerOutOfBounds("a lease's resourceVersion is longer than " + BoundedList.MAX_CONTINUE_TOKEN_LENGTH
                    + " characters");
        }
        return new Seen(name, version, renewTime, code);
    }

    /** 410 Gone: the version to resume from is too old; list afresh. */
    private static final class Gone extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Gone() {
            super("410 Gone", null, false, false);
        }
    }

    /** Refuses an event longer than {@link JsonCalls#MAX_OBJECT_BYTES}, counted from its start, as it streams in. */
    private static final class EventBound extends FilterInputStream {
        private long sinceEventStart;

        EventBound(InputStream in) {
            super(in);
        }

        void startEvent() {
            sinceEventStart = 0;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count(b < 0 ? 0 : 1);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            count(Math.max(n, 0));
            return n;
        }

        private void count(int n) {
            sinceEventStart += n;
            if (sinceEventStart > JsonCalls.MAX_OBJECT_BYTES + 64 * 1024) {
                throw new AnswerOutOfBounds("a watch event of the node leases is longer than "
                        + (JsonCalls.MAX_OBJECT_BYTES >> 20) + " MiB");
            }
        }
    }
}
