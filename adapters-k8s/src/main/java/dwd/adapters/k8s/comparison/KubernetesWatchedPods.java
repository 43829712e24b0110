package dwd.adapters.k8s.comparison;

import dwd.adapters.k8s.watch.ListWatch;
import dwd.adapters.k8s.watch.WatchOptions;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.adapters.k8s.weeder.PodStates;
import dwd.application.port.in.WatchedPods;
import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.PodState;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The comparison's view of the pods the weeders may delete: one {@link ListWatch} per configured pod
 * selector over all namespaces (in Gardener's config, two), each pod's versions and deletion handed to
 * {@link WatchedPods}. Only in comparison mode. Pods are read as plain JSON, as the weeder's own watches
 * read them.
 */
public final class KubernetesWatchedPods implements AutoCloseable {

    private final List<ListWatch<PodState>> watches = new ArrayList<>();

    /**
     * @param watchClient a client with read timeout 0 (a watch may be quiet for minutes)
     * @param selectors   the weeders' pod selectors
     * @param reports     where the watches report an unreachable seed and that they run (the process's)
     */
    public KubernetesWatchedPods(ApiClient watchClient, Set<LabelSelector> selectors, WatchedPods pods,
            WatchReports reports) {
        Objects.requireNonNull(pods, "pods");
        var core = new CoreV1Api(watchClient);
        for (LabelSelector selector : selectors) {
            String labels = selector.toQueryString();
            watches.add(new ListWatch<>("Pods selected by " + labels + " (comparison)",
                    (isWatch, resourceVersion, timeoutSeconds) -> core.listPodForAllNamespaces().labelSelector(labels)
                            .resourceVersion(resourceVersion).watch(isWatch).allowWatchBookmarks(isWatch ? true : null)
                            .timeoutSeconds(timeoutSeconds).buildCall(null),
                    PodStates::of, new ListWatch.Handler<>() {
                        @Override
                        public void changed(PodState pod) {
                            pods.podChanged(selector, pod);
                        }

                        @Override
                        public void deleted(PodState pod) {
                            pods.podDeleted(selector, pod);
                        }
                    }, reports, WatchOptions.on(watchClient)));
        }
    }

    public void start() {
        watches.forEach(ListWatch::start);
    }

    public boolean hasSynced() {
        return watches.stream().allMatch(ListWatch::hasSynced);
    }

    @Override
    public void close() {
        watches.forEach(ListWatch::close);
    }
}
