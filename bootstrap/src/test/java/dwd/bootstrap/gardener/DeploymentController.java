package dwd.bootstrap.gardener;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.Watch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Stands in for kube-controller-manager's Deployment controller in a shoot namespace (the local control
 * plane runs none): every Deployment's ready replicas follow its {@code spec.replicas}, so a scale-up's
 * readiness wait ends as it would in a seed. Records each change of {@code spec.replicas} in the order the
 * API server wrote them, and each Deployment's annotations now.
 */
final class DeploymentController implements AutoCloseable {

    record Change(String name, int from, int to) { }

    private final ApiClient admin;
    private final String namespace;
    private final Watch<V1Deployment> watch;
    private final Thread reader;
    private final List<Change> changes = new ArrayList<>();
    private final Map<String, Integer> replicas = new HashMap<>();
    private final Map<String, Map<String, String>> annotations = new HashMap<>();
    private int statusFailures;

    DeploymentController(ApiClient admin, ApiClient watchClient, String namespace) throws ApiException {
        this.admin = admin;
        this.namespace = namespace;
        this.watch = Watch.createWatch(watchClient,
                new AppsV1Api(watchClient).listNamespacedDeployment(namespace).watch(true).buildCall(null),
                new TypeToken<Watch.Response<V1Deployment>>() { }.getType());
        this.reader = Thread.ofVirtual().name("deployment-controller").start(this::read);
    }

    private void read() {
        try {
            for (Watch.Response<V1Deployment> event : watch) {
                V1Deployment deployment = event.object;
                if (deployment == null || "DELETED".equals(event.type)) {
                    continue;
                }
                String name = deployment.getMetadata().getName();
                int wanted = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 0);
                synchronized (this) {
                    Integer before = replicas.put(name, wanted);
                    annotations.put(name, Map.copyOf(Objects.requireNonNullElse(
                            deployment.getMetadata().getAnnotations(), Map.of())));
                    if (before != null && before != wanted) {
                        changes.add(new Change(name, before, wanted));
                    }
                }
                int ready = deployment.getStatus() == null ? 0
                        : Objects.requireNonNullElse(deployment.getStatus().getReadyReplicas(), 0);
                if (ready != wanted) {
                    reportReady(name, wanted);
                }
            }
        } catch (RuntimeException e) {
            // the watch was closed
        }
    }

    private void reportReady(String name, int ready) {
        var apps = new AppsV1Api(admin);
        try {
            PatchUtils.patch(Object.class, () -> apps.patchNamespacedDeploymentStatus(name, namespace, new V1Patch(
                            "{\"status\":{\"replicas\":" + ready + ",\"readyReplicas\":" + ready + ",\"availableReplicas\":"
                                    + ready + ",\"updatedReplicas\":" + ready + "}}")).buildCall(null),
                    V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, admin);
        } catch (ApiException | RuntimeException e) {
            synchronized (this) {
                statusFailures++;
            }
        }
    }

    synchronized List<Change> changes() {
        return List.copyOf(changes);
    }

    synchronized int replicas(String name) {
        return replicas.getOrDefault(name, -1);
    }

    synchronized Map<String, String> annotations(String name) {
        return annotations.getOrDefault(name, Map.of());
    }

    /** Status writes the API server refused: a test relying on readiness asserts there were none. */
    synchronized int statusFailures() {
        return statusFailures;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        watch.close();
        reader.join(5_000);
    }
}
