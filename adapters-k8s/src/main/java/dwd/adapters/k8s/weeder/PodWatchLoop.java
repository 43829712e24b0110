package dwd.adapters.k8s.weeder;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.JsonCalls;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.watch.OutageLog;
import dwd.application.port.out.ApiFailure;
import dwd.domain.config.GoDuration;
import dwd.domain.weeding.PodState;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.util.Watch;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import okhttp3.Call;

/**
 * One pod watch: list, watch from the list's resourceVersion, and again, until closed. Pods are read
 * as plain JSON ({@link PodStates}), never bound to client-java's models.
 */
final class PodWatchLoop implements Runnable {

    private static final System.Logger LOG = System.getLogger(PodWatchLoop.class.getName());

    /** A stream that ends sooner than this after it opened counts as a failure, so a flapping server is backed off. */
    private static final Duration HEALTHY_STREAM = Duration.ofSeconds(1);
    /** A list that takes longer is given up and tried again (the watch client has no read timeout). */
    private static final Duration LIST_TIMEOUT = Duration.ofSeconds(30);
    private static final int GONE = 410;

    /** {@code Watch.Response<JsonObject>}: each event's pod as plain JSON. */
    private static final Type WATCH_EVENT = new ParameterizedType() {
        @Override
        public Type[] getActualTypeArguments() {
            return new Type[] {JsonObject.class};
        }

        @Override
        public Type getRawType() {
            return Watch.Response.class;
        }

        @Override
        public Type getOwnerType() {
            return Watch.class;
        }
    };

    /** How one list-and-watch round ended. */
    private enum Ending { CLOSED, STREAM_ENDED, FAILED }

    private final ApiClient client;
    private final CoreV1Api core;
    private final String namespace;
    private final String selector;
    private final Consumer<PodState> listener;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Runnable onRelist;
    private final Consumer<PodWatchLoop> onEnd;
    private final OutageLog outages;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicReference<Call> inFlight = new AtomicReference<>();
    private boolean failing;
    /** The wait before the next try after a failure (the loop thread's own). */
    private Duration backoff;

    PodWatchLoop(ApiClient client, String namespace, String selector, Consumer<PodState> listener,
            Duration initialBackoff, Duration maxBackoff, Runnable onRelist, Consumer<PodWatchLoop> onEnd,
            OutageLog outages) {
        this.client = client;
        this.core = new CoreV1Api(client);
        this.namespace = namespace;
        this.selector = selector;
        this.listener = listener;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.onRelist = onRelist;
        this.onEnd = onEnd;
        this.outages = outages;
    }

