package dwd.bootstrap.weeder;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import okhttp3.Call;
import okhttp3.Request;
import okhttp3.Response;
import org.awaitility.Awaitility;

/**
 * An outside observer: watches pods and EndpointSlices in one namespace (or in all) and records when
 * each event arrived ({@link System#nanoTime()}). Both watches come from the API server's watch cache,
 * so the time between two arrivals is the time between the two writes, plus jitter of delivery.
 */
public final class WatchedArrivals implements AutoCloseable {

    /** One watch event: when it arrived, its type, the object's kind, namespace, name and UID, and the object. */
    public record Arrival(long nanos, String type, String kind, String namespace, String name, String uid,
                          JsonObject object) {

        /** For a slice: whether its first endpoint is ready. */
        public boolean sliceReady() {
            var endpoints = object.getAsJsonArray("endpoints");
            if (endpoints == null || endpoints.isEmpty()) {
                return false;
            }
            JsonObject conditions = endpoints.get(0).getAsJsonObject().getAsJsonObject("conditions");
            JsonElement ready = conditions == null ? null : conditions.get("ready");
            return ready != null && ready.getAsBoolean();
        }
    }

    private final List<Arrival> arrivals = new ArrayList<>();
    private final List<Call> calls = new ArrayList<>();

    /** @param watchClient a client with read timeout 0; {@code namespace} {@code null} watches every namespace */
    public WatchedArrivals(ApiClient watchClient, String namespace) {
        String in = namespace == null ? "" : "/namespaces/" + namespace;
        watch(watchClient, "Pod", "/api/v1" + in + "/pods?watch=true");
        watch(watchClient, "EndpointSlice", "/apis/discovery.k8s.io/v1" + in + "/endpointslices?watch=true");
    }

    private void watch(ApiClient client, String kind, String path) {
        Call call = client.getHttpClient().newCall(new Request.Builder().url(client.getBasePath() + path).build());
        calls.add(call);
        Thread.ofVirtual().name("arrivals-" + kind).start(() -> {
            try (Response response = call.execute(); BufferedReader lines = new BufferedReader(response.body().charStream())) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    long now = System.nanoTime();
                    JsonObject event = JsonParser.parseString(line).getAsJsonObject();
                    JsonObject object = event.getAsJsonObject("object");
                    JsonObject meta = object.getAsJsonObject("metadata");
                    record(new Arrival(now, event.get("type").getAsString(), kind,
                            meta.has("namespace") ? meta.get("namespace").getAsString() : "", meta.get("name").getAsString(),
                            meta.get("uid").getAsString(), object));
                }
            } catch (IOException | RuntimeException closed) {
                // closed by close(), or the server ended the stream; the bench fails on a missing event
            }
        });
    }

    private synchronized void record(Arrival arrival) {
        arrivals.add(arrival);
    }

    private synchronized Optional<Arrival> first(Predicate<Arrival> which) {
        return arrivals.stream().filter(which).findFirst();
    }

    /** Waits for the first event that matches (up to {@code atMost}). */
    public Arrival await(String what, Duration atMost, Predicate<Arrival> which) {
        return Awaitility.await(what).atMost(atMost).pollInterval(Duration.ofMillis(2))
                .until(() -> first(which), Optional::isPresent).orElseThrow();
    }

    /** Whether the watches are open: both sent an event for {@code probe} objects written by the caller. */
    synchronized boolean seen(Predicate<Arrival> which) {
        return arrivals.stream().anyMatch(which);
    }

    @Override
    public void close() {
        calls.forEach(Call::cancel);
    }
}
