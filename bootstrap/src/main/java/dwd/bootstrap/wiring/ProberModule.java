package dwd.bootstrap.wiring;

import dagger.Module;
import dagger.Provides;
import dwd.adapters.k8s.prober.ClusterWatch;
import dwd.adapters.k8s.prober.KubernetesMachines;
import dwd.adapters.k8s.prober.KubernetesScalableResources;
import dwd.adapters.k8s.prober.KubernetesShootClients;
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
    static KubernetesShootClients shootClients(SeedConnection seed) {
        return new KubernetesShootClients(seed);
    }

    @Provides
    @Singleton
    static KubernetesMachines machines(SeedConnection seed) {
        return new KubernetesMachines(seed);
    }

    @Provides
    @Singleton
    static KubernetesScalableResources scalableResources(SeedConnection seed, ShadowMode shadow) {
        // Server-side shadow mode: the same reads, and every write with dryRun=All.
        return shadow.dryRun() == DryRunMode.SERVER ? KubernetesScalableResources.serverDryRun(seed)
                : new KubernetesScalableResources(seed);
    }

    @Provides
    @Singleton
    static ProbeSupervisor supervisor(ProberConfig config, ProberTuning tuning, SystemScheduler scheduler,
            KubernetesShootClients shootClients, KubernetesMachines machines, KubernetesScalableResources resources,
            ProberObserver observer, ShadowMode shadow) {
        ShadowMode.ProberPorts ports = shadow.prober(resources, observer);
        return new ProbeSupervisor(config, tuning, scheduler, shootClients, machines, ports.resources(), ports.observer(),
                new SplittableRandom());
    }

    @Provides
    @Singleton
    static ClusterWatch clusterWatch(SeedConnection seed, ProbeSupervisor supervisor) {
        return new ClusterWatch(seed, supervisor);
    }
}
