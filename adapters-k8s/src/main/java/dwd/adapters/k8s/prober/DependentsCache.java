package dwd.adapters.k8s.prober;

import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.prober.dependent.CachedDependent;
import dwd.adapters.k8s.prober.dependent.CachedDependentList;
import dwd.application.port.out.ScalableResource;
import dwd.domain.config.ResourceRef;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The shoots' dependents in the seed as informers see them, for the check a healthy shoot makes
 * after every probe ("is any dependent down?"), which would otherwise read each dependent from the
 * API server: at thousands of shoots, most of the seed requests the prober sends.
 *
 * <p>One informer per dependent (kind and name, in practice three), over all namespaces and
 * restricted by the field selector {@code metadata.name=<name>}, started when the dependent is first
 * asked for. It keeps identity, dwd's annotations and the replica counts. Only Deployments and
 * StatefulSets are cached (their {@code spec.replicas} is what their scale subresource shows); for
 * any other kind, and until an informer has synced, there is no cached view.
 */
final class DependentsCache implements AutoCloseable {

    private final Supplier<ApiClient> newSeedClient;
    private final Map<ResourceRef, Dependent> informers = new ConcurrentHashMap<>();
    private volatile boolean closed;

    DependentsCache(Supplier<ApiClient> newSeedClient) {
        this.newSeedClient = newSeedClient;
    }

    /** The resource as cached, or empty (not cached, not synced yet, not in the seed). */
    Optional<ScalableResource> get(String namespace, ResourceRef ref) {
        if (closed || !cacheable(ref)) {
            return Optional.empty();
        }
        SharedIndexInformer<CachedDependent> informer = informers.computeIfAbsent(ref, this::start).informer();
        if (!informer.hasSynced()) {
            return Optional.empty();
        }
        CachedDependent cached = informer.getIndexer().getByKey(namespace + "/" + ref.name());
        return cached == null ? Optional.empty() : Optional.of(
                new ScalableResource(ref, cached.annotations(), cached.specReplicas(), cached.readyReplicas()));
    }

    static boolean cacheable(ResourceRef ref) {
        return ref.apiVersion().equals("apps/v1") && (ref.kind().equals("Deployment") || ref.kind().equals("StatefulSet"));
    }

    private Dependent start(ResourceRef ref) {
        ApiClient client = OwnedClients.forInformers(newSeedClient);
        AppsV1Api apps = new AppsV1Api(client);
        String selector = "metadata.name=" + ref.name();
        // A factory per dependent: factories key informers by class.
        var factory = new SharedInformerFactory(client);
        SharedIndexInformer<CachedDependent> informer = factory.sharedIndexInformerFor(
                params -> ref.kind().equals("Deployment")
                        ? apps.listDeploymentForAllNamespaces().fieldSelector(selector)
                                .resourceVersion(params.resourceVersion).timeoutSeconds(params.timeoutSeconds)
                                .watch(params.watch).buildCall(null)
                        : apps.listStatefulSetForAllNamespaces().fieldSelector(selector)
                                .resourceVersion(params.resourceVersion).timeoutSeconds(params.timeoutSeconds)
                                .watch(params.watch).buildCall(null),
                CachedDependent.class, CachedDependentList.class);
        informer.setTransform(object -> object instanceof CachedDependent dependent ? dependent.slim() : object);
        factory.startAllRegisteredInformers();
        return new Dependent(client, factory, informer);
    }

    @Override
    public void close() {
        closed = true;
        informers.values().forEach(Dependent::stop);
        informers.clear();
    }

    private record Dependent(ApiClient client, SharedInformerFactory factory, SharedIndexInformer<CachedDependent> informer) {
        void stop() {
            factory.stopAllRegisteredInformers(true);
            OwnedClients.release(client);
        }
    }
}
