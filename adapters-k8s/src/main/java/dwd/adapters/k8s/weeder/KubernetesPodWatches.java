package dwd.adapters.k8s.weeder;

import dwd.adapters.k8s.watch.OutageLog;
import dwd.application.port.out.PodWatch;
import dwd.application.port.out.PodWatches;
import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.PodState;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Pod watches through client-java: per watch, one virtual thread lists the selected pods, then
 * watches from the list's resourceVersion (with bookmarks). When the stream ends, whether the server
 * closed it, answered 410 Gone or the connection broke, the pods are listed again; repeated failures
 * back off exponentially. Closing a watch cancels its HTTP call, so its thread ends at once.
 *
 * <p>These are short-lived raw watches rather than informers: a weeder needs them for minutes, per
 * namespace and selector, and must leave nothing behind when it ends.
 */
public final class KubernetesPodWatches implements PodWatches, AutoCloseable {

    private final ApiClient client;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final OutageLog outages;
    private final Set<PodWatchLoop> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong relists = new AtomicLong();

    /**
     * @param watchClient a client with read timeout 0 (a watch may be quiet for minutes); its other
     *     timeouts bound connecting and writing
     */
    public KubernetesPodWatches(ApiClient watchClient) {
        this(watchClient, OutageLog.of(watchClient));
    }

    /** @param outages where an unreachable seed is reported (shared by the process's watches) */
    public KubernetesPodWatches(ApiClient watchClient, OutageLog outages) {
        this(watchClient, Duration.ofMillis(250), Duration.ofSeconds(30), outages);
    }

    /**
     * @param initialBackoff the wait after a failed list or watch; it doubles with each further failure
     * @param maxBackoff     the longest wait
     */
    public KubernetesPodWatches(ApiClient watchClient, Duration initialBackoff, Duration maxBackoff) {
        this(watchClient, initialBackoff, maxBackoff, OutageLog.of(watchClient));
    }

    private KubernetesPodWatches(ApiClient watchClient, Duration initialBackoff, Duration maxBackoff, OutageLog outages) {
        if (watchClient.getReadTimeout() != 0) {
            throw new IllegalArgumentException("pod watches need a client with read timeout 0, not "
                    + watchClient.getReadTimeout() + " ms: a quiet watch would time out");
        }
        this.client = watchClient;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.outages = outages;
    }

    @Override
    public PodWatch watch(String namespace, LabelSelector selector, Consumer<PodState> listener) {
        var loop = new PodWatchLoop(client, namespace, selector.toQueryString(), listener, initialBackoff, maxBackoff,
                relists::incrementAndGet, open::remove, outages);
        open.add(loop);
        Thread.ofVirtual().name("dwd-pod-watch-" + namespace).start(loop);
        return loop::close;
    }

    /** Watches whose thread has not ended yet. */
    public int openWatches() {
        return open.size();
    }

    /** How often a watch listed its pods again after its stream ended (server close, 410, broken connection). */
    public long relists() {
        return relists.get();
    }

    /** Closes every open watch. */
    @Override
    public void close() {
        for (PodWatchLoop loop : List.copyOf(open)) {
            loop.close();
        }
    }
}
