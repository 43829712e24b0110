package dwd.adapters.k8s.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.testing.LocalControlPlane;
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
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** dwd's list-watch loop against the real API server: events, the cache, back-off and what it logs. */
@WithLocalControlPlane
class ListWatchIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

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

    private ListWatch<String> configMaps(ApiClient client, String namespace, ListWatch.Handler<String> handler,
            OutageLog outages) {
        var core = new CoreV1Api(client);
        var watch = new ListWatch<>("ConfigMaps",
                (isWatch, resourceVersion, timeoutSeconds) -> core.listNamespacedConfigMap(namespace)
                        .resourceVersion(resourceVersion).watch(isWatch).allowWatchBookmarks(isWatch ? true : null)
                        .timeoutSeconds(timeoutSeconds).buildCall(null),
                ListWatchIT::nameAndValue, handler, outages);
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
        var watch = configMaps(client, namespace, recorded, OutageLog.of(client));

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
        assertThat(watch.lastListOrWatch()).isPresent();

        watch.close();
        core.createNamespacedConfigMap(namespace, configMap("closed", "4")).execute();
        assertThat(recorded.events).as("nothing after close").hasSize(4);
        assertThat(log.atLeast(Level.WARN)).isEmpty();
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
        }, ListWatchIT::nameAndValue, ListWatch.Handler.none(), OutageLog.of(client));
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
        }, ListWatchIT::nameAndValue, ListWatch.Handler.none(), OutageLog.of(client));
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

    private static int unused() throws IOException {
        try (var socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
