package dwd.adapters.k8s.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.ApiClients;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.SilencingTcpProxy;
import dwd.adapters.k8s.testing.TestWatchReports;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * dwd's list-watch loop against the real API server: events, the cache, back-off and what it logs;
 * and how it proves its cache alive: a connection that goes silent without closing is noticed within
 * the silence bound and the objects are listed afresh on a new connection; a loop that fails
 * unexpectedly goes on from a fresh list; a loop that cannot go on leaves its cache untrusted and
 * says so. Meanwhile the cache does not count as synced, so readers ask the server.
 */
@WithLocalControlPlane
class ListWatchIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** Short, so that the liveness tests need not wait for a minute's watch: the server ends each within this. */
    private static final Duration LONGEST_WATCH = Duration.ofSeconds(2);
    /** A request that hears nothing for longer is taken for dead: the longest watch, and time for its end to arrive. */
    private static final Duration BOUND = Duration.ofSeconds(5);
    /** The bound, the silence check's own lateness and a list on a busy machine. */
    private static final Duration NOTICED_WITHIN = BOUND.plusSeconds(10);

    private final LogLines log = LogLines.of("dwd.adapters.k8s.watch");
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : cleanup.reversed()) {
            closeable.close();
        }
        log.close();
    }

    /** Changes and deletions, as {@code name=value of key} strings, in the order they came. */
    private static final class Recorded implements ListWatch.Handler<String> {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void changed(String object) {
            events.add("changed " + object);
        }

        @Override
        public void deleted(String object) {
            events.add("deleted " + object);
        }
    }

    private static String nameAndValue(JsonObject configMap) {
        return JsonFields.string(configMap, "metadata", "name").orElse("?") + "="
                + JsonFields.string(configMap, "data", "key").orElse("");
    }

    private ListWatch<String> configMaps(ApiClient client, String namespace, ListWatch.Handler<String> handler) {
        var core = new CoreV1Api(client);
        var watch = new ListWatch<>("ConfigMaps",
                (isWatch, resourceVersion, timeoutSeconds) -> core.listNamespacedConfigMap(namespace)
                        .resourceVersion(resourceVersion).watch(isWatch).allowWatchBookmarks(isWatch ? true : null)
                        .timeoutSeconds(timeoutSeconds).buildCall(null),
                ListWatchIT::nameAndValue, handler, TestWatchReports.detecting(client), WatchOptions.on(client));
        cleanup.add(watch);
        return watch;
    }

    private static V1ConfigMap configMap(String name, String value) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("key", value));
    }

    @Test
    void existingObjectsAreReplayedThenChangesAndDeletionsArriveAndTheCacheFollows(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("list-watch");
        var core = new CoreV1Api(controlPlane.apiClient());
        core.createNamespacedConfigMap(namespace, configMap("before", "1")).execute();
        ApiClient client = OwnedClients.forWatches(() -> controlPlane.newApiClient(Duration.ofSeconds(30)));
        var recorded = new Recorded();
        var watch = configMaps(client, namespace, recorded);

        assertThat(watch.hasSynced()).isFalse();
        watch.start();
        assertThat(watch.awaitFirstList(DEADLINE)).as("the wait for the first list ends with it").isTrue();
        assertThat(watch.hasSynced()).isTrue();
        assertThat(recorded.events).containsExactly("changed before=1");

        core.createNamespacedConfigMap(namespace, configMap("after", "2")).execute();
        core.replaceNamespacedConfigMap("after", namespace, configMap("after", "3")).execute();
        core.deleteNamespacedConfigMap("before", namespace).execute();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(recorded.events).containsExactly(
                "changed before=1", "changed after=2", "changed after=3", "deleted before=1"));
        assertThat(watch.get(namespace, "after")).contains("after=3");
        assertThat(watch.get(namespace, "before")).isEmpty();
        assertThat(watch.inNamespace(namespace)).containsExactly("after=3");
        assertThat(watch.sinceLastListOrWatch()).hasValueSatisfying(age -> assertThat(age).isLessThan(DEADLINE));

        // A second watch stays open: once it has the next change, a watch that still ran would have it too.
        var witness = new Recorded();
        var stillOpen = configMaps(client, namespace, witness);
        stillOpen.start();
        assertThat(stillOpen.awaitFirstList(DEADLINE)).isTrue();
        watch.close();
        core.createNamespacedConfigMap(namespace, configMap("closed", "4")).execute();
        await("the watch still open has the change").atMost(DEADLINE)
                .until(() -> witness.events.contains("changed closed=4"));
        assertThat(recorded.events).as("nothing after close").hasSize(4);
        assertThat(log.atLeast(Level.WARN)).isEmpty();
    }

    @Test
    void anIdleWatchIsEndedByTheServerAndGoesOnWithoutAListAndWithoutAWord(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("idle-watch");
        ApiClient client = OwnedClients.forWatches(() -> controlPlane.newApiClient(Duration.ofSeconds(30)));
        var lists = new AtomicInteger();
        var watches = new AtomicInteger();
        var core = new CoreV1Api(client);
        var watch = new ListWatch<>("ConfigMaps", (isWatch, resourceVersion, timeoutSeconds) -> {
            (isWatch ? watches : lists).incrementAndGet();
            return core.listNamespacedConfigMap(namespace).resourceVersion(resourceVersion).watch(isWatch)
                    .allowWatchBookmarks(isWatch ? true : null).timeoutSeconds(timeoutSeconds).buildCall(null);
        }, ListWatchIT::nameAndValue, ListWatch.Handler.none(), TestWatchReports.detecting(client),
                WatchOptions.on(client).watchingFor(LONGEST_WATCH, BOUND));
        cleanup.add(watch);
        watch.start();
        assertThat(watch.awaitFirstList(DEADLINE)).isTrue();

        // Nothing changes in the namespace: no event, and no bookmark is sure to come. Each watch ends within
        // LONGEST_WATCH; ten of them span several silence bounds.
        var unsynced = new AtomicInteger();
        await("ten watches, one after the other").atMost(DEADLINE.multipliedBy(2)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    if (!watch.hasSynced()) {
                        unsynced.incrementAndGet();
                    }
                    return watches.get() >= 10;
                });
        assertThat(lists).as("listed once: no watch was taken for dead").hasValue(1);
        assertThat(unsynced).as("trusted all along").hasValue(0);
        assertThat(watch.age()).isLessThan(BOUND);
        assertThat(watch.copyAge()).hasValueSatisfying(age -> assertThat(age).isLessThan(BOUND));
        assertThat(log.atLeast(Level.INFO)).as("nothing to say about a healthy watch").isEmpty();
    }

    @Test
    void anObjectThatDoesNotDecodeIsLoggedOnceLeftOutAndSaidToReadAgainWhenItDoes(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("undecodable");
        var core = new CoreV1Api(controlPlane.apiClient());
        ApiClient client = OwnedClients.forWatches(() -> controlPlane.newApiClient(Duration.ofSeconds(30)));
        var watchCore = new CoreV1Api(client);
        var watch = new ListWatch<>("ConfigMaps", (isWatch, resourceVersion, timeoutSeconds) -> watchCore
                .listNamespacedConfigMap(namespace).resourceVersion(resourceVersion).watch(isWatch)
                .allowWatchBookmarks(isWatch ? true : null).timeoutSeconds(timeoutSeconds).buildCall(null),
                configMap -> {
                    String read = nameAndValue(configMap);
                    if (read.endsWith("=garbage")) {
                        throw new IllegalArgumentException("not a value this cache keeps");
                    }
                    return read;
                }, ListWatch.Handler.none(), TestWatchReports.detecting(client), WatchOptions.on(client));
        cleanup.add(watch);
        watch.start();
        assertThat(watch.awaitFirstList(DEADLINE)).isTrue();

        core.createNamespacedConfigMap(namespace, configMap("odd", "garbage")).execute();
        for (int change = 0; change < 3; change++) {
            core.replaceNamespacedConfigMap("odd", namespace, configMap("odd", "garbage").metadata(
                    new V1ObjectMeta().name("odd").putLabelsItem("change", String.valueOf(change)))).execute();
        }
        core.replaceNamespacedConfigMap("odd", namespace, configMap("odd", "fine")).execute();
        await("the object read at last").atMost(DEADLINE).until(() -> watch.get(namespace, "odd").isPresent());
        assertThat(watch.get(namespace, "odd")).contains("odd=fine");
        assertThat(log.atLeast(Level.ERROR)).as("four changes that do not decode, one line").singleElement()
                .satisfies(line -> {
                    assertThat(line.message()).isEqualTo("ConfigMaps: reading " + namespace + "/odd failed; it is left"
                            + " out (while it fails the same way, at debug level)");
                    assertThat(line.hasThrowable()).isTrue();
                });
        assertThat(log.lines()).filteredOn(line -> line.level() == Level.INFO).extracting(LogLines.Line::message)
                .singleElement().asString().startsWith("ConfigMaps: " + namespace + "/odd reads again, after ")
                .endsWith(", seen 4 times");
    }

    @Test
    void anUnreachableServerIsRetriedWithBackOffAndReportedOnce() throws Exception {
        int closedPort = unused();
        ApiClient client = new ApiClient();
        client.setBasePath("http://127.0.0.1:" + closedPort);
        client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(Duration.ZERO).build());
        List<Long> attempts = Collections.synchronizedList(new ArrayList<>());
        var core = new CoreV1Api(client);
        var watch = new ListWatch<>("ConfigMaps", (isWatch, resourceVersion, timeoutSeconds) -> {
            attempts.add(System.nanoTime());
            return core.listNamespacedConfigMap("default").resourceVersion(resourceVersion).watch(isWatch)
                    .timeoutSeconds(timeoutSeconds).buildCall(null);
        }, ListWatchIT::nameAndValue, ListWatch.Handler.none(), TestWatchReports.detecting(client), WatchOptions.on(client));
        cleanup.add(watch);
        watch.start();

        await("four attempts").atMost(DEADLINE).until(() -> attempts.size() >= 4);
        watch.close();
        List<Long> times = List.copyOf(attempts);
        for (int i = 1; i < 4; i++) {
            assertThat(Duration.ofNanos(times.get(i) - times.get(i - 1)))
                    .as("wait before attempt %d (back-off 1s, doubling)", i + 1)
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(1L << (i - 1)));
        }
        assertThat(log.atLeast(Level.INFO)).singleElement().satisfies(line -> {
            assertThat(line.level()).isEqualTo(Level.WARN);
            assertThat(line.message()).startsWith("API server http://127.0.0.1:" + closedPort + " is unreachable:"
                    + " listing ConfigMaps: cannot connect").contains("retrying in 1");
            assertThat(line.hasThrowable()).as("no stack trace above debug level").isFalse();
        });
        assertThat(watch.hasSynced()).isFalse();
    }

    @Test
    void aRequestTheServerRefusesIsWarnedOnceNamingTheServer(LocalControlPlane controlPlane) throws Exception {
        ApiClient client = OwnedClients.forWatches(() -> controlPlane.newApiClient(Duration.ofSeconds(30)));
        List<Long> attempts = Collections.synchronizedList(new ArrayList<>());
        var custom = new CustomObjectsApi(client);
        var watch = new ListWatch<>("Gizmos", (isWatch, resourceVersion, timeoutSeconds) -> {
            attempts.add(System.nanoTime());
            return custom.listClusterCustomObject("gizmos.example.com", "v1", "gizmos").resourceVersion(resourceVersion)
                    .watch(isWatch).timeoutSeconds(timeoutSeconds).buildCall(null);
        }, ListWatchIT::nameAndValue, ListWatch.Handler.none(), TestWatchReports.detecting(client), WatchOptions.on(client));
        cleanup.add(watch);
        watch.start();

        long waiting = System.nanoTime();
        assertThat(watch.awaitFirstList(Duration.ofMinutes(5))).as("the first list failed").isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - waiting)).as("a failed first list ends the wait at once")
                .isLessThan(DEADLINE);
        await("three attempts").atMost(DEADLINE).until(() -> attempts.size() >= 3);
        watch.close();
        assertThat(log.atLeast(Level.INFO)).singleElement().satisfies(line -> {
            assertThat(line.level()).isEqualTo(Level.WARN);
            assertThat(line.message()).startsWith("listing Gizmos: 404").contains("(API server https://")
                    .contains("retrying in 1").contains("repeats are logged at debug level");
        });
    }

    @Test
    void aConnectionThatGoesSilentIsNoticedWithinTheBoundAndTheCacheCatchesUpOnANewOne(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("silent-watch");
        var proxy = silencingProxy(controlPlane);
        ApiClient client = watchClientThrough(proxy, controlPlane);
        var reports = TestWatchReports.detecting(client);
        var seen = Collections.synchronizedList(new ArrayList<String>());
        var watch = liveConfigMaps(client, namespace, seen::add, reports, shortSilence(client, BOUND),
                new AtomicInteger(), false);
        watch.start();
        assertThat(watch.awaitFirstList(Duration.ofSeconds(30))).isTrue();
        var core = new CoreV1Api(controlPlane.apiClient());
        core.createNamespacedConfigMap(namespace, configMap("before", "1")).execute();
        await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("before=1"));

        // Every connection open now goes silent; so do new ones until the test lets them pass. The loop may open
        // its new connection before the test lets them pass, so "new" counts from here.
        int connections = proxy.connectionsOpened();
        proxy.silenceOpenConnections();
        proxy.silenceNewConnections(true);
        core.createNamespacedConfigMap(namespace, configMap("during", "2")).execute();
        await("the silence noticed").atMost(NOTICED_WITHIN).until(() -> !watch.hasSynced());
        assertThat(watch.age()).as("the cache's age: nothing heard since the silence began").isGreaterThan(BOUND);
        assertThat(reports.running().oldest("configmaps")).hasValueSatisfying(age -> assertThat(age).isGreaterThan(BOUND));
        assertThat(seen).as("a silent connection brings nothing").doesNotContain("during=2");
        assertThat(log.atLeast(Level.WARN)).anySatisfy(line -> assertThat(line.message())
                .startsWith("ConfigMaps: nothing heard from API server https://127.0.0.1:" + proxy.port() + " for 5s,"
                        + " although it ends every watch within 2s").contains("listing afresh on a new one"));

        proxy.silenceNewConnections(false);
        await("listed afresh on a new connection").atMost(NOTICED_WITHIN)
                .until(() -> watch.hasSynced() && seen.contains("during=2"));
        assertThat(proxy.connectionsOpened()).isGreaterThan(connections);
        assertThat(watch.age()).isLessThan(BOUND);
        core.createNamespacedConfigMap(namespace, configMap("after", "3")).execute();
        await("and watched again").atMost(Duration.ofSeconds(30)).until(() -> seen.contains("after=3"));
        assertThat(log.atLeast(Level.WARN)).as("one warning while it stayed silent")
                .filteredOn(line -> line.message().contains("nothing heard")).hasSize(1);
        await("and one line when it works again").atMost(NOTICED_WITHIN).until(() -> log.lines().stream()
                .anyMatch(line -> line.level() == Level.INFO && line.message().startsWith("ConfigMaps: listing and"
                        + " watching work again (API server https://127.0.0.1:" + proxy.port() + "), after ")));
    }

    @Test
    void afterASilenceTheWatchListsOnANewConnectionEvenWhileItsSharedOneIsBusy(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("silent-shared");
        var proxy = silencingProxy(controlPlane);
        ApiClient client = watchClientThrough(proxy, controlPlane);
        var reports = TestWatchReports.detecting(client);
        var seen = Collections.synchronizedList(new ArrayList<String>());
        var silenced = liveConfigMaps(client, namespace, seen::add, reports, shortSilence(client, BOUND),
                new AtomicInteger(), false);
        // Another watch on the same client, so on the same HTTP/2 connection; it notices silences much later.
        var neighbour = liveConfigMaps(client, namespace, object -> { }, reports,
                WatchOptions.on(client).watchingFor(Duration.ofMinutes(1), Duration.ofMinutes(5)), new AtomicInteger(),
                false);
        silenced.start();
        assertThat(silenced.awaitFirstList(DEADLINE)).isTrue();
        neighbour.start();
        assertThat(neighbour.awaitFirstList(DEADLINE)).isTrue();
        assertThat(proxy.connectionsOpened()).as("both watches on one connection").isEqualTo(1);

        proxy.silenceOpenConnections();
        new CoreV1Api(controlPlane.apiClient()).createNamespacedConfigMap(namespace, configMap("during", "1")).execute();

        await("listed afresh on a new connection, while the silent one still carries the other watch")
                .atMost(NOTICED_WITHIN).until(() -> seen.contains("during=1") && silenced.hasSynced());
        assertThat(proxy.connectionsOpened()).isGreaterThan(1);
        assertThat(neighbour.hasSynced()).as("the other watch has not noticed its silence yet").isTrue();
    }

    @Test
    void aServerCannotParkAWatchForLongerThanItsLongestBackOff(LocalControlPlane controlPlane) throws Exception {
        String namespace = controlPlane.createNamespace("retry-after");
        var throttled = new AtomicInteger();
        ApiClient client = ApiClients.intercepting(chain -> {
            if (throttled.get() < 2 && "GET".equals(chain.request().method())) {
                // Long.MAX_VALUE seconds, then 100 years.
                String retryAfter = throttled.incrementAndGet() == 1 ? String.valueOf(Long.MAX_VALUE) : "3153600000";
                return new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1).code(429)
                        .message("Too Many Requests").header("Retry-After", retryAfter)
                        .body(ResponseBody.create("{}", MediaType.get("application/json"))).build();
            }
            return chain.proceed(chain.request());
        }).apply(OwnedClients.forWatches(() -> controlPlane.newApiClient(Duration.ofSeconds(30))));
        var reports = TestWatchReports.detecting(client);
        var watch = liveConfigMaps(client, namespace, object -> { }, reports,
                WatchOptions.on(client).backingOff(Duration.ofMillis(100), Duration.ofMillis(500)), new AtomicInteger(),
                false);
        watch.start();

        await("listed after two waits of at most 500 ms").atMost(DEADLINE).until(watch::hasSynced);
        assertThat(throttled).hasValue(2);
        assertThat(reports.running().dead()).isEmpty();
        assertThat(log.lines()).anySatisfy(line -> assertThat(line.message()).contains("retrying in 500ms"));
    }

    @Test
    void aLoopThatFailsUnexpectedlyIsNotTrustedUntilItListedAfreshAndGoesOn(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("failing-watch");
        ApiClient client = OwnedClients.forWatches(() -> controlPlane.newApiClient(Duration.ofSeconds(30)));
        var seen = Collections.synchronizedList(new ArrayList<String>());
        var watchRequests = new AtomicInteger();
        var reports = TestWatchReports.detecting(client);
        var watch = liveConfigMaps(client, namespace, seen::add, reports,
                WatchOptions.on(client).backingOff(Duration.ofSeconds(2), Duration.ofSeconds(30)), watchRequests, true);
        watch.start();
        // The loop watches only after a complete list; the first watch fails at once, so the cache may be
        // untrusted again before this thread could see it trusted: the watch request is the proof of the list.
        await("listed, then the injected failure").atMost(Duration.ofSeconds(30)).until(() -> watchRequests.get() >= 1);
        await("not trusted meanwhile").atMost(Duration.ofSeconds(1)).until(() -> !watch.hasSynced());

        await("listed afresh, trusted again and watching").atMost(Duration.ofSeconds(30))
                .until(() -> watchRequests.get() >= 2 && watch.hasSynced());
        new CoreV1Api(controlPlane.apiClient()).createNamespacedConfigMap(namespace, configMap("later", "1")).execute();
        await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("later=1"));
        assertThat(reports.running().dead()).isEmpty();
        assertThat(log.atLeast(Level.ERROR)).singleElement().satisfies(line -> {
            assertThat(line.message()).startsWith("ConfigMaps: the watch failed unexpectedly; listing afresh in 2");
            assertThat(line.hasThrowable()).as("a bug's stack trace is logged").isTrue();
        });
    }

    @Test
    void aLoopThatCannotGoOnLeavesItsCacheUntrustedAndSaysItIsDead(LocalControlPlane controlPlane) throws Exception {
        String namespace = controlPlane.createNamespace("dead-watch");
        ApiClient client = OwnedClients.forWatches(() -> controlPlane.newApiClient(Duration.ofSeconds(30)));
        var reports = TestWatchReports.detecting(client);
        var watch = liveConfigMaps(client, namespace, nameAndValue -> {
            if (nameAndValue.startsWith("fatal=")) {
                throw new StackOverflowError("injected");
            }
        }, reports, WatchOptions.on(client), new AtomicInteger(), false);
        watch.start();
        assertThat(watch.awaitFirstList(Duration.ofSeconds(30))).isTrue();
        assertThat(reports.running().dead()).isEmpty();

        new CoreV1Api(controlPlane.apiClient()).createNamespacedConfigMap(namespace, configMap("fatal", "1")).execute();
        await("the loop ended").atMost(Duration.ofSeconds(30)).until(() -> !reports.running().dead().isEmpty());
        assertThat(watch.hasSynced()).isFalse();
        assertThat(reports.running().dead()).containsExactly("ConfigMaps");
        assertThat(log.atLeast(Level.ERROR)).singleElement().satisfies(line -> assertThat(line.message())
                .isEqualTo("ConfigMaps: the watch stopped for good; its cache is no longer trusted and readers ask the server"));
        watch.close();
        assertThat(reports.running().dead()).as("a closed watch is no longer running").isEmpty();
    }

    /**
     * A watch of the namespace's ConfigMaps telling {@code seen} each change as {@code name=value},
     * counting its watch requests; with {@code failFirstWatch}, building the first one throws.
     */
    private ListWatch<String> liveConfigMaps(ApiClient client, String namespace, java.util.function.Consumer<String> seen,
            WatchReports reports, WatchOptions options, AtomicInteger watchRequests, boolean failFirstWatch) {
        var core = new CoreV1Api(client);
        var watch = new ListWatch<>("ConfigMaps", (isWatch, resourceVersion, timeoutSeconds) -> {
            if (isWatch && watchRequests.incrementAndGet() == 1 && failFirstWatch) {
                throw new IllegalStateException("injected into the loop");
            }
            return core.listNamespacedConfigMap(namespace).resourceVersion(resourceVersion).watch(isWatch)
                    .allowWatchBookmarks(isWatch ? true : null).timeoutSeconds(timeoutSeconds).buildCall(null);
        }, ListWatchIT::nameAndValue, new ListWatch.Handler<String>() {
            @Override
            public void changed(String object) {
                seen.accept(object);
            }

            @Override
            public void deleted(String object) {
            }
        }, reports, options);
        cleanup.add(watch);
        return watch;
    }

    /** A proxy in front of the API server that can silence its connections; closed after the test. */
    private SilencingTcpProxy silencingProxy(LocalControlPlane controlPlane) throws IOException {
        var proxy = SilencingTcpProxy.inFrontOf(controlPlane.kubeconfig());
        cleanup.add(proxy);
        return proxy;
    }

    private static ApiClient watchClientThrough(SilencingTcpProxy proxy, LocalControlPlane controlPlane) {
        return OwnedClients.forWatches(
                () -> ApiClients.fromKubeconfig(proxy.route(controlPlane.kubeconfig()), Duration.ofSeconds(30)));
    }

    /** Default back-off, and watches and a silence bound short enough for a test. */
    private static WatchOptions shortSilence(ApiClient client, Duration bound) {
        return WatchOptions.on(client).watchingFor(LONGEST_WATCH, bound);
    }

    private static int unused() throws IOException {
        try (var socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
