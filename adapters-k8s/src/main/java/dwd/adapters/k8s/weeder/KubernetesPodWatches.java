package dwd.adapters.k8s.weeder;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.adapters.k8s.watch.ListWatch;
import dwd.adapters.k8s.watch.WatchOptions;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.application.port.out.PodWatch;
import dwd.application.port.out.PodWatches;
import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.PodState;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import okhttp3.Call;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Pod watches on dwd's list-watch loop ({@link ListWatch}), one per weeder and selector: the selected
 * pods are listed, then watched from the list's resourceVersion (with bookmarks); a watch the server
 * ends is resumed, one answered with 410 Gone listed again, and failures back off. Pods are read as
 * plain JSON ({@link PodStates}), never bound to client-java's models. Closing a watch cancels its
 * HTTP call, so its thread ends at once.
 *
 * <p>Short-lived watches, not a shared cache of the namespace's pods: a weeder needs them for minutes,
 * per namespace and selector, and must leave nothing behind when it ends.
 */
public final class KubernetesPodWatches implements PodWatches, AutoCloseable {

    private static final Logger LOG = LogManager.getLogger();

    /** A list that takes longer is given up and tried again (the watch client has no read timeout). */
    private static final Duration LIST_TIMEOUT = Duration.ofSeconds(30);

    /** The wait after a failed list or watch, doubling to {@link #MAX_BACKOFF}: a weeder lives for minutes only. */
    private static final Duration INITIAL_BACKOFF = Duration.ofMillis(250);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final ApiClient watchClient;
    private final CoreV1Api core;
    private final WatchReports reports;
    private final Set<ListWatch<PodState>> open = ConcurrentHashMap.newKeySet();

    /**
     * @param watchClient a client with read timeout 0 (a watch may be quiet for minutes); its other
     *     timeouts bound connecting and writing
     * @param reports     where the watches report an unreachable seed and that they run (the process's)
     */
    public KubernetesPodWatches(ApiClient watchClient, WatchReports reports) {
        if (watchClient.getReadTimeout() != 0) {
            throw new IllegalArgumentException("pod watches need a client with read timeout 0, not "
                    + watchClient.getReadTimeout() + " ms: a quiet watch would time out");
        }
        this.watchClient = watchClient;
        this.core = new CoreV1Api(watchClient);
        this.reports = Objects.requireNonNull(reports, "reports");
        prepare();
    }

    @Override
    public PodWatch watch(String namespace, LabelSelector selector, Consumer<PodState> listener) {
        String labels = selector.toQueryString();
        var watch = new ListWatch<>("Pods in " + namespace + " selected by " + labels,
                (isWatch, resourceVersion, timeoutSeconds) -> request(namespace, labels, isWatch, resourceVersion,
                        timeoutSeconds),
                PodStates::of, new Forwarder(listener), reports,
                WatchOptions.on(watchClient).backingOff(INITIAL_BACKOFF, MAX_BACKOFF));
        open.add(watch);
        watch.start();
        return () -> {
            open.remove(watch);
            watch.stop();
        };
    }

    /** Hands every pod seen to the weeder; a deleted pod needs no weeding. */
    private record Forwarder(Consumer<PodState> listener) implements ListWatch.Handler<PodState> {
        @Override
        public void changed(PodState pod) {
            listener.accept(pod);
        }

        @Override
        public void deleted(PodState pod) {
        }
    }

    /**
     * The list or watch of the selected pods. A watch asks the server to end it after
     * {@code timeoutSeconds} (within a minute): its end is how an idle watch proves its connection alive.
     */
    private Call request(String namespace, String labels, boolean watch, String resourceVersion, Integer timeoutSeconds)
            throws ApiException {
        var request = core.listNamespacedPod(namespace).labelSelector(labels).resourceVersion(resourceVersion);
        if (watch) {
            return request.allowWatchBookmarks(true).watch(true).timeoutSeconds(timeoutSeconds).buildCall(null);
        }
        Call list = request.buildCall(null);
        list.timeout().timeout(LIST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        return list;
    }

    /**
     * Builds a list and a watch request without sending them, and reads a crash-looping pod: the
     * first watch of a process, maybe hours later when a service recovers, then finds client-java's
     * request builders and the pod reading code loaded, instead of loading them on its way to a
     * deletion. (The list-watch loop itself is warm: the EndpointSlice watch runs on it.) Done once
     * when constructed; {@link #rehearse()} does it again, for the JIT.
     */
    private void prepare() {
        try {
            request("default", "dwd-never-sent", false, "0", null);
            request("default", "dwd-never-sent", true, "1", 60);
            JsonObject pod = JsonParser.parseString("""
                    {"metadata": {"namespace": "default", "name": "p", "uid": "u",
                      "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "s", "controller": true}]},
                     "status": {"containerStatuses": [{"name": "c", "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}}
                    """).getAsJsonObject();
            PodStates.of(pod);
        } catch (ApiException | RuntimeException e) {
            LOG.debug(() -> "preparing the pod watch requests failed: " + e);
        }
    }

    /** Builds the requests and reads the pod again, sending nothing: repeated, it gets this code compiled. */
    public void rehearse() {
        prepare();
    }

    /** Stops every watch not closed yet. */
    @Override
    public void close() {
        for (ListWatch<PodState> watch : List.copyOf(open)) {
            watch.stop();
        }
    }
}
