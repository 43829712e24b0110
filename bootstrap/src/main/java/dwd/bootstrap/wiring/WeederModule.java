package dwd.bootstrap.wiring;

import dagger.Module;
import dagger.Provides;
import dwd.adapters.k8s.NoDelaySockets;
import dwd.adapters.k8s.weeder.EndpointSliceWatch;
import dwd.adapters.k8s.weeder.KubernetesPodWatches;
import dwd.adapters.k8s.weeder.KubernetesPods;
import dwd.application.comparison.ComparisonMode;
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
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * The weeder's object graph. The EndpointSlice watch and the pod watches share one client with
 * read timeout 0; deletions have a client with timeouts that shares its connections.
 */
@Module
public interface WeederModule {

    Duration DELETE_TIMEOUT = Duration.ofSeconds(30);
    String WATCHES = "weeder-watches";

    @Provides
    @Singleton
    static SystemScheduler scheduler() {
        return new SystemScheduler();
    }

    /**
     * The client of every watch: the EndpointSlice watch keeps its connection open for good, so the pod
     * watches and deletions a weeder starts, often hours later, find it there (HTTP/2 carries them
     * all on it) instead of each opening and TLS-handshaking a connection of its own first.
     */
    @Provides
    @Singleton
    @Named(WATCHES)
    static ApiClient watchClient(SeedConnection seed) {
        // Without Nagle: on this long-lived connection a DELETE's body would wait for a delayed ACK (~40 ms).
        ApiClient client = NoDelaySockets.applyTo(seed.newClient());
        client.setReadTimeout(0);
        return client;
    }

    @Provides
    @Singleton
    static KubernetesPodWatches podWatches(@Named(WATCHES) ApiClient watchClient, SeedConnection seed) {
        return new KubernetesPodWatches(watchClient, seed.watchReports());
    }

    @Provides
    @Singleton
    static KubernetesPods pods(SeedConnection seed, @Named(WATCHES) ApiClient watchClient, ShadowMode shadow) {
        ApiClient client = seed.newClient();
        // The watch client's OkHttp client (so its connections), with bounded timeouts.
        client.setHttpClient(watchClient.getHttpClient().newBuilder()
                .connectTimeout(DELETE_TIMEOUT)
                .readTimeout(DELETE_TIMEOUT)
                .writeTimeout(DELETE_TIMEOUT)
                .build());
        // Server-side shadow mode: every deletion with dryRun=All (and its UID precondition).
        return shadow.dryRun() == DryRunMode.SERVER ? KubernetesPods.serverDryRun(client) : new KubernetesPods(client);
    }

    @Provides
    @Singleton
    static WeederSupervisor supervisor(WeederConfig config, SystemScheduler scheduler, KubernetesPodWatches watches,
            KubernetesPods pods, WeederObserver observer, Leadership leadership, ShadowMode shadow,
            ComparisonMode comparison) {
        // Shadow mode decorates the real adapter (server mode needs its dry-run deletes); only the leader deletes,
        // even in shadow mode: a process that lost its lease stops at once, in running weeders too. Beside the
        // original, the shadow watches the pods as they would be without the original's deletions.
        ShadowMode.WeederPorts ports = shadow.weeder(comparison.podWatches(watches), pods, observer);
        return new WeederSupervisor(config, scheduler, ports.podWatches(), LeaderOnly.pods(ports.pods(), leadership),
                ports.observer());
    }

    @Provides
    @Singleton
    static EndpointSliceWatch sliceWatch(@Named(WATCHES) ApiClient watchClient, SeedConnection seed,
            WeederConfig config, WeederSupervisor supervisor) {
        return new EndpointSliceWatch(watchClient, config.servicesAndDependantSelectors().keySet(), supervisor,
                seed.watchReports());
    }
}
