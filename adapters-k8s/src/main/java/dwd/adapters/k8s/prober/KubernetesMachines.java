package dwd.adapters.k8s.prober;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.JsonCalls;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.watch.ListWatch;
import dwd.adapters.k8s.watch.OutageLog;
import dwd.adapters.k8s.watch.WatchOptions;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Machines;
import dwd.domain.lease.Machine;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The machine-controller-manager {@code Machine}s ({@code machine.sapcloud.io/v1alpha1}) of every
 * shoot namespace of the seed, from one watch over all namespaces. Whether the cache answers is
 * {@link CacheTrust}'s rule: while the watch has proven itself alive, or its copy was current within
 * {@link RecentCopies#LIMIT}; otherwise a probe reads its namespace's Machines from the API server, at
 * most once per that limit ({@link RecentCopies}), and when the seed answers no such read, the cache's
 * copy is taken whatever its age.
 */
public final class KubernetesMachines implements Machines, AutoCloseable {

    private static final String NODE_LABEL = "node";
    /** The bound of a read while the cache is not trusted; a probe's run allows a few such calls. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    private final ApiClient client;
    private final CustomObjectsApi custom;
    private final ListWatch<Machine> watch;
    private final RecentCopies<List<Machine>> reads = new RecentCopies<>();
    private final CacheTrust<CacheTrust.Written> trust = CacheTrust.forSlowlyChanging();

    /**
     * @param newSeedClient makes a new client for the seed; this cache owns the one it takes
     * @param reports       where the watch reports an unreachable seed and that it runs (the process's)
     */
    public KubernetesMachines(Supplier<ApiClient> newSeedClient, WatchReports reports) {
        this.client = OwnedClients.forWatches(newSeedClient);
        this.custom = new CustomObjectsApi(client);
        this.watch = new ListWatch<>("Machines",
                (isWatch, resourceVersion, timeoutSeconds) -> custom
                        .listCustomObjectForAllNamespaces("machine.sapcloud.io", "v1alpha1", "machines")
                        .resourceVersion(resourceVersion)
                        .watch(isWatch)
                        .allowWatchBookmarks(isWatch ? true : null)
                        .timeoutSeconds(timeoutSeconds)
                        .buildCall(null),
                KubernetesMachines::toMachine, ListWatch.Handler.none(),
                reports, WatchOptions.on(client));
    }

    /** Starts filling the cache. */
    public void start() {
        watch.start();
    }

    /** Whether the cache holds the first full list of Machines. */
    public boolean hasSynced() {
        return watch.hasSynced();
    }

    /**
     * The Machines of {@code namespace}, ordered by name: from the cache while it is trusted or its
     * copy recent, else read from the API server (never an empty answer for a cache that cannot say:
     * that would drop every node from the lease count).
     *
     * @throws ApiFailure when the read fails and the cache never listed
     */
    @Override
    public List<Machine> inNamespace(String namespace) {
        List<Machine> machines = switch (trust.use(watch)) {
            case CACHE -> {
                reads.forget();
                yield watch.inNamespace(namespace);
            }
            case RECENT_COPY -> watch.inNamespace(namespace);
            case SERVER -> reads.get(namespace, () -> readOrLastKnown(namespace));
        };
        return machines.stream()
                .sorted(Comparator.comparing(Machine::name))
                .toList();
    }

    /** A read; when the seed does not answer it, the cache's copy, however old, if the cache ever listed. */
    private List<Machine> readOrLastKnown(String namespace) {
        try {
            return read(namespace);
        } catch (ApiFailure failure) {
            if (OutageLog.isOutage(failure) && watch.copyAge().isPresent()) {
                return watch.inNamespace(namespace);
            }
            throw failure;
        }
    }

    private List<Machine> read(String namespace) {
        String action = "listing Machines in namespace " + namespace + " (the Machine cache is not trusted now)";
        JsonObject list = ApiFailures.call(action, () -> JsonCalls.execute(custom
                .listNamespacedCustomObject("machine.sapcloud.io", "v1alpha1", namespace, "machines")
                .buildCall(null), READ_TIMEOUT));
        return JsonFields.objects(list, "items").stream().map(KubernetesMachines::toMachine).toList();
    }

    /** Stops the watch and frees the client's threads and connections. */
    @Override
    public void close() {
        watch.close();
        OwnedClients.release(client);
    }

    /** The cache keeps name, the node label and the phase of each Machine; specs are left out. */
    static Machine toMachine(JsonObject raw) {
        return new Machine(
                JsonFields.string(raw, "metadata", "name").orElse(""),
                JsonFields.string(raw, "metadata", "labels", NODE_LABEL),
                JsonFields.string(raw, "status", "currentStatus", "phase").orElse(""));
    }
}
