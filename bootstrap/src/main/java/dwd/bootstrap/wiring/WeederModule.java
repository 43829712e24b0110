package dwd.bootstrap.wiring;

import dagger.Module;
import dagger.Provides;
import dwd.adapters.k8s.weeder.EndpointSliceInformer;
import dwd.adapters.k8s.weeder.KubernetesPodWatches;
import dwd.adapters.k8s.weeder.KubernetesPods;
import dwd.application.leader.LeaderOnly;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.WeederObserver;
import dwd.application.runtime.SystemScheduler;
import dwd.application.shadow.ShadowMode;
import dwd.application.weeder.WeederSupervisor;
import dwd.bootstrap.seed.SeedConnection;
import dwd.domain.config.WeederConfig;
import dwd.domain.dryrun.DryRunMode;
import io.kubernetes.client.openapi.ApiClient;
import jakarta.inject.Singleton;
import java.time.Duration;

/** The weeder's object graph. Watches get their own client with read timeout 0; deletions one with timeouts. */
@Module
public interface WeederModule {

    Duration DELETE_TIMEOUT = Duration.ofSeconds(30);

    @Provides
    @Singleton
    static SystemScheduler scheduler() {
        return new SystemScheduler();
    }

    @Provides
    @Singleton
    static KubernetesPodWatches podWatches(SeedConnection seed) {
        return new KubernetesPodWatches(watchClient(seed), seed.outages());
    }

    @Provides
    @Singleton
    static KubernetesPods pods(SeedConnection seed, ShadowMode shadow) {
        ApiClient client = seed.newClient();
        client.setConnectTimeout((int) DELETE_TIMEOUT.toMillis());
        client.setReadTimeout((int) DELETE_TIMEOUT.toMillis());
        client.setWriteTimeout((int) DELETE_TIMEOUT.toMillis());
        // Server-side shadow mode: every deletion with dryRun=All (and its UID precondition).
        return shadow.dryRun() == DryRunMode.SERVER ? KubernetesPods.serverDryRun(client) : new KubernetesPods(client);
    }

    @Provides
    @Singleton
    static WeederSupervisor supervisor(WeederConfig config, SystemScheduler scheduler, KubernetesPodWatches watches,
            KubernetesPods pods, WeederObserver observer, Leadership leadership, ShadowMode shadow) {
        // Shadow mode decorates the real adapter (server mode needs its dry-run deletes); only the leader deletes,
        // even in shadow mode: a process that lost its lease stops at once, in running weeders too.
        ShadowMode.WeederPorts ports = shadow.weeder(watches, pods, observer);
        return new WeederSupervisor(config, scheduler, ports.podWatches(), LeaderOnly.pods(ports.pods(), leadership),
                ports.observer());
    }

    @Provides
    @Singleton
    static EndpointSliceInformer informer(SeedConnection seed, WeederConfig config, WeederSupervisor supervisor) {
        return new EndpointSliceInformer(watchClient(seed), config.servicesAndDependantSelectors().keySet(), supervisor,
                seed.outages());
    }

    private static ApiClient watchClient(SeedConnection seed) {
        ApiClient client = seed.newClient();
        client.setReadTimeout(0);
        return client;
    }
}
