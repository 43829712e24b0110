package dwd.bootstrap.run;

import dwd.adapters.k8s.weeder.EndpointSliceWatch;
import dwd.adapters.k8s.weeder.KubernetesPodWatches;
import dwd.application.health.HealthCheck;
import dwd.application.runtime.SystemScheduler;
import dwd.application.weeder.WeederRehearsal;
import dwd.application.weeder.WeederSupervisor;
import dwd.domain.config.WeederConfig;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The running weeder: the EndpointSlice watch feeds the supervisor, which runs weeders with
 * pod watches. Stops in reverse: no new slice events, weeders stop and close their watches, then
 * the scheduler finishes in-flight deletions.
 */
public final class WeederRuntime implements RoleRuntime {

    private static final Logger LOG = LogManager.getLogger();
    /** Beyond the longest watch: the longest back-off after a failure (30 s plus jitter) and a slow list. */
    static final Duration WATCH_SLACK = Duration.ofMinutes(1);

    private final WeederConfig config;
    private final SystemScheduler scheduler;
    private final KubernetesPodWatches podWatches;
    private final WeederSupervisor supervisor;
    private final EndpointSliceWatch slices;
    /** When {@link #start()} began, on the monotonic clock; null before. */
    private volatile Long startedAtNanos;

    @Inject
    WeederRuntime(WeederConfig config, SystemScheduler scheduler, KubernetesPodWatches podWatches,
            WeederSupervisor supervisor, EndpointSliceWatch slices) {
        this.config = config;
        this.scheduler = scheduler;
        this.podWatches = podWatches;
        this.supervisor = supervisor;
        this.slices = slices;
    }

    /**
     * Rehearses the reaction (so that the first real one finds its code loaded), then starts watching
     * EndpointSlices; returns once the slices' watch has synced.
     */
    @Override
    public void start() {
        startedAtNanos = scheduler.nanoTime();
        long rehearsal = System.nanoTime();
        WeederRehearsal.run(config);
        LOG.debug(() -> "weeder reaction rehearsed in "
                + Duration.ofNanos(System.nanoTime() - rehearsal).toMillis() + " ms (nothing watched or deleted)");
        slices.start();
        Readiness.await(scheduler, "the EndpointSlice cache", Duration.ofMinutes(2), slices::hasSynced);
        LOG.info("weeder running; " + supervisor.knownServices() + " configured services seen");
    }

    @Override
    public boolean isStartedAndSynced() {
        return startedAtNanos != null && slices.hasSynced();
    }

    public WeederSupervisor supervisor() {
        return supervisor;
    }

    /**
     * Liveness of the EndpointSlice watch ({@code endpointslice-informer}, a name kept for the alerts
     * and dashboards that use it): it starts a list or
     * watch at least every {@link EndpointSliceWatch#LONGEST_WATCH} while it works, and every
     * second while it fails; none for longer (plus slack) means it hangs, e.g. on a dead connection.
     * Passes before the start (a standby runs no watch).
     */
    public HealthCheck sliceWatchLiveness() {
        return WatchLiveness.of("endpointslice-informer",
                () -> Optional.ofNullable(startedAtNanos).map(started -> Duration.ofNanos(scheduler.nanoTime() - started)),
                slices::sinceLastListOrWatch, EndpointSliceWatch.LONGEST_WATCH.plus(WATCH_SLACK));
    }

    @Override
    public void close() {
        slices.close();
        supervisor.close();
        podWatches.close();
        scheduler.close();
        LOG.info("weeder stopped");
    }
}
