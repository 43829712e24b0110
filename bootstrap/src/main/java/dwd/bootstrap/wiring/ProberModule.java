package dwd.bootstrap.wiring;

import dagger.Module;
import dagger.Provides;
import dwd.adapters.k8s.prober.ClusterWatch;
import dwd.adapters.k8s.prober.KubernetesMachines;
import dwd.adapters.k8s.prober.KubernetesScalableResources;
import dwd.adapters.k8s.prober.KubernetesShootClients;
import dwd.adapters.k8s.RequestMetering;
import dwd.application.comparison.ComparisonMode;
import dwd.application.leader.LeaderOnly;
import dwd.application.port.out.ApiTraffic;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.ProberObserver;
import dwd.application.prober.ProbeSupervisor;
import dwd.application.prober.ProberTuning;
import dwd.application.runtime.SystemScheduler;
import dwd.application.shadow.ShadowMode;
import dwd.bootstrap.seed.SeedConnection;
import dwd.domain.config.ProberConfig;
import dwd.domain.dryrun.DryRunMode;
import jakarta.inject.Singleton;
import java.util.SplittableRandom;

/** The prober's object graph: core services are built here, so the core stays annotation-free. */
@Module
public interface ProberModule {

    @Provides
    @Singleton
    static SystemScheduler scheduler() {
        return new SystemScheduler();
    }

    @Provides
    @Singleton
    static KubernetesShootClients shootClients(SeedConnection seed, ApiTraffic traffic) {
        return new KubernetesShootClients(seed, RequestMetering.as("shoot", traffic), seed.watchReports());
    }

    @Provides
    @Singleton
    static KubernetesMachines machines(SeedConnection seed) {
        return new KubernetesMachines(seed, seed.watchReports());
    }

    @Provides
    @Singleton
    static KubernetesScalableResources scalableResources(SeedConnection seed, ShadowMode shadow) {
        // Exempt from --kube-api-qps, as the original's scale client is: a seed-wide meltdown's scale-downs
        // must never queue behind watches and reads. Server-side shadow mode: the same reads, and every
        // write with dryRun=All.
        SeedConnection scaling = seed.exemptFromThrottling();
        return shadow.dryRun() == DryRunMode.SERVER ? KubernetesScalableResources.serverDryRun(scaling, seed.watchReports())
                : new KubernetesScalableResources(scaling, seed.watchReports());
    }

    @Provides
    @Singleton
    static ProbeSupervisor supervisor(ProberConfig config, ProberTuning tuning, SystemScheduler scheduler,
            KubernetesShootClients shootClients, KubernetesMachines machines, KubernetesScalableResources resources,
            ProberObserver observer, Leadership leadership, ShadowMode shadow, ComparisonMode comparison) {
        // Shadow mode decorates the real adapter (server mode needs it to send dry-run writes); only the leader
        // writes, even in shadow mode: a process that lost its lease stops at once, flows in flight included.
        // Beside the original, the shadow sees the dependents as they would be without the original's writes.
        ShadowMode.ProberPorts ports = shadow.prober(comparison.resources(resources), observer);
        return new ProbeSupervisor(config, tuning, scheduler, shootClients, machines,
                LeaderOnly.scalableResources(ports.resources(), leadership), ports.observer(), new SplittableRandom(),
                leadership);
    }

    @Provides
    @Singleton
    static ClusterWatch clusterWatch(SeedConnection seed, ProbeSupervisor supervisor) {
        return new ClusterWatch(seed, supervisor, seed.watchReports());
    }
}
