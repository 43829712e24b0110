package dwd.adapters.k8s.prober;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.JsonFields;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Machines;
import dwd.domain.lease.Machine;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The machine-controller-manager {@code Machine}s ({@code machine.sapcloud.io/v1alpha1}) of every
 * shoot namespace of the seed, from one informer over all namespaces.
 */
public final class KubernetesMachines implements Machines, AutoCloseable {

    private static final String NODE_LABEL = "node";

    private final ApiClient client;
    private final SharedInformerFactory factory;
    private final SharedIndexInformer<DynamicKubernetesObject> informer;

    /** @param newSeedClient makes a new client for the seed; this cache owns the one it takes */
    public KubernetesMachines(Supplier<ApiClient> newSeedClient) {
        this.client = OwnedClients.forInformers(newSeedClient);
        // A factory of its own: factories key informers by class, and every dynamic informer has the same one.
        this.factory = new SharedInformerFactory(client);
        this.informer = factory.sharedIndexInformerFor(
                new DynamicKubernetesApi("machine.sapcloud.io", "v1alpha1", "machines", client),
                DynamicKubernetesObject.class, 0);
        informer.setTransform(KubernetesMachines::keepWhatIsRead);
    }

    /** Starts filling the cache. */
    public void start() {
        factory.startAllRegisteredInformers();
    }

    /** Whether the cache holds the first full list of Machines. */
    public boolean hasSynced() {
        return informer.hasSynced();
    }

    /**
     * The Machines of {@code namespace}, ordered by name.
     *
     * @throws ApiFailure UNAVAILABLE before the cache has synced: an empty answer then would drop
     *     every node from the lease count
     */
    @Override
    public List<Machine> inNamespace(String namespace) {
        if (!informer.hasSynced()) {
            throw new ApiFailure(ApiFailure.Kind.UNAVAILABLE,
                    "listing Machines in namespace " + namespace + ": the Machine cache has not synced yet");
        }
        return informer.getIndexer().byIndex(Caches.NAMESPACE_INDEX, namespace).stream()
                .map(machine -> toMachine(machine.getRaw()))
                .sorted(Comparator.comparing(Machine::name))
                .toList();
    }

    /** Stops the informer and frees the client's threads and connections. */
    @Override
    public void close() {
        factory.stopAllRegisteredInformers(true);
        OwnedClients.release(client);
    }

    static Machine toMachine(JsonObject raw) {
        return new Machine(
                JsonFields.string(raw, "metadata", "name").orElse(""),
                JsonFields.string(raw, "metadata", "labels", NODE_LABEL),
                JsonFields.string(raw, "status", "currentStatus", "phase").orElse(""));
    }

    /** The cache keeps name, namespace, the node label and the phase; Machine specs are left out. */
    private static KubernetesObject keepWhatIsRead(KubernetesObject object) {
        if (!(object instanceof DynamicKubernetesObject machine)) {
            return object;
        }
        JsonObject raw = machine.getRaw();
        JsonObject slim = new JsonObject();
        JsonFields.string(raw, "apiVersion").ifPresent(value -> slim.addProperty("apiVersion", value));
        JsonFields.string(raw, "kind").ifPresent(value -> slim.addProperty("kind", value));
        JsonObject metadata = new JsonObject();
        for (String field : List.of("name", "namespace", "uid", "resourceVersion")) {
            JsonFields.string(raw, "metadata", field).ifPresent(value -> metadata.addProperty(field, value));
        }
        JsonFields.string(raw, "metadata", "labels", NODE_LABEL).ifPresent(node -> {
            JsonObject labels = new JsonObject();
            labels.addProperty(NODE_LABEL, node);
            metadata.add("labels", labels);
        });
        slim.add("metadata", metadata);
        JsonFields.string(raw, "status", "currentStatus", "phase").ifPresent(phase -> {
            JsonObject currentStatus = new JsonObject();
            currentStatus.addProperty("phase", phase);
            JsonObject status = new JsonObject();
            status.add("currentStatus", currentStatus);
            slim.add("status", status);
        });
        return new DynamicKubernetesObject(slim);
    }
}
