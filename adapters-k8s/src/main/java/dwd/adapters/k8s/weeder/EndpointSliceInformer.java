package dwd.adapters.k8s.weeder;

import dwd.application.port.in.ServiceEvents;
import dwd.domain.selector.Requirement;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.ReflectorRunnable;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.DiscoveryV1Api;
import io.kubernetes.client.openapi.models.V1EndpointSlice;
import io.kubernetes.client.openapi.models.V1EndpointSliceList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Feeds {@link ServiceEvents} from an informer on the EndpointSlices of the configured services in
 * all namespaces. The server filters by the {@code kubernetes.io/service-name} label, so the cache
 * holds only those slices, and a slice whose label stops matching arrives as a deletion.
 *
 * <p>The informer has a factory of its own (factories key informers by class) and uses the typed
 * {@link V1EndpointSlice}: a dynamic informer over a built-in kind fails on every list in client-java 27.
 * Watch bookmarks are not requested: a bookmark carries no {@code addressType}, which the strict
 * typed model requires, so each one would break the watch.
 */
public final class EndpointSliceInformer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(EndpointSliceInformer.class.getName());

    /**
     * The longest a healthy informer goes without a new list or watch request: client-java's reflector
     * asks the server to end each watch after a random 1–2 × {@code REFLECTOR_WATCH_CLIENTSIDE_TIMEOUT}
     * (5–10 min) and then watches again; after a failure it lists again within a second.
     */
    public static final Duration LONGEST_WATCH = ReflectorRunnable.REFLECTOR_WATCH_CLIENTSIDE_TIMEOUT.multipliedBy(2);

    private final Set<String> serviceNames;
    private final ServiceEvents events;
    private final SharedInformerFactory factory;
    private final SharedIndexInformer<V1EndpointSlice> informer;
    /** The last list/watch failure reported, so that the reflector's retry every second is logged once, not forever. */
    private final AtomicReference<String> lastFailure = new AtomicReference<>();
    /** When the reflector last started a list or a watch: its heartbeat, for liveness. */
    private volatile Instant lastListOrWatch;

    /**
     * @param watchClient  a client with read timeout 0 (the informer factory insists on it)
     * @param serviceNames the configured services ({@code servicesAndDependantSelectors}' keys)
     * @param events       where slice events go, typically the weeder supervisor
     */
    public EndpointSliceInformer(ApiClient watchClient, Collection<String> serviceNames, ServiceEvents events) {
        this.serviceNames = Set.copyOf(serviceNames);
        this.events = events;
        String labelSelector = labelSelector(serviceNames);
        var discovery = new DiscoveryV1Api(watchClient);
        this.factory = new SharedInformerFactory(watchClient);
        this.informer = factory.sharedIndexInformerFor(
                params -> {
                    lastListOrWatch = Instant.now();
                    return discovery.listEndpointSliceForAllNamespaces()
                            .labelSelector(labelSelector)
                            .resourceVersion(params.resourceVersion)
                            .timeoutSeconds(params.timeoutSeconds)
                            .watch(params.watch)
                            .buildCall(null);
                },
                V1EndpointSlice.class, V1EndpointSliceList.class, 0L, this::listOrWatchFailed);
        informer.addEventHandler(new Forwarder());
    }

    /** Starts listing and watching; the slices that exist are replayed as additions. */
    public void start() {
        factory.startAllRegisteredInformers();
    }

    /** Whether the initial list has been delivered. */
    public boolean hasSynced() {
        return informer.hasSynced();
    }

    /**
     * When the informer last started a list or a watch request; empty before the first. A watch
     * blocked on a dead connection (the client's read timeout is 0) shows as no request for longer
     * than {@link #LONGEST_WATCH}.
     */
    public Optional<Instant> lastListOrWatch() {
        return Optional.ofNullable(lastListOrWatch);
    }

    /** Stops the informer and its threads. */
    @Override
    public void close() {
        factory.stopAllRegisteredInformers(true);
    }

    private void listOrWatchFailed(Class<V1EndpointSlice> type, Throwable failure) {
        String what = failure instanceof ApiException api ? WeederApiErrors.describe(api) : String.valueOf(failure);
        if (!what.equals(lastFailure.getAndSet(what))) {
            LOG.log(System.Logger.Level.WARNING, "listing or watching EndpointSlices failed: " + what
                    + " (retried every second; repeats are logged at debug level)");
        } else {
            LOG.log(System.Logger.Level.DEBUG, () -> "listing or watching EndpointSlices failed again: " + what);
        }
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
                LOG.log(System.Logger.Level.WARNING, "service name '" + name + "' cannot be a label value ("
                        + e.getMessage() + "); no EndpointSlice can belong to it");
            }
        }
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("no configured service name can be a label value: " + serviceNames);
        }
        return Requirement.in(EndpointSliceStates.SERVICE_NAME_LABEL, usable.toArray(String[]::new)).toQueryTerm();
    }

    /** Hands slices to {@link ServiceEvents}; a failure there is logged and never stops the informer. */
    private final class Forwarder implements ResourceEventHandler<V1EndpointSlice> {

        @Override
        public void onAdd(V1EndpointSlice slice) {
            changed(slice);
        }

        @Override
        public void onUpdate(V1EndpointSlice previous, V1EndpointSlice slice) {
            changed(slice);
        }

        @Override
        public void onDelete(V1EndpointSlice slice, boolean finalStateUnknown) {
            V1ObjectMeta meta = slice == null ? null : slice.getMetadata();
            if (meta == null) {
                return;
            }
            try {
                events.sliceRemoved(meta.getNamespace(), meta.getName());
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, meta.getNamespace() + ": handling the deletion of EndpointSlice "
                        + meta.getName() + " failed", e);
            }
        }

        private void changed(V1EndpointSlice slice) {
            if (slice == null) {
                return;
            }
            lastFailure.set(null);
            var state = EndpointSliceStates.of(slice);
            try {
                if (serviceNames.contains(state.serviceName())) {
                    events.sliceChanged(state);
                } else {
                    events.sliceRemoved(state.namespace(), state.name());
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, state.namespace() + ": handling EndpointSlice " + state.name()
                        + " failed", e);
            }
        }
    }
}
