package dwd.bootstrap.prober;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.util.Watch;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Watches the Deployments of a namespace and records every change of {@code spec.replicas} in
 * the order the API server wrote them, with the time it was seen.
 */
final class DeploymentRecorder implements AutoCloseable {

    record Change(Instant seenAt, String name, int from, int to, Map<String, String> annotations) { }

    private final Watch<V1Deployment> watch;
    private final Thread reader;
    private final List<Change> changes = new ArrayList<>();
    private final Map<String, Integer> replicas = new HashMap<>();
    private final Map<String, Map<String, String>> annotations = new HashMap<>();

    DeploymentRecorder(ApiClient watchClient, String namespace) throws Exception {
        this.watch = Watch.createWatch(watchClient,
                new AppsV1Api(watchClient).listNamespacedDeployment(namespace).watch(true).buildCall(null),
                new TypeToken<Watch.Response<V1Deployment>>() { }.getType());
        this.reader = Thread.ofVirtual().name("deployment-recorder").start(this::read);
    }

    private void read() {
        try {
            for (Watch.Response<V1Deployment> event : watch) {
                V1Deployment deployment = event.object;
                String name = deployment.getMetadata().getName();
                int now = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 0);
                synchronized (this) {
                    Integer before = replicas.put(name, now);
                    Map<String, String> current = Objects.requireNonNullElse(deployment.getMetadata().getAnnotations(), Map.of());
                    annotations.put(name, Map.copyOf(current));
                    if (before != null && before != now) {
                        changes.add(new Change(Instant.now(), name, before, now, Map.copyOf(current)));
                    }
                }
            }
        } catch (RuntimeException e) {
            // the watch was closed
        }
    }

    synchronized List<Change> changes() {
        return List.copyOf(changes);
    }

    synchronized Integer replicas(String name) {
        return replicas.get(name);
    }

    synchronized Map<String, String> annotations(String name) {
        return annotations.getOrDefault(name, Map.of());
    }

    @Override
    public void close() throws IOException {
        watch.close();
        reader.interrupt();
    }
}
