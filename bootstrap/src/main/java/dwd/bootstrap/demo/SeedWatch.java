package dwd.bootstrap.demo;

import dwd.bootstrap.demo.DemoTimeline.Kind;
import dwd.domain.scaling.Annotations;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentList;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * The demo's eyes on the seed, as an operator's {@code kubectl get -w} would be: watches the
 * Deployments and the control-plane pods of every namespace and records when a Deployment's replicas
 * change and when a pod is deleted, with the time the change arrived.
 */
final class SeedWatch implements AutoCloseable {

    private static final String CONTROL_PLANE = "gardener.cloud/role=controlplane";

    private final SharedInformerFactory factory;
    private final SharedIndexInformer<V1Deployment> deployments;
    private final SharedIndexInformer<V1Pod> pods;

    /** @param watchClient a client with read timeout 0 (the informers insist on it) */
    SeedWatch(ApiClient watchClient, DemoTimeline timeline) {
        factory = new SharedInformerFactory(watchClient);
        var apps = new AppsV1Api(watchClient);
        var core = new CoreV1Api(watchClient);
        deployments = factory.sharedIndexInformerFor(params -> apps.listDeploymentForAllNamespaces()
                        .resourceVersion(params.resourceVersion)
                        .timeoutSeconds(params.timeoutSeconds).watch(params.watch).buildCall(null),
                V1Deployment.class, V1DeploymentList.class);
        pods = factory.sharedIndexInformerFor(params -> core.listPodForAllNamespaces()
                        .labelSelector(CONTROL_PLANE).resourceVersion(params.resourceVersion)
                        .timeoutSeconds(params.timeoutSeconds).watch(params.watch).buildCall(null),
                V1Pod.class, V1PodList.class);
        deployments.addEventHandler(new Changes<>() {
            @Override
            public void onUpdate(V1Deployment before, V1Deployment after) {
                int from = replicas(before);
                int to = replicas(after);
                if (from != to) {
                    // A scale-down records the count to restore in an annotation first: show it.
                    String recorded = to < from ? annotations(after).get(Annotations.REPLICAS) : null;
                    timeline.add(Instant.now(), after.getMetadata().getNamespace(), Kind.SCALED, after.getMetadata().getName(),
                            after.getMetadata().getName() + " " + from + " -> " + to + " replicas"
                                    + (recorded == null ? "" : " (" + recorded + " kept in its replicas annotation)"));
                }
            }
        });
        pods.addEventHandler(new Changes<>() {
            @Override
            public void onDelete(V1Pod pod, boolean finalStateUnknown) {
                timeline.add(Instant.now(), pod.getMetadata().getNamespace(), Kind.POD_DELETED, pod.getMetadata().getName(),
                        "pod " + pod.getMetadata().getName() + " deleted");
            }
        });
    }

    /** Starts watching; {@link #hasSynced()} tells when both watches have listed what exists. */
    void start() {
        factory.startAllRegisteredInformers();
    }

    boolean hasSynced() {
        return deployments.hasSynced() && pods.hasSynced();
    }

    @Override
    public void close() {
        factory.stopAllRegisteredInformers(true);
    }

    private static int replicas(V1Deployment deployment) {
        return deployment.getSpec() == null ? 0 : Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 0);
    }

    private static Map<String, String> annotations(V1Deployment deployment) {
        return Objects.requireNonNullElse(deployment.getMetadata().getAnnotations(), Map.of());
    }

    /** Only the changes a subclass cares about. */
    private abstract static class Changes<T extends io.kubernetes.client.common.KubernetesObject> implements ResourceEventHandler<T> {
        @Override
        public void onAdd(T object) {
        }

        @Override
        public void onUpdate(T before, T after) {
        }

        @Override
        public void onDelete(T object, boolean finalStateUnknown) {
        }
    }
}
