package dwd.bootstrap.run;

import dwd.adapters.k8s.ConcurrencyBound;
import dwd.adapters.k8s.prober.ClusterWatch;
import dwd.adapters.k8s.prober.KubernetesMachines;
import dwd.adapters.k8s.prober.KubernetesScalableResources;
import dwd.adapters.k8s.prober.KubernetesShootClients;
import dwd.application.prober.ProbeSupervisor;
import dwd.application.runtime.SystemScheduler;
import dwd.domain.config.DependentResourceInfo;
import dwd.domain.config.ProberConfig;
import jakarta.inject.Inject;
import java.time.Duration;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The running prober: starts its parts in dependency order and stops them in reverse. Machines
 * are synced before the first Cluster event, so that no probe ever sees an empty Machine cache, and the
 * dependents' watches have listed (or {@link KubernetesScalableResources#FIRST_LIST_WAIT} has passed), so
 * that the healthy shoots' first checks find them filled.
 */
public final class ProberRuntime implements RoleRuntime {

    private static final Logger LOG = LogManager.getLogger();
    private static final Duration SYNC_TIMEOUT = Duration.ofMinutes(2);

    private final SystemScheduler scheduler;
    private final KubernetesMachines machines;
    private final ClusterWatch clusterWatch;
    private final ProbeSupervisor supervisor;
    private final KubernetesShootClients shootClients;
    private final KubernetesScalableResources resources;
    private final ProberConfig config;

    @Inject
    ProberRuntime(SystemScheduler scheduler, KubernetesMachines machines, ClusterWatch clusterWatch,
            ProbeSupervisor supervisor, KubernetesShootClients shootClients, KubernetesScalableResources resources,
            ProberConfig config) {
        this.config = config;
        this.scheduler = scheduler;
        this.machines = machines;
        this.clusterWatch = clusterWatch;
        this.supervisor = supervisor;
        this.shootClients = shootClients;
        this.resources = resources;
    }

    private volatile boolean started;

    /** Starts watching; returns once the Machine and Cluster caches are synced. */
    @Override
    public void start() {
        started = true;
        machines.start();
        Readiness.await(scheduler, "the Machine cache", SYNC_TIMEOUT, machines::hasSynced);
        awaitDependentCaches();
        clusterWatch.start();
        Readiness.await(scheduler, "the Cluster cache", SYNC_TIMEOUT, clusterWatch::hasSynced);
        LOG.info("prober running; probing " + supervisor.probedNamespaces().size() + " shoots");
    }

    private void awaitDependentCaches() {
        try {
            if (!resources.awaitDependentCaches(config.dependentResourceInfos().stream()
                    .map(DependentResourceInfo::ref).toList())) {
                LOG.info("the dependents' caches have not listed within " + KubernetesScalableResources.FIRST_LIST_WAIT
                        .toSeconds() + "s; scale checks read the seed until they have");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether it was started and its Machine and Cluster caches are synced (readiness). */
    @Override
    public boolean isStartedAndSynced() {
        return started && machines.hasSynced() && clusterWatch.hasSynced();
    }

    /** The bound on scale requests at the seed at once (its waits are metered). */
    public ConcurrencyBound scaleRequestBound() {
        return resources.requestBound();
    }

    public ProbeSupervisor supervisor() {
        return supervisor;
    }

    /**
     * Stops: no new Cluster events, probes stop and running flows stop at their next safe point,
     * in-flight calls finish within their timeouts, then the clients are released.
     */
    @Override
    public void close() {
        clusterWatch.close();
        supervisor.close();
        scheduler.close();
        machines.close();
        shootClients.close();
        resources.close();
        LOG.info("prober stopped");
    }
}
