package dwd.adapters.k8s.prober;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.watch.ListWatch;
import dwd.adapters.k8s.watch.OutageLog;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Machines;
import dwd.domain.lease.Machine;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The machine-controller-manager {@code Machine}s ({@code machine.sapcloud.io/v1alpha1}) of every
 * shoot namespace of the seed, from one watch over all namespaces.
 */
public final class KubernetesMachines implements Machines, AutoCloseable {

    private static final String NODE_LABEL = "node";

    private final ApiClient client;
    private final ListWatch<Machine> watch;

    /** @param newSeedClient makes a new client for the seed; this cache owns the one it takes */
    public KubernetesMachines(Supplier<ApiClient> newSeedClient) {
        this(newSeedClient, null);
    }

    /** @param outages where an unreachable seed is reported (shared by the process's watches); null: a log of its own */
    public KubernetesMachines(Supplier<ApiClient> newSeedClient, OutageLog outages) {
        this.client = OwnedClients.forWatches(newSeedClient);
        var custom = new CustomObjectsApi(client);
        this.watch = new ListWatch<>("Machines",
                (isWatch, resourceVersion, timeoutSeconds) -> custom
                        .listCustomObjectForAllNamespaces("machine.sapcloud.io", "v1alpha1", "machines")
                        .resourceVersion(resourceVersion)
                        .watch(isWatch)
                        .allowWatchBookmarks(isWatch ? true : null)
                        .timeoutSeconds(timeoutSeconds)
                        .buildCall(null),
                KubernetesMachines::toMachine, ListWatch.Handler.none(),
                outages != null ? outages : OutageLog.of(client));
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
     * The Machines of {@code namespace}, ordered by name.
     *
     * @throws ApiFailure UNAVAILABLE before the cache has synced: an empty answer then would drop
     *     every node from the lease count
     */
    @Override
    public List<Machine> inNamespace(String namespace) {
        if (!watch.hasSynced()) {
            throw new ApiFailure(ApiFailure.Kind.UNAVAILABLE,
                    "listing Machines in namespace " + namespace + ": the Machine cache has not synced yet");
        }
        return watch.inNamespace(namespace).stream()
                .sorted(Comparator.comparing(Machine::name))
                .toList();
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
