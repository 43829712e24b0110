package dwd.bootstrap.run;

import dwd.adapters.k8s.weeder.EndpointSliceInformer;
import dwd.adapters.k8s.weeder.KubernetesPodWatches;
import dwd.application.health.HealthCheck;
import dwd.application.port.out.Clock;
import dwd.application.runtime.SystemScheduler;
import dwd.application.weeder.WeederSupervisor;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;

/**
 * The running weeder: the EndpointSlice informer feeds the supervisor, which runs weeders with
 * pod watches. Stops in reverse: no new slice events, weeders stop and close their watches, then
 * the scheduler finishes in-flight deletions.
 */
public final class WeederRuntime implements RoleRuntime {

    private static final System.Logger LOG = System.getLogger(WeederRuntime.class.getName());
    /** Beyond the longest watch: the longest back-off after a failure (30 s plus jitter) and a slow list. */
    static final Duration INFORMER_SLACK = Duration.ofMinutes(1);

    private final SystemScheduler scheduler;
    private final KubernetesPodWatches podWatches;
    private final WeederSupervisor supervisor;
    private final EndpointSliceInformer informer;
    private volatile Instant startedAt;

    @Inject
    WeederRuntime(SystemScheduler scheduler, KubernetesPodWatches podWatches, WeederSupervisor supervisor,
            EndpointSliceInformer informer) {
        this.scheduler = scheduler;
        this.podWatches = podWatches;
        this.supervisor = supervisor;
        this.informer = informer;
    }

    /** Starts watching EndpointSlices; returns once the informer has synced. */
    @Override
    public void start() {
        startedAt = scheduler.now();
        informer.start();
        Readiness.await(scheduler, "the EndpointSlice cache", Duration.ofMinutes(2), informer::hasSynced);
        LOG.log(System.Logger.Level.INFO, "weeder running; " + supervisor.knownServices() + " configured services seen");
    }

    @Override
    public boolean isStartedAndSynced() {
        return startedAt != null && informer.hasSynced();
    }

    public WeederSupervisor supervisor() {
        return supervisor;
    }

    /**
     * Liveness of the EndpointSlice informer ({@code endpointslice-informer}): it starts a list or
     * watch at least every {@link EndpointSliceInformer#LONGEST_WATCH} while it works, and every
     * second while it fails; none for longer (plus slack) means it hangs, e.g. on a dead connection.
     * Passes before the start (a standby runs no informer).
     */
    public HealthCheck informerLiveness(Clock clock) {
        return InformerLiveness.of("endpointslice-informer", clock, () -> startedAt, informer::lastListOrWatch,
                EndpointSliceInformer.LONGEST_WATCH.plus(INFORMER_SLACK));
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
