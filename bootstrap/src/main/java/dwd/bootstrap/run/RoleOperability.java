package dwd.bootstrap.run;

import dwd.adapters.k8s.ClientSideThrottle;
import dwd.adapters.k8s.RequestMetering;
import dwd.adapters.k8s.events.KubernetesEventRecorder;
import dwd.adapters.k8s.leader.KubernetesLeaseStore;
import dwd.adapters.k8s.leader.LeaderElectionTimings;
import dwd.adapters.k8s.leader.LeaderElector;
import dwd.adapters.k8s.leader.LeaderOnlyWrites;
import dwd.adapters.k8s.watch.RunningWatches;
import dwd.adapters.metrics.ApiRequestMetrics;
import dwd.adapters.metrics.CacheMetrics;
import dwd.adapters.metrics.ClientThrottleMetrics;
import dwd.adapters.metrics.HealthMetrics;
import dwd.adapters.metrics.HealthServer;
import dwd.adapters.metrics.MetricsServer;
import dwd.adapters.metrics.ProcessMetrics;
import dwd.application.health.Health;
import dwd.application.health.HealthCheck;
import dwd.application.port.out.Clock;
import dwd.application.port.out.EventRecorder;
import dwd.application.port.out.Leadership;
import dwd.application.runtime.SystemScheduler;
import dwd.bootstrap.logging.LogLevels;
import dwd.bootstrap.seed.SeedConnection;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * What every role runs around its work, the same for the prober and the weeder: identity and user
 * agent, the metrics registry (every series labelled {@code role}) with JVM, process, API-request,
 * leader, health-check and event series, leader election on the role's Lease, Kubernetes Events,
 * {@code /healthz} and {@code /readyz}, {@code /metrics} with the role's status page, and the
 * shutdown hook.
 *
 * <p>Use: {@link #prepare}, build the role's observers and runtime from {@link #seed()},
 * {@link #registry()}, {@link #leadership()} and {@link #events()}, add its liveness checks to
 * {@link #health()}, then {@link #run} until the process stops. The runtime is started only while
 * leading (at once without leader election); losing leadership exits with status 1. {@link #startCompeting()}
 * right after {@link #prepare} lets the election's round trips to the seed overlap the building of the runtime.
 */
public final class RoleOperability {

    /** Recorded events waiting to be written at most; more are dropped. */
    private static final int EVENT_QUEUE = 512;

    /**
     * @param role                {@code prober} or {@code weeder}: logger {@code dwd.<role>}, user agent, messages
     * @param lockName            the Lease's name
     * @param reportingController the Events' reportingController
     * @param version             dwd's version, for the user agent
     * @param election            the election's timings; empty without leader election
     * @param leaseNamespace      where the Lease lives
     * @param metricsAddress      where {@code /metrics} and the status page are served; empty: not served
     * @param healthAddress       where {@code /healthz} and {@code /readyz} are served; empty: not served
     * @param apiTargets          the targets of {@code dwd_api_requests_total} (their throttled series start at 0)
     * @param seedThrottle        the client-side rate limit of the seed's clients (not of leader election, nor of
     *                            what the role exempts with {@link SeedConnection#exemptFromThrottling()})
     */
    public record Settings(String role, String lockName, String reportingController, String version,
                           Optional<LeaderElectionTimings> election, String leaseNamespace,
                           Optional<InetSocketAddress> metricsAddress, Optional<InetSocketAddress> healthAddress,
                           List<String> apiTargets, ClientSideThrottle seedThrottle) {
        public Settings {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(seedThrottle, "seedThrottle");
            apiTargets = List.copyOf(apiTargets);
        }
    }

    private final Settings settings;
    private final Logger log;
    private final Clock clock = Clock.system();
    private final PrometheusMeterRegistry registry = MetricsServer.newRegistry();
    private final ProcessMetrics processMetrics;
    private final ApiRequestMetrics traffic;
    private final SeedConnection seed;
    private final SystemScheduler electorScheduler = SystemScheduler.onPlatformThreads("dwd-election");
    private final LeaderElector elector;
    private final Leadership leadership;
    private final KubernetesEventRecorder events;
    private final Health health = new Health();
    private volatile RoleRuntime runtime;
    /** Counted down once {@link #run} has the runtime that leading starts. */
    private final CountDownLatch runtimeGiven = new CountDownLatch(1);
    private final java.util.concurrent.atomic.AtomicBoolean competing = new java.util.concurrent.atomic.AtomicBoolean();

    private RoleOperability(Settings settings, SeedConnection plainSeed, ProcessIdentity identity) {
        this.settings = settings;
        this.log = LogManager.getLogger("dwd." + settings.role());
        registry.config().commonTags("role", settings.role()); // before any meter: every series says whose it is
        this.processMetrics = new ProcessMetrics(registry);
        this.traffic = new ApiRequestMetrics(registry, settings.apiTargets().toArray(String[]::new));
        String userAgent = "dwd/" + settings.version() + " (" + settings.role() + "; " + identity.identity() + ")";
        var acquisitions = ProcessMetrics.leaderAcquisitions(registry, settings.lockName());
        // Leader election has clients of its own, exempt from the rate limit: a renewal must never wait behind
        // the role's reads, or a busy leader would lose its Lease.
        this.elector = settings.election().map(timings -> new LeaderElector(
                new KubernetesLeaseStore(plainSeed.withOwnTransport().decorated(client -> {
                    client.setUserAgent(userAgent);
                    return RequestMetering.as("leader-election", traffic).apply(client);
                }), settings.leaseNamespace(), settings.lockName(), timings.callTimeout()),
                identity.identity(), timings, electorScheduler, System::nanoTime, new LeaderElector.Listener() {
                    @Override
                    public void startedLeading() {
                        acquisitions.increment();
                        Thread.ofPlatform().name("dwd-start").start(() -> startOrExit());
                    }

                    @Override
                    public void stoppedLeading() {
                        exitAsync("leadership lost; exiting with status 1 so that the orchestrator restarts dwd");
                    }
                }, new SplittableRandom(), plainSeed.outages())).orElse(null);
        this.leadership = elector == null ? Leadership.always() : elector;
        // Every write of the role's seed clients, Events included, is checked for leadership as it leaves,
        // after the rate limit's wait: what was queued before a lost (or paused) leadership is not sent.
        this.seed = plainSeed.decorated(client -> {
            client.setUserAgent(userAgent);
            return RequestMetering.as("seed", traffic).apply(client);
        }).throttledBy(settings.seedThrottle())
                .decorated(LeaderOnlyWrites.of(leadership, settings.leaseNamespace() + "/" + settings.lockName()));
        ClientThrottleMetrics.register(registry, "seed", settings.seedThrottle(), ClientSideThrottle::waitedRequests,
                throttle -> throttle.waited().toNanos() / 1e9);
        RunningWatches caches = plainSeed.watchReports().running();
        caches.onEachResource(resource -> CacheMetrics.age(registry, resource,
                () -> caches.oldest(resource).map(age -> age.toNanos() / 1e9).orElse(Double.NaN)));
        health.addLiveness(WatchLiveness.dead("seed-watches", caches::dead));
        ProcessMetrics.leaderStatus(registry, settings.lockName(), leadership::isLeading);
        this.events = new KubernetesEventRecorder(seed, settings.reportingController(),
                KubernetesEventRecorder.instanceName(identity.host()), EVENT_QUEUE, seed.outages());
        ProcessMetrics.eventCounts(registry, events, KubernetesEventRecorder::written, KubernetesEventRecorder::failed,
                KubernetesEventRecorder::dropped, KubernetesEventRecorder::off);
    }

    /** Sets up everything but the role's work; nothing runs or listens yet (the event writer waits for events). */
    public static RoleOperability prepare(Settings settings, SeedConnection plainSeed) {
        return new RoleOperability(settings, plainSeed, ProcessIdentity.of(System.getenv()));
    }

    /**
     * Starts competing for the Lease now (without leader election, does nothing): leading starts the runtime that
     * {@link #run} is given, once it is given, so the election's first round trips to the seed overlap the building
     * of the runtime rather than follow it.
     */
    public void startCompeting() {
        if (elector != null && competing.compareAndSet(false, true)) {
            elector.start();
        }
    }

    public Clock clock() {
        return clock;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Told about every request: for the role's own clients (e.g. the prober's shoot clients). */
    public ApiRequestMetrics traffic() {
        return traffic;
    }

    /** The seed with this process's user agent, and its requests metered as {@code seed}. */
    public SeedConnection seed() {
        return seed;
    }

    /** Whether this process may write now; fence every write with it. */
    public Leadership leadership() {
        return leadership;
    }

    /** The Event writer; the role fences it with {@code LeaderOnly.events(events(), leadership())}. */
    public EventRecorder events() {
        return events;
    }

    /** The health checks; the role adds its liveness checks before {@link #run}. */
    public Health health() {
        return health;
    }

    /**
     * Serves the endpoints, competes for the Lease (or starts {@code work} at once without election)
     * and returns when the process is asked to stop: 0, or 1 when {@code work} could not start
     * without election. With election, {@code work} starts when leading; a failed start, or losing
     * leadership, exits the process with status 1.
     *
     * @param readinessWithoutElection {@code /readyz}'s check without leader election (caches synced)
     * @param statusPages              the role's JSON pages on the metrics address, by path
     */
    public int run(RoleRuntime work, HealthCheck readinessWithoutElection, Map<String, Supplier<String>> statusPages) {
        this.runtime = work;
        runtimeGiven.countDown();
        if (elector != null) {
            health.addLiveness(ElectionHealth.liveness(elector));
            health.addReadiness(ElectionHealth.readiness(elector, work::isStartedAndSynced));
        } else {
            health.addReadiness(readinessWithoutElection);
        }
        HealthMetrics.register(registry, health);
        Optional<MetricsServer> metrics;
        try {
            metrics = settings.metricsAddress().map(address -> MetricsServer.start(registry, address, statusPages));
        } catch (UncheckedIOException e) {
            stopCompeting();
            return cannotListen(e, "--metrics-bind-addr");
        }
        Optional<HealthServer> healthServer;
        try {
            healthServer = settings.healthAddress().map(address -> HealthServer.start(health, address));
        } catch (UncheckedIOException e) {
            metrics.ifPresent(MetricsServer::close);
            stopCompeting();
            return cannotListen(e, "--health-bind-addr");
        }

        var stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("dwd {}: stop requested, shutting down", settings.role());
            health.markStopping();
            work.close();
            if (elector != null) {
                elector.close(); // after the last write: releasing lets a standby take over at once
            }
            electorScheduler.close();
            events.close();
            metrics.ifPresent(MetricsServer::close);
            healthServer.ifPresent(HealthServer::close);
            processMetrics.close();
            stopped.countDown();
            LogLevels.shutdown();
        }, "dwd-shutdown"));

        if (elector != null) {
            startCompeting();
        } else {
            try {
                work.start();
            } catch (RuntimeException e) {
                couldNotStart(e);
                return 1;
            }
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** A port in use (or an address not of this host): one line naming the flag, and exit status 1. */
    private int cannotListen(UncheckedIOException e, String flag) {
        log.error("dwd {} could not start: {}; choose another address with {} (0 serves nothing)",
                settings.role(), e.getMessage(), flag);
        return 1;
    }

    /** Gives the Lease up (if held) when the process ends before it ran: a standby need not wait for it to expire. */
    private void stopCompeting() {
        if (elector != null && competing.get()) {
            elector.close();
        }
    }

    private void startOrExit() {
        try {
            runtimeGiven.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            runtime.start();
        } catch (RuntimeException e) {
            couldNotStart(e);
            exitAsync("start-up failed while leading; exiting with status 1");
        }
    }

    /** The reason in one line (e.g. a cache that did not sync in time); the stack trace at debug level. */
    private void couldNotStart(RuntimeException e) {
        log.error("dwd {} could not start: {}", settings.role(), e.getMessage());
        log.debug("dwd {} could not start", settings.role(), e);
    }

    /** Exits from a thread of its own: the shutdown hook must not wait for the thread that called exit. */
    private void exitAsync(String why) {
        Thread.ofPlatform().name("dwd-exit").start(() -> {
            log.error("dwd {}: {}", settings.role(), why);
            System.exit(1);
        });
    }
}
