package dwd.bootstrap.wiring;

import dagger.Module;
import dagger.Provides;
import dwd.adapters.k8s.prober.ClusterWatch;
import dwd.adapters.k8s.prober.KubernetesMachines;
import dwd.adapters.k8s.prober.KubernetesScalableResources;
import dwd.adapters.k8s.prober.KubernetesShootClients;
import dwd.adapters.k8s.RequestMetering;
import dwd.application.leader.LeaderOnly;
import dwd.application.port.out.ApiTraffic;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.ProberObserver;
import dwd.application.prober.ProbeSupervisor;
import dwd.application.prober.ProberTuning;
import dwd.application.runtime.SystemScheduler;
import dwd.bootstrap.seed.SeedConnection;
import dwd.domain.config.ProberConfig;
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
        return new KubernetesShootClients(seed, RequestMetering.as("shoot", traffic));
    }

    @Provides
    @Singleton
    static KubernetesMachines machines(SeedConnection seed) {
        return new KubernetesMachines(seed);
    }

    @Provides
    @Singleton
    static KubernetesScalableResources scalableResources(SeedConnection seed) {
        return new KubernetesScalableResources(seed);
    }

    @Provides
    @Singleton
    static ProbeSupervisor supervisor(ProberConfig config, ProberTuning tuning, SystemScheduler scheduler,
            KubernetesShootClients shootClients, KubernetesMachines machines, KubernetesScalableResources resources,
            ProberObserver observer, Leadership leadership) {
        // Only the leader writes: a process that lost its lease stops scaling at once, flows in flight included.
        return new ProbeSupervisor(config, tuning, scheduler, shootClients, machines,
                LeaderOnly.scalableResources(resources, leadership), observer, new SplittableRandom());
    }

    @Provides
    @Singleton
    static ClusterWatch clusterWatch(SeedConnection seed, ProbeSupervisor supervisor) {
        return new ClusterWatch(seed, supervisor);
    }
}
