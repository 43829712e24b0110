package dwd.bootstrap.run;

import dwd.adapters.k8s.weeder.EndpointSliceInformer;
import dwd.adapters.k8s.weeder.KubernetesPodWatches;
import dwd.application.runtime.SystemScheduler;
import dwd.application.weeder.WeederSupervisor;
import jakarta.inject.Inject;
import java.time.Duration;

/**
 * The running weeder: the EndpointSlice informer feeds the supervisor, which runs weeders with
 * pod watches. Stops in reverse: no new slice events, weeders stop and close their watches, then
 * the scheduler finishes in-flight deletions.
 */
public final class WeederRuntime implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(WeederRuntime.class.getName());

    private final SystemScheduler scheduler;
    private final KubernetesPodWatches podWatches;
    private final WeederSupervisor supervisor;
    private final EndpointSliceInformer informer;

    @Inject
    WeederRuntime(SystemScheduler scheduler, KubernetesPodWatches podWatches, WeederSupervisor supervisor,
            EndpointSliceInformer informer) {
        this.scheduler = scheduler;
        this.podWatches = podWatches;
        this.supervisor = supervisor;
        this.informer = informer;
    }

    /** Starts watching EndpointSlices; returns once the informer has synced. */
    public void start() {
        informer.start();
        Readiness.await(scheduler, "the EndpointSlice cache", Duration.ofMinutes(2), informer::hasSynced);
        LOG.log(System.Logger.Level.INFO, "weeder running; " + supervisor.knownServices() + " configured services seen");
    }

    public WeederSupervisor supervisor() {
        return supervisor;
    }

    @Override
    public void close() {
        informer.close();
        supervisor.close();
        podWatches.close();
        scheduler.close();
        LOG.log(System.Logger.Level.INFO, "weeder stopped");
    }
}
