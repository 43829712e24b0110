package dwd.adapters.k8s.prober;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.JsonFields;
import dwd.application.port.in.ClusterEvents;
import dwd.domain.cluster.ClusterShoot;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Watches the seed's Gardener {@code Cluster} objects ({@code extensions.gardener.cloud/v1alpha1},
 * cluster-scoped, named after the shoot namespace) and tells the prober about each one: its decoded
 * shoot on every add and update (including the replay of every existing Cluster when the watch
 * starts), its name on delete.
 */
public final class ClusterWatch implements AutoCloseable {

    private static final Logger LOG = LogManager.getLogger();

    private final ApiClient client;
    private final SharedInformerFactory factory;
    private final SharedIndexInformer<DynamicKubernetesObject> informer;

    /**
     * @param newSeedClient makes a new client for the seed; this watch owns the one it takes
     * @param events        told about every Cluster, on the informer's thread
     */
    public ClusterWatch(Supplier<ApiClient> newSeedClient, ClusterEvents events) {
        Objects.requireNonNull(events, "events");
        this.client = OwnedClients.forInformers(newSeedClient);
        // A factory of its own: factories key informers by class, and every dynamic informer has the same one.
        this.factory = new SharedInformerFactory(client);
        this.informer = factory.sharedIndexInformerFor(
                new DynamicKubernetesApi("extensions.gardener.cloud", "v1alpha1", "clusters", client),
                DynamicKubernetesObject.class, 0);
        // A Cluster also embeds the Seed and the CloudProfile, which can be large, and the shoot is several
        // kilobytes: cache only the shoot's fields the decoder reads (a few hundred bytes per Cluster).
        informer.setTransform(ClusterWatch::keepOnlyTheShoot);
        informer.addEventHandler(new Handler(events));
    }

    /** Starts watching; every existing Cluster is then reported as changed. */
    public void start() {
        factory.startAllRegisteredInformers();
    }

    /** Whether the first list of Clusters has been delivered. */
    public boolean hasSynced() {
        return informer.hasSynced();
    }

    /** Stops watching and frees the client's threads and connections. */
    @Override
    public void close() {
        factory.stopAllRegisteredInformers(true);
        OwnedClients.release(client);
    }

    private static KubernetesObject keepOnlyTheShoot(KubernetesObject object) {
        if (!(object instanceof DynamicKubernetesObject cluster)) {
            return object;
        }
        JsonObject raw = cluster.getRaw();
        JsonObject slim = new JsonObject();
        copy(raw, slim, "apiVersion");
        copy(raw, slim, "kind");
        JsonObject metadata = new JsonObject();
        JsonFields.object(raw, "metadata").ifPresent(meta -> {
            copy(meta, metadata, "name");
            copy(meta, metadata, "uid");
            copy(meta, metadata, "resourceVersion");
        });
        slim.add("metadata", metadata);
        if (raw.get("spec") != null && raw.get("spec").isJsonObject()) {
            JsonObject spec = new JsonObject();
            JsonElement shoot = raw.getAsJsonObject("spec").get("shoot");
            if (shoot != null) {
                spec.add("shoot", ShootDecoder.fieldsRead(shoot));
            }
            slim.add("spec", spec);
        } else {
            copy(raw, slim, "spec"); // absent or mistyped: left for the decoder to report
        }
        return new DynamicKubernetesObject(slim);
    }

    private static void copy(JsonObject from, JsonObject to, String field) {
        if (from.has(field)) {
            to.add(field, from.get(field));
        }
    }

    private static Optional<String> name(DynamicKubernetesObject cluster) {
        return JsonFields.string(cluster.getRaw(), "metadata", "name");
    }

    /** Decodes each event and hands it on; a failing receiver is logged and does not stop the watch. */
    private record Handler(ClusterEvents events) implements ResourceEventHandler<DynamicKubernetesObject> {

        @Override
        public void onAdd(DynamicKubernetesObject cluster) {
            changed(cluster);
        }

        @Override
        public void onUpdate(DynamicKubernetesObject before, DynamicKubernetesObject after) {
            changed(after);
        }

        @Override
        public void onDelete(DynamicKubernetesObject cluster, boolean finalStateUnknown) {
            name(cluster).ifPresent(name -> deliver(name, () -> events.clusterDeleted(name)));
        }

        private void changed(DynamicKubernetesObject cluster) {
            name(cluster).ifPresent(name -> {
                ClusterShoot shoot = ShootDecoder.decode(cluster.getRaw());
                deliver(name, () -> events.clusterChanged(name, shoot));
            });
        }

        private static void deliver(String name, Runnable event) {
            try {
                event.run();
            } catch (RuntimeException e) {
                LOG.error("handling the event of Cluster {} failed", name, e);
            }
        }
    }
}
