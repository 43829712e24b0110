package dwd.adapters.k8s.weeder;

import dwd.adapters.k8s.watch.ListWatch;
import dwd.adapters.k8s.watch.WatchOptions;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.application.port.in.ServiceEvents;
import dwd.domain.selector.Requirement;
import dwd.domain.weeding.EndpointSliceState;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.DiscoveryV1Api;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Feeds {@link ServiceEvents} from a watch on the EndpointSlices of the configured services in all
 * namespaces ({@link ListWatch}). The server filters by the {@code kubernetes.io/service-name}
 * label, so the cache holds only those slices, and a slice whose label stops matching arrives as a
 * deletion. Slices are read as plain JSON (watch bookmarks included, which carry no
 * {@code addressType} and would break client-java's strict model).
 */
public final class EndpointSliceWatch implements AutoCloseable {

    private static final Logger LOG = LogManager.getLogger();

    /**
     * The longest a healthy watch goes without a new list or watch request: each watch asks the server
     * to end it within a minute ({@link WatchOptions#WATCH_TIMEOUT}), and a failed one is retried within
     * 36 s (30 s back-off plus jitter).
     */
    public static final Duration LONGEST_WATCH = WatchOptions.WATCH_TIMEOUT;

    private final Set<String> serviceNames;
    private final ServiceEvents events;
    private final ListWatch<EndpointSliceState> watch;

    /**
     * @param watchClient  a client with read timeout 0 (a watch may be quiet for its whole minute)
     * @param serviceNames the configured services ({@code servicesAndDependantSelectors}' keys)
     * @param events       where slice events go, typically the weeder supervisor
     * @param reports      where the watch reports an unreachable seed and that it runs (the process's)
     */
    public EndpointSliceWatch(ApiClient watchClient, Collection<String> serviceNames, ServiceEvents events,
            WatchReports reports) {
        this.serviceNames = Set.copyOf(serviceNames);
        this.events = events;
        String labelSelector = labelSelector(serviceNames);
        var discovery = new DiscoveryV1Api(watchClient);
        this.watch = new ListWatch<>("EndpointSlices",
                (isWatch, resourceVersion, timeoutSeconds) -> discovery.listEndpointSliceForAllNamespaces()
                        .labelSelector(labelSelector)
                        .resourceVersion(resourceVersion)
                        .watch(isWatch)
                        .allowWatchBookmarks(isWatch ? true : null)
                        .timeoutSeconds(timeoutSeconds)
                        .buildCall(null),
                EndpointSliceStates::of, new Forwarder(), reports, WatchOptions.on(watchClient));
    }

    /** Starts listing and watching; the slices that exist are replayed as additions. */
    public void start() {
        watch.start();
    }

    /** Whether the initial list has been delivered. */
    public boolean hasSynced() {
        return watch.hasSynced();
    }

    /**
     * Since the watch last started a list or a watch request, on the monotonic clock; empty before the
     * first. A watch blocked on a dead connection (the client's read timeout is 0) shows as no request
     * for longer than {@link #LONGEST_WATCH}.
     */
    public Optional<Duration> sinceLastListOrWatch() {
        return watch.sinceLastListOrWatch();
    }

    /** Stops the watch and its thread. */
    @Override
    public void close() {
        watch.close();
    }

    /**
     * {@code kubernetes.io/service-name in (a,b)} over the names that can be label values at all; a name
     * that cannot is reported once and left out (no slice can carry it).
     */
    static String labelSelector(Collection<String> serviceNames) {
        List<String> usable = new ArrayList<>();
        for (String name : new TreeSet<>(serviceNames)) {
            try {
                Requirement.in(EndpointSliceStates.SERVICE_NAME_LABEL, name);
                usable.add(name);
            } catch (IllegalArgumentException e) {
                LOG.warn("service name '" + name + "' cannot be a label value ("
                        + e.getMessage() + "); no EndpointSlice can belong to it");
            }
        }
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("no configured service name can be a label value: " + serviceNames);
        }
        return Requirement.in(EndpointSliceStates.SERVICE_NAME_LABEL, usable.toArray(String[]::new)).toQueryTerm();
    }

    /** Hands slices to {@link ServiceEvents}; a failure there is logged by the watch and never stops it. */
    private final class Forwarder implements ListWatch.Handler<EndpointSliceState> {

        @Override
        public void changed(EndpointSliceState state) {
            if (serviceNames.contains(state.serviceName())) {
                events.sliceChanged(state);
            } else {
                events.sliceRemoved(state.namespace(), state.name());
            }
        }

        @Override
        public void deleted(EndpointSliceState state) {
            events.sliceRemoved(state.namespace(), state.name());
        }
    }
}
