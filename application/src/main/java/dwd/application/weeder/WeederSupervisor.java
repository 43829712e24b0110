package dwd.application.weeder;

import dwd.application.port.in.ServiceEvents;
import dwd.application.port.out.PodWatches;
import dwd.application.port.out.Pods;
import dwd.application.port.out.Scheduler;
import dwd.application.port.out.WeederObserver;
import dwd.application.port.out.WeederObserver.StopReason;
import dwd.domain.config.WeederConfig;
import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.EndpointSliceState;
import dwd.domain.weeding.ServiceReadiness;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Follows the readiness of every configured service in every namespace, across all of its
 * EndpointSlices, and keeps at most one {@link Weeder} per service and namespace: one starts when
 * the service turns ready (including on startup, when the slices are replayed), and stops when its
 * {@code watchDuration} ends or the service is not ready any more.
 *
 * <p>A service's slices, readiness and weeder change inside one atomic map operation per
 * (namespace, service), so concurrent events can never leave two weeders running. Nothing is kept
 * for a service without slices, and an expired weeder leaves nothing behind.
 */
public final class WeederSupervisor implements ServiceEvents, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(WeederSupervisor.class.getName());

    private record ServiceKey(String namespace, String service) { }

    private record SliceKey(String namespace, String name) { }

    /** What is known of one service: its slices by name, their combined readiness, its weeder if running. */
    private record ServiceState(Map<String, EndpointSliceState> slices, boolean ready, Weeder weeder) { }

    private final WeederConfig config;
    private final Scheduler scheduler;
    private final PodWatches podWatches;
    private final Pods pods;
    private final WeederObserver observer;
    private final ConcurrentHashMap<ServiceKey, ServiceState> services = new ConcurrentHashMap<>();
    /** The service each known slice was last counted for, so that a removal or relabelling finds it. */
    private final ConcurrentHashMap<SliceKey, String> sliceOwners = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public WeederSupervisor(WeederConfig config, Scheduler scheduler, PodWatches podWatches, Pods pods,
            WeederObserver observer) {
        this.config = config;
        this.scheduler = scheduler;
        this.podWatches = podWatches;
        this.pods = pods;
        this.observer = observer;
    }

    @Override
    public void sliceChanged(EndpointSliceState slice) {
        if (closed) {
            return;
        }
        String service = slice.serviceName();
        if (!config.servicesAndDependantSelectors().containsKey(service)) {
            sliceRemoved(slice.namespace(), slice.name());
            return;
        }
        var sliceKey = new SliceKey(slice.namespace(), slice.name());
        String previous = sliceOwners.put(sliceKey, service);
        if (previous != null && !previous.equals(service)) {
            update(new ServiceKey(slice.namespace(), previous), slices -> slices.remove(slice.name()));
        }
        update(new ServiceKey(slice.namespace(), service), slices -> slices.put(slice.name(), slice));
    }

    @Override
    public void sliceRemoved(String namespace, String sliceName) {
        String owner = sliceOwners.remove(new SliceKey(namespace, sliceName));
        if (owner != null) {
            update(new ServiceKey(namespace, owner), slices -> slices.remove(sliceName));
        }
    }

    /** The running weeders as {@code namespace/service}, sorted. */
    public List<String> runningWeeders() {
        return services.entrySet().stream()
                .filter(entry -> entry.getValue().weeder() != null)
                .map(entry -> entry.getKey().namespace() + "/" + entry.getKey().service())
                .sorted()
                .toList();
    }

    /** The number of slices known; bounded by the slices of configured services that exist. */
    public int knownSlices() {
        return sliceOwners.size();
    }

    /** The number of services known (those with at least one slice). */
    public int knownServices() {
        return services.size();
    }

    /** Stops every weeder; later events are ignored. */
    @Override
    public void close() {
        closed = true;
        // Again until empty: an event that was already under way may have added a service behind the iterator.
        while (!services.isEmpty()) {
            for (ServiceKey key : services.keySet()) {
                ServiceState removed = services.remove(key);
                if (removed != null && removed.weeder() != null) {
                    removed.weeder().stop(StopReason.SHUTDOWN);
                }
            }
        }
        sliceOwners.clear();
    }

    private void update(ServiceKey key, Consumer<Map<String, EndpointSliceState>> change) {
        services.compute(key, (k, current) -> {
            Map<String, EndpointSliceState> slices = current == null ? new HashMap<>() : new HashMap<>(current.slices());
            change.accept(slices);
            boolean wasReady = current != null && current.ready();
            boolean ready = ServiceReadiness.isReady(slices.values());
            Weeder weeder = current == null ? null : current.weeder();
            if (wasReady != ready) {
                LOG.log(System.Logger.Level.DEBUG, () -> k.namespace() + ": service " + k.service()
                        + (ready ? " is ready" : " is not ready"));
                observer.serviceReadinessChanged(k.namespace(), k.service(), ready);
            }
            // A weeder exists only while its service is ready, so a transition to ready finds none.
            if (ServiceReadiness.becameReady(wasReady, ready) && !closed) {
                weeder = startWeeder(k);
            } else if (!ready && weeder != null) {
                weeder.stop(StopReason.SERVICE_NOT_READY);
                weeder = null;
            }
            return slices.isEmpty() ? null : new ServiceState(Map.copyOf(slices), ready, weeder);
        });
    }

    private Weeder startWeeder(ServiceKey key) {
        List<LabelSelector> selectors = config.servicesAndDependantSelectors().get(key.service());
        var weeder = new Weeder(key.namespace(), key.service(), selectors, config.watchDuration(), scheduler,
                podWatches, pods, observer);
        weeder.start(() -> expire(key, weeder));
        return weeder;
    }

    private void expire(ServiceKey key, Weeder weeder) {
        services.computeIfPresent(key, (k, state) -> {
            if (state.weeder() != weeder) {
                return state;
            }
            weeder.stop(StopReason.EXPIRED);
            return new ServiceState(state.slices(), state.ready(), null);
        });
        // Already stopped when it was replaced or its service went away; then this does nothing.
        weeder.stop(StopReason.EXPIRED);
    }
}