    /**
     * Builds a list and a watch request without sending them, and reads a watch event with a
     * crash-looping pod: the first watch of a process, maybe hours later when a service recovers,
     * then finds client-java's request builders and JSON adapters (those of a watch event's
     * {@code Status} too, which the EndpointSlice informer's first event needs as well) and this
     * class's reading code loaded, instead of loading them on its way to a deletion.
     */
    static void prepare(ApiClient client) {
        try {
            var core = new CoreV1Api(client);
            core.listNamespacedPod("default").labelSelector("dwd-never-sent").buildCall(null);
            core.listNamespacedPod("default").labelSelector("dwd-never-sent").resourceVersion("1")
                    .allowWatchBookmarks(true).watch(true).buildCall(null);
            Watch.Response<JsonObject> event = JSON.deserialize("""
                    {"type": "MODIFIED", "object": {"metadata": {"namespace": "default", "name": "p", "uid": "u",
                      "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "s", "controller": true}]},
                     "status": {"containerStatuses": [{"name": "c", "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}}}
                    """, WATCH_EVENT);
            PodStates.of(event.object);
        } catch (ApiException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "preparing the pod watch requests failed: " + e);
        }
    }

    /** Stops the loop: cancels the call in flight, so a blocked read ends at once. */
    void close() {
        closed.countDown();
        Call call = inFlight.get();
        if (call != null) {
            call.cancel();
        }
    }

    private boolean isClosed() {
        return closed.getCount() == 0;
    }

    @Override
    public void run() {
        try {
            backoff = initialBackoff;
            boolean first = true;
            while (!isClosed()) {
                if (!first) {
                    onRelist.run();
                }
                first = false;
                Ending ending = listAndWatch();
                if (ending == Ending.CLOSED || isClosed()) {
                    return;
                }
                if (ending == Ending.STREAM_ENDED) {
                    backoff = initialBackoff;
                    continue;
                }
                if (closed.await(backoff.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(maxBackoff) > 0 ? maxBackoff : backoff.multipliedBy(2);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error unexpected) {
            LOG.log(System.Logger.Level.ERROR, namespace + ": pod watch " + selector + " ended unexpectedly", unexpected);
        } finally {
            onEnd.accept(this);
        }
    }

    private Ending listAndWatch() {
        String resourceVersion;
        try {
            Call list = core.listNamespacedPod(namespace).labelSelector(selector).buildCall(null);
            if (!track(list)) {
                return Ending.CLOSED;
            }
            JsonObject pods = JsonCalls.execute(list, LIST_TIMEOUT);
            resourceVersion = JsonFields.string(pods, "metadata", "resourceVersion").orElse(null);
            for (JsonObject pod : JsonFields.objects(pods, "items")) {
                deliver(pod);
            }
        } catch (ApiException | RuntimeException e) {
            return failed("listing", e);
        }
        return watchFrom(resourceVersion);
    }

    private Ending watchFrom(String resourceVersion) {
        long openedAt = System.nanoTime();
        try {
            Call call = core.listNamespacedPod(namespace)
                    .labelSelector(selector)
                    .resourceVersion(resourceVersion)
                    .allowWatchBookmarks(true)
                    .watch(true)
                    .buildCall(null);
            if (!track(call)) {
                return Ending.CLOSED;
            }
            try (Watch<JsonObject> watch = Watch.createWatch(client, call, WATCH_EVENT)) {
                recovered();
                for (Watch.Response<JsonObject> event : watch) {
                    if (isClosed()) {
                        return Ending.CLOSED;
                    }
                    switch (event.type) {
                        case "ADDED", "MODIFIED" -> deliver(event.object);
                        case "ERROR" -> {
                            Integer code = event.status == null ? null : event.status.getCode();
                            if (code != null && code == GONE) {
                                LOG.log(System.Logger.Level.DEBUG, () -> namespace + ": pod watch " + selector
                                        + ": resourceVersion too old (410), listing again");
                                return Ending.STREAM_ENDED;
                            }
                            return failed(new ApiFailure(ApiFailure.Kind.INVALID, action("watching") + ": error event "
                                    + (event.status == null ? "" : event.status.getMessage())));
                        }
                        default -> { } // DELETED and BOOKMARK: nothing to weed
                    }
                }
            }
        } catch (ApiException | IOException | RuntimeException e) {
            // A cancelled call surfaces here as an IO failure from hasNext().
            return isClosed() ? Ending.CLOSED : failed("watching", e);
        }
        if (isClosed()) {
            return Ending.CLOSED;
        }
        boolean healthy = Duration.ofNanos(System.nanoTime() - openedAt).compareTo(HEALTHY_STREAM) >= 0;
        LOG.log(System.Logger.Level.DEBUG, () -> namespace + ": pod watch " + selector + " closed by the server, listing again");
        return healthy ? Ending.STREAM_ENDED
                : failed(new ApiFailure(ApiFailure.Kind.INVALID, action("watching") + ": the stream closed at once"));
    }

    /** Makes {@code call} the one {@link #close()} cancels; false when the loop is closed already. */
    private boolean track(Call call) {
        inFlight.set(call);
        if (isClosed()) {
            call.cancel();
            return false;
        }
        return true;
    }

    private void deliver(JsonObject pod) {
        if (pod == null || isClosed()) {
            return;
        }
        try {
            listener.accept(PodStates.of(pod));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, namespace + ": handling a pod event failed", e);
        }
    }

    private String action(String doing) {
        return namespace + ": " + doing + " pods " + selector;
    }

    private Ending failed(String doing, Throwable error) {
        // client-java's watch iterator wraps the transport's IOException in a RuntimeException.
        Throwable cause = error instanceof RuntimeException && error.getCause() instanceof IOException io ? io : error;
        return failed(ApiFailures.translate(action(doing), cause));
    }

    /**
     * An unreachable or overloaded seed goes to the process's {@link OutageLog} (one warning per
     * outage, whatever the number of watches); any other failure is a warning at the first of a
     * streak and a debug line after, so a long outage does not flood the log.
     */
    private Ending failed(ApiFailure failure) {
        if (isClosed()) {
            return Ending.CLOSED;
        }
        if (OutageLog.isOutage(failure)) {
            outages.unreachable(failure, backoff);
        } else if (!failing) {
            failing = true;
            LOG.log(System.Logger.Level.WARNING, failure.getMessage() + " (retrying in " + GoDuration.format(backoff)
                    + ", with back-off)");
        } else {
            LOG.log(System.Logger.Level.DEBUG, () -> failure.getMessage() + " (again)", failure);
        }
        return Ending.FAILED;
    }

    private void recovered() {
        if (failing) {
            failing = false;
            LOG.log(System.Logger.Level.INFO, namespace + ": watching pods " + selector + " again");
        }
    }
}
