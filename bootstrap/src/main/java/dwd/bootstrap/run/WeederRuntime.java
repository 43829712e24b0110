package dwd.bootstrap.run;

import dwd.adapters.k8s.weeder.EndpointSliceWatch;
import dwd.adapters.k8s.weeder.KubernetesPodWatches;
import dwd.adapters.k8s.weeder.KubernetesPods;
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
    /**
     * How often the reaction is rehearsed after the start: past the JIT's thresholds (200 calls for C1), so that a
     * warm process's deletions run compiled code, not the interpreter, when a service recovers hours later.
     */
    static final int WARM_UP_ROUNDS = 400;

    private final WeederConfig config;
    private final SystemScheduler scheduler;
    private final KubernetesPodWatches podWatches;
    private final KubernetesPods pods;
    private final WeederSupervisor supervisor;
    private final EndpointSliceWatch slices;
    /** When {@link #start()} began, on the monotonic clock; null before. */
    private volatile Long startedAtNanos;
    private volatile boolean stopping;

    @Inject
    WeederRuntime(WeederConfig config, SystemScheduler scheduler, KubernetesPodWatches podWatches, KubernetesPods pods,
            WeederSupervisor supervisor, EndpointSliceWatch slices) {
        this.config = config;
        this.scheduler = scheduler;
        this.podWatches = podWatches;
        this.pods = pods;
        this.supervisor = supervisor;
        this.slices = slices;
    }

    /**
     * Starts watching EndpointSlices and returns once the slices' watch has synced; beside it, rehearses the
     * reaction {@link #WARM_UP_ROUNDS} times (so that the first real one finds its code loaded, and compiled).
     */
    @Override
    public void start() {
        startedAtNanos = scheduler.nanoTime();
        Thread.ofVirtual().name("dwd-weeder-warm-up").start(this::warmUp);
        slices.start();
        Readiness.await(scheduler, "the EndpointSlice cache", Duration.ofMinutes(2), slices::hasSynced);
        LOG.info("weeder running; " + supervisor.knownServices() + " configured services seen");
    }

    /** The reaction's code, run with ports that touch nothing (application and adapters), until the JIT compiled it. */
    private void warmUp() {
        long started = System.nanoTime();
        try {
            for (int round = 0; round < WARM_UP_ROUNDS && !stopping; round++) {
                WeederRehearsal.run(config);
                podWatches.rehearse();
                pods.rehearse();
            }
            LOG.debug(() -> "weeder reaction rehearsed " + WARM_UP_ROUNDS + " times in "
                    + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms, beside the work (nothing watched"
                    + " or deleted)");
        } catch (RuntimeException unexpected) {
            LOG.debug("rehearsing the weeder reaction failed; it only warms code up", unexpected);
        }
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
        stopping = true;
        slices.close();
        supervisor.close();
        podWatches.close();
        scheduler.close();
        LOG.info("weeder stopped");
    }
}
