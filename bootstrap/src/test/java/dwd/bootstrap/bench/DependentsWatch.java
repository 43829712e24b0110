package dwd.bootstrap.bench;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * The seed's Deployments as the benchmark sees them (one list-watch over every namespace), and the stand-in for
 * the controllers a real seed runs: when a Deployment's {@code spec.replicas} changes, its status soon says that
 * many replicas are ready, so a scale-up's readiness wait ends as it would with pods that start at once, for either
 * implementation. Deployments keep the status they were seeded with until their replicas change.
 */
final class DependentsWatch implements AutoCloseable {

    /** What the benchmark reads of one Deployment. */
    record Dependent(int replicas, int readyReplicas, Map<String, String> annotations) {
    }

    private static final MediaType MERGE_PATCH = MediaType.get("application/merge-patch+json");

    private final OkHttpClient watchHttp;
    private final OkHttpClient http;
    private final String server;
    private final Map<String, Dependent> byKey = new ConcurrentHashMap<>();
    private volatile Call current;
    private volatile boolean closed;
    private final Thread watcher;

    /**
     * Lists the Deployments, then watches them on a thread of its own.
     *
     * @param watchHttp an authenticated client for the seed without read timeout
     * @param http      an authenticated client for the seed with bounded timeouts (the status writes)
     */
    DependentsWatch(OkHttpClient watchHttp, OkHttpClient http, String server) throws IOException {
        this.watchHttp = watchHttp;
        this.http = http;
        this.server = server;
        String resourceVersion = list();
        this.watcher = Thread.ofPlatform().daemon().name("dependents-watch").start(() -> watchFrom(resourceVersion));
    }

    /** The Deployment {@code name} in {@code namespace}, as last seen. */
    Optional<Dependent> get(String namespace, String name) {
        return Optional.ofNullable(byKey.get(namespace + "/" + name));
    }

    private String list() throws IOException {
        try (Response response = http.newCall(new Request.Builder().url(server + "/apis/apps/v1/deployments").build())
                .execute()) {
            if (!response.isSuccessful()) {
                throw new IOException("listing Deployments: " + response.code());
            }
            JsonObject list = JsonParser.parseString(response.body().string()).getAsJsonObject();
            for (JsonElement item : list.getAsJsonArray("items")) {
                remember(item.getAsJsonObject());
            }
            return list.getAsJsonObject("metadata").get("resourceVersion").getAsString();
        }
    }

    private void watchFrom(String listed) {
        String resourceVersion = listed;
        while (!closed) {
            Call call = watchHttp.newCall(new Request.Builder().url(server
                    + "/apis/apps/v1/deployments?watch=true&allowWatchBookmarks=true&resourceVersion=" + resourceVersion)
                    .build());
            current = call;
            try (Response response = call.execute(); BufferedReader lines = new BufferedReader(response.body().charStream())) {
                if (response.code() == 410) {
                    resourceVersion = list();
                    continue;
                }
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    JsonObject event = JsonParser.parseString(line).getAsJsonObject();
                    JsonObject object = event.getAsJsonObject("object");
                    String type = event.get("type").getAsString();
                    if (type.equals("ERROR")) {
                        resourceVersion = list(); // expired: start again from a fresh list
                        break;
                    }
                    resourceVersion = object.getAsJsonObject("metadata").get("resourceVersion").getAsString();
                    if (type.equals("ADDED") || type.equals("MODIFIED")) {
                        onChange(object);
                    }
                }
            } catch (IOException | RuntimeException broken) {
                if (!closed) {
                    LockSupport.parkNanos(500_000_000L); // the seed closed the watch: open it again
                }
            }
        }
    }

    private void onChange(JsonObject deployment) {
        Dependent before = byKey.get(key(deployment));
        Dependent now = remember(deployment);
        if (before != null && before.replicas() != now.replicas()) {
            if (now.readyReplicas() != now.replicas()) {
                markReady(deployment, now.replicas());
            }
        }
    }

    private Dependent remember(JsonObject deployment) {
        JsonObject spec = deployment.getAsJsonObject("spec");
        JsonObject status = deployment.getAsJsonObject("status");
        var annotations = new HashMap<String, String>();
        JsonObject metadata = deployment.getAsJsonObject("metadata");
        if (metadata.has("annotations")) {
            metadata.getAsJsonObject("annotations").entrySet()
                    .forEach(entry -> annotations.put(entry.getKey(), entry.getValue().getAsString()));
        }
        var dependent = new Dependent(spec != null && spec.has("replicas") ? spec.get("replicas").getAsInt() : 1,
                status != null && status.has("readyReplicas") ? status.get("readyReplicas").getAsInt() : 0,
                Map.copyOf(annotations));
        byKey.put(key(deployment), dependent);
        return dependent;
    }

    private void markReady(JsonObject deployment, int replicas) {
        JsonObject metadata = deployment.getAsJsonObject("metadata");
        String path = "/apis/apps/v1/namespaces/" + metadata.get("namespace").getAsString() + "/deployments/"
                + metadata.get("name").getAsString() + "/status";
        String patch = "{\"status\":{\"replicas\":%1$d,\"updatedReplicas\":%1$d,\"readyReplicas\":%1$d,\"availableReplicas\":%1$d}}"
                .formatted(replicas);
        Thread.ofVirtual().name("dependent-ready").start(() -> {
            try (Response ignored = http.newCall(new Request.Builder().url(server + path)
                    .patch(RequestBody.create(patch, MERGE_PATCH)).build()).execute()) {
                // the next event shows the status; a failed write leaves the readiness wait to time out, as it would
            } catch (IOException e) {
                System.err.println("dependents watch: status of " + path + " not written: " + e);
            }
        });
    }

    private static String key(JsonObject deployment) {
        JsonObject metadata = deployment.getAsJsonObject("metadata");
        return metadata.get("namespace").getAsString() + "/" + metadata.get("name").getAsString();
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        Call call = current;
        if (call != null) {
            call.cancel();
        }
        watcher.join(5_000);
    }
}
