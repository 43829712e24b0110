package dwd.adapters.k8s.watch;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.testing.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Response;
import okio.BufferedSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Measurement, not a test (nothing is asserted): when kube-apiserver sends bookmarks to idle watches,
 * and when it ends watches that asked for a {@code timeoutSeconds}. Plain watches of one Secret name
 * in every namespace, listed and watched as dwd does (the list from the watch cache, the watch from
 * the list's resourceVersion), on a kube-apiserver of its own started for the run, in three phases:
 * right after the server started, nothing changing at all; after the watched Secret was created,
 * nothing changing; while an unrelated ConfigMap changes every second. Each watch that ends is
 * opened again at once from the last resourceVersion it saw. Prints, per watch, the instants
 * (seconds since the phase began) of its bookmarks and of its ends. Runs only with
 * {@code -Ddwd.bench=true}; {@code -Ddwd.bench.bookmarks.minutes} sets each phase's length (default
 * 5). See docs/watches.md.
 */
@EnabledIfSystemProperty(named = "dwd.bench", matches = "true")
class BookmarkTimingBenchIT {

    private static final int MINUTES = Integer.getInteger("dwd.bench.bookmarks.minutes", 5);
    private static final String SECRET = "shoot-access-dependency-watchdog-probe";

    /** One watch's settings: whether it asks for bookmarks, and the timeoutSeconds it asks for (null: none). */
    record Setting(String name, boolean bookmarks, Integer timeoutSeconds) { }

    private static final List<Setting> SETTINGS = List.of(
            new Setting("bookmarks, no timeoutSeconds", true, null),
            new Setting("bookmarks, timeoutSeconds=60", true, 60),
            new Setting("bookmarks, timeoutSeconds=300", true, 300),
            new Setting("no bookmarks, timeoutSeconds=60", false, 60));

    @Test
    void bookmarksAndEndsOfIdleWatches() throws Exception {
        try (var controlPlane = LocalControlPlane.start(List.of())) {
            ApiClient admin = controlPlane.apiClient();
            var core = new CoreV1Api(admin);
            System.out.printf(Locale.ROOT, "kube-apiserver %s, each phase %d min%n",
                    new io.kubernetes.client.openapi.apis.VersionApi(admin).getCode().execute().getGitVersion(), MINUTES);

            phase("a server just started, on which nothing changes", controlPlane, null);
            String namespace = namespace(core, "bookmarks");
            core.createNamespacedSecret(namespace, new V1Secret().metadata(new V1ObjectMeta().name(SECRET))
                    .stringData(Map.of("k", "v"))).execute();
            phase("after the watched Secret was created, nothing changes", controlPlane, null);
            phase("a ConfigMap changes every second", controlPlane, core);
        }
    }

    private static String namespace(CoreV1Api core, String name) throws Exception {
        core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
        return name;
    }

    private static void phase(String title, LocalControlPlane controlPlane, CoreV1Api churn)
            throws Exception {
        long start = System.nanoTime();
        long end = start + TimeUnit.MINUTES.toNanos(MINUTES);
        List<Thread> threads = new ArrayList<>();
        List<List<String>> records = new ArrayList<>();
        for (Setting setting : SETTINGS) {
            List<String> record = Collections.synchronizedList(new ArrayList<>());
            records.add(record);
            ApiClient client = controlPlane.newApiClient(Duration.ZERO);
            client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(Duration.ZERO)
                    .callTimeout(Duration.ZERO).build());
            threads.add(Thread.ofVirtual().start(() -> watch(client, setting, start, end, record)));
        }
        var changer = Executors.newSingleThreadScheduledExecutor();
        if (churn != null) {
            churn.createNamespacedConfigMap("default", new V1ConfigMap().metadata(new V1ObjectMeta().name("churn"))
                    .data(Map.of("n", "0"))).execute();
            var changes = new AtomicInteger();
            changer.scheduleAtFixedRate(() -> {
                try {
                    churn.replaceNamespacedConfigMap("churn", "default", new V1ConfigMap()
                            .metadata(new V1ObjectMeta().name("churn"))
                            .data(Map.of("n", String.valueOf(changes.incrementAndGet())))).execute();
                } catch (Exception e) {
                    System.out.println("changing the ConfigMap failed: " + e);
                }
            }, 1, 1, TimeUnit.SECONDS);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        changer.shutdownNow();
        System.out.printf(Locale.ROOT, "%n%s (%d min):%n", title, MINUTES);
        for (int i = 0; i < SETTINGS.size(); i++) {
            System.out.printf(Locale.ROOT, "  %-34s %s%n", SETTINGS.get(i).name(), String.join(", ", records.get(i)));
        }
    }

    /**
     * Lists as dwd does (every namespace, one name, from the watch cache: {@code resourceVersion=0}), then
     * watches until {@code end}, opening the watch again whenever it ends; records bookmarks and ends.
     */
    private static void watch(ApiClient client, Setting setting, long start, long end, List<String> record) {
        var core = new CoreV1Api(client);
        String byName = "metadata.name=" + SECRET;
        try {
            String version = core.listSecretForAllNamespaces().fieldSelector(byName).resourceVersion("0").execute()
                    .getMetadata().getResourceVersion();
            while (System.nanoTime() < end) {
                Call call = core.listSecretForAllNamespaces().fieldSelector(byName).watch(true).resourceVersion(version)
                        .allowWatchBookmarks(setting.bookmarks() ? true : null)
                        .timeoutSeconds(setting.timeoutSeconds()).buildCall(null);
                long left = end - System.nanoTime();
                call.timeout().timeout(left, TimeUnit.NANOSECONDS);
                try (Response response = call.execute()) {
                    BufferedSource source = response.body().source();
                    String line;
                    while ((line = source.readUtf8Line()) != null) {
                        JsonObject event = JsonParser.parseString(line).getAsJsonObject();
                        String type = JsonFields.string(event, "type").orElse("");
                        var object = JsonFields.object(event, "object").orElseGet(JsonObject::new);
                        version = JsonFields.string(object, "metadata", "resourceVersion").orElse(version);
                        record.add(at(start) + (type.equals("BOOKMARK") ? " bookmark" : " " + type.toLowerCase(Locale.ROOT)));
                    }
                    record.add(at(start) + " END");
                } catch (IOException e) {
                    if (System.nanoTime() < end) {
                        record.add(at(start) + " failed: " + e.getMessage());
                    }
                    return;
                }
            }
        } catch (Exception e) {
            record.add(at(start) + " failed: " + e);
        }
    }

    private static String at(long start) {
        return String.format(Locale.ROOT, "%.1f", (System.nanoTime() - start) / 1e9);
    }
}
