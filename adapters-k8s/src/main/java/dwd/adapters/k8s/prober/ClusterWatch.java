package dwd.adapters.k8s.prober;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.watch.ListWatch;
import dwd.adapters.k8s.watch.WatchOptions;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.application.port.in.ClusterEvents;
import dwd.domain.cluster.ClusterShoot;
import dwd.domain.cluster.ProbeEligibility;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
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
    private final ListWatch<JsonObject> watch;

    /**
     * @param newSeedClient makes a new client for the seed; this watch owns the one it takes
     * @param events        told about every Cluster, on the watch's thread
     * @param reports       where the watch reports an unreachable seed and that it runs (the process's)
     */
    public ClusterWatch(Supplier<ApiClient> newSeedClient, ClusterEvents events, WatchReports reports) {
        Objects.requireNonNull(events, "events");
        this.client = OwnedClients.forWatches(newSeedClient);
        var custom = new CustomObjectsApi(client);
        this.watch = new ListWatch<>("Clusters",
                (isWatch, resourceVersion, timeoutSeconds) -> custom
                        .listClusterCustomObject("extensions.gardener.cloud", "v1alpha1", "clusters")
                        .resourceVersion(resourceVersion)
                        .watch(isWatch)
                        .allowWatchBookmarks(isWatch ? true : null)
                        .timeoutSeconds(timeoutSeconds)
                        .buildCall(null),
                ClusterWatch::keepOnlyTheShoot, new Handler(events),
                reports, WatchOptions.on(client));
    }

    /** Starts watching; every existing Cluster is then reported as changed. */
    public void start() {
        watch.start();
    }

    /** Whether the first list of Clusters has been delivered. */
    public boolean hasSynced() {
        return watch.hasSynced();
    }

    /** Stops watching and frees the client's threads and connections. */
    @Override
    public void close() {
        watch.close();
        OwnedClients.release(client);
    }

    /** A Cluster also embeds the Seed and the CloudProfile, which can be large, and the shoot is several kilobytes:
     * only the shoot fields the decoder reads are kept (a few hundred bytes per Cluster). */
    private static JsonObject keepOnlyTheShoot(JsonObject raw) {
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
        return slim;
    }

    private static void copy(JsonObject from, JsonObject to, String field) {
        if (from.has(field)) {
            to.add(field, from.get(field));
        }
    }

    /**
     * Decodes each event and hands it on; a failing receiver is logged (by the watch) and does not stop it.
     * Settings the prober ignores are warned about once per Cluster while they stay the same, and said
     * once when none is left.
     */
    private static final class Handler implements ListWatch.Handler<JsonObject> {
        private final ClusterEvents events;
        private final Map<String, List<String>> warned = new ConcurrentHashMap<>();

        Handler(ClusterEvents events) {
            this.events = events;
        }

        @Override
        public void changed(JsonObject cluster) {
            JsonFields.string(cluster, "metadata", "name").ifPresent(name -> {
                ClusterShoot shoot = ShootDecoder.decode(cluster);
                warnAboutIgnoredSettings(name, shoot);
                events.clusterChanged(name, shoot);
            });
        }

        @Override
        public void deleted(JsonObject cluster) {
            JsonFields.string(cluster, "metadata", "name").ifPresent(name -> {
                warned.remove(name);
                events.clusterDeleted(name);
            });
        }

        private void warnAboutIgnoredSettings(String name, ClusterShoot shoot) {
            List<String> ignored = shoot instanceof ClusterShoot.Present present
                    ? ProbeEligibility.ignoredSettings(present.shoot()) : List.of();
            List<String> before = ignored.isEmpty() ? warned.remove(name) : warned.put(name, ignored);
            if (!ignored.equals(before)) {
                ignored.forEach(setting -> LOG.warn("{}: {}", name, setting));
                if (ignored.isEmpty() && before != null && !before.isEmpty()) {
                    LOG.info("{}: no setting of the Cluster is ignored any more", name);
                }
            }
        }
    }
}
