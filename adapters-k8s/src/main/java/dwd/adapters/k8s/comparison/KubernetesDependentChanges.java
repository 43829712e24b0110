package dwd.adapters.k8s.comparison;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.watch.ListWatch;
import dwd.adapters.k8s.watch.WatchOptions;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.application.port.in.DependentChanges;
import dwd.domain.comparison.DependentSnapshot;
import dwd.domain.config.ResourceRef;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The comparison's view of the shoots' dependents: one {@link ListWatch} per configured dependent (kind and
 * name, over all namespaces, field selector {@code metadata.name=<name>}), each version handed to
 * {@link DependentChanges} with its {@code managedFields} (only the entries' writers, times, and whether
 * they own {@code spec.replicas} or dwd's annotations). Deployments and StatefulSets only: their
 * {@code spec.replicas} is what their scale subresource shows; a dependent of another kind is not
 * compared. Only in comparison mode: three more watches on the seed, each keeping a few fields per shoot.
 */
public final class KubernetesDependentChanges implements AutoCloseable {

    private record Watched(ApiClient client, ListWatch<Seen> watch) { }

    /** What a watch keeps of a dependent: where it is and the snapshot handed on. */
    private record Seen(String namespace, ResourceRef ref, DependentSnapshot snapshot) { }

    private final List<Watched> watches = new ArrayList<>();

    /**
     * @param dependents the configured dependents; those that are neither Deployments nor StatefulSets are left out
     * @param reports    where the watches report an unreachable seed and that they run (the process's)
     */
    public KubernetesDependentChanges(Supplier<ApiClient> newSeedClient, List<ResourceRef> dependents,
            DependentChanges changes, WatchReports reports) {
        Objects.requireNonNull(changes, "changes");
        for (ResourceRef ref : dependents) {
            boolean deployment = ref.kind().equals("Deployment") && ref.group().equals("apps");
            boolean statefulSet = ref.kind().equals("StatefulSet") && ref.group().equals("apps");
            if (!deployment && !statefulSet) {
                continue;
            }
            ApiClient client = OwnedClients.forWatches(newSeedClient);
            var apps = new AppsV1Api(client);
            String selector = "metadata.name=" + ref.name();
            var watch = new ListWatch<>((deployment ? "Deployments" : "StatefulSets") + " named " + ref.name()
                    + " (comparison)",
                    (isWatch, resourceVersion, timeoutSeconds) -> deployment
                            ? apps.listDeploymentForAllNamespaces().fieldSelector(selector).resourceVersion(resourceVersion)
                                    .watch(isWatch).allowWatchBookmarks(isWatch ? true : null)
                                    .timeoutSeconds(timeoutSeconds).buildCall(null)
                            : apps.listStatefulSetForAllNamespaces().fieldSelector(selector).resourceVersion(resourceVersion)
                                    .watch(isWatch).allowWatchBookmarks(isWatch ? true : null)
                                    .timeoutSeconds(timeoutSeconds).buildCall(null),
                    object -> seen(ref, object), new ListWatch.Handler<>() {
                        @Override
                        public void changed(Seen seen) {
                            changes.dependentChanged(seen.namespace(), seen.ref(), seen.snapshot());
                        }

                        @Override
                        public void deleted(Seen seen) {
                            changes.dependentDeleted(seen.namespace(), seen.ref());
                        }
                    }, reports, WatchOptions.on(client));
            watches.add(new Watched(client, watch));
        }
    }

    /** Starts the watches. */
    public void start() {
        watches.forEach(watched -> watched.watch().start());
    }

    /** Whether every watch holds a complete list and is alive. */
    public boolean hasSynced() {
        return watches.stream().allMatch(watched -> watched.watch().hasSynced());
    }

    static Seen seen(ResourceRef ref, JsonObject object) {
        var annotations = new HashMap<String, String>();
        JsonFields.stringMap(object, "metadata", "annotations").forEach((key, value) -> {
            if (key.startsWith(ManagedFields.ANNOTATION_PREFIX)) {
                annotations.put(key, value);
            }
        });
        return new Seen(JsonFields.string(object, "metadata", "namespace").orElse(""), ref, new DependentSnapshot(
                JsonFields.string(object, "metadata", "uid").orElse(""),
                replicas(object, "spec", "replicas", 1), replicas(object, "status", "readyReplicas", 0),
                annotations, ManagedFields.of(object),
                JsonFields.string(object, "metadata", "resourceVersion").orElse("")));
    }

    /** A replica count; absent (the API server defaults spec.replicas to 1) or mistyped, {@code absent}. */
    private static int replicas(JsonObject object, String section, String field, int absent) {
        return JsonFields.integer(object, section, field)
                .filter(value -> value >= 0 && value <= Integer.MAX_VALUE).map(Long::intValue).orElse(absent);
    }

    @Override
    public void close() {
        for (Watched watched : watches) {
            watched.watch().close();
            OwnedClients.release(watched.client());
        }
    }
}
