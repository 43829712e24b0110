package dwd.application.prober;

import dwd.application.port.in.ClusterEvents;
import dwd.application.port.out.Deadline;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.Machines;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ScalableResources;
import dwd.application.port.out.Scheduler;
import dwd.application.port.out.ShootClients;
import dwd.domain.cluster.ClusterShoot;
import dwd.domain.cluster.Eligibility;
import dwd.domain.cluster.ProbeEligibility;
import dwd.domain.config.ProberConfig;
import dwd.domain.time.SaturatingTime;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.random.RandomGenerator;

/**
 * Keeps exactly one probe per eligible shoot as Cluster objects come, change and go. Each
 * namespace's probe is created, updated and removed inside one atomic map operation, so
 * concurrent events for the same shoot can never leave two probes running.
 */
public final class ProbeSupervisor implements ClusterEvents, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ProbeSupervisor.class.getName());

    private final ProberConfig config;
    private final ProberTuning tuning;
    private final Scheduler scheduler;
    private final ShootClients shootClients;
    private final Machines machines;
    private final ScalableResources resources;
    private final ProberObserver observer;
    private final RandomGenerator random;
    private final Leadership leadership;
    private final WallClockSteps wallClockSteps;
    private final ConcurrentHashMap<String, ShootProbe> probes = new ConcurrentHashMap<>();
    /** The earliest the next probe's first run may come, on the monotonic clock; guarded by this. */
    private Deadline nextFirstRunSlot = Deadline.NONE;
    /** The last reason a shoot could not be decided, so that a broken Cluster is logged once, not on every event. */
    private final ConcurrentHashMap<String, String> lastProblem = new ConcurrentHashMap<>();

    /** A supervisor that always leads (a single replica without leader election). */
    public ProbeSupervisor(ProberConfig config, ProberTuning tuning, Scheduler scheduler, ShootClients shootClients,
            Machines machines, ScalableResources resources, ProberObserver observer, RandomGenerator random) {
        this(config, tuning, scheduler, shootClients, machines, resources, observer, random, Leadership.always());
    }

    /**
     * @param resources  whose writes are fenced by {@code leadership} ({@code LeaderOnly})
     * @param leadership the time leadership is left bounds every scale write's deadline ({@link StepBudget})
     */
    public ProbeSupervisor(ProberConfig config, ProberTuning tuning, Scheduler scheduler, ShootClients shootClients,
            Machines machines, ScalableResources resources, ProberObserver observer, RandomGenerator random,
            Leadership leadership) {
        this.config = config;
        this.tuning = tuning;
        this.scheduler = scheduler;
        this.shootClients = shootClients;
        this.machines = machines;
        this.resources = resources;
        this.observer = observer;
        this.random = random;
        this.leadership = leadership;
        this.wallClockSteps = new WallClockSteps(scheduler, config.probeInterval(), observer);
    }

    @Override
    public void clusterChanged(String namespace, ClusterShoot shoot) {
        Eligibility eligibility = ProbeEligibility.of(shoot);
        reportProblem(namespace, shoot);
        probes.compute(namespace, (ns, existing) -> switch (eligibility.action()) {
            case STOP -> {
                if (existing != null) {
                    existing.close(eligibility.reason());
                }
                yield null;
            }
            case START -> {
                ShootSettings settings = settingsOf(shoot).orElseThrow();
                if (existing != null) {
                    existing.update(settings);
                    yield existing;
                }
                ShootProbe probe = newProbe(ns, settings);
                probe.start(firstRunDelay());
                yield probe;
            }
            case LEAVE_AS_IS -> {
                if (existing != null) {
                    settingsOf(shoot).ifPresent(existing::update);
                } else {
                    LOG.log(System.Logger.Level.DEBUG, () -> ns + ": not probing: " + eligibility.reason());
                }
                yield existing;
            }
        });
    }

    @Override
    public void clusterDeleted(String namespace) {
        lastProblem.remove(namespace);
        ShootProbe removed = probes.remove(namespace);
        if (removed != null) {
            removed.close("Cluster deleted");
        }
    }

    /** The shoot namespaces being probed, sorted. */
    public Set<String> probedNamespaces() {
        return new TreeSet<>(probes.keySet());
    }

    /** The settings a running probe uses now, for tests and the status endpoint. */
    Optional<ShootSettings> settingsOfProbe(String namespace) {
        return Optional.ofNullable(probes.get(namespace)).map(ShootProbe::settings);
    }

    @Override
    public void close() {
        for (Map.Entry<String, ShootProbe> entry : probes.entrySet()) {
            if (probes.remove(entry.getKey(), entry.getValue())) {
                entry.getValue().close("prober shutting down");
            }
        }
    }

    /**
     * The initial delay, or more when other probes started just before: first runs are spaced by
     * {@link ProberTuning#firstRunSpacing()}. A prober starting on a seed of 10,000 shoots would
     * otherwise open 10,000 connections and build 10,000 clients within the seconds the Clusters'
     * first list takes, and starve its own Lease renewal; at the default spacing (10 ms), 300 shoots
     * start within 3 s and 10,000 within 100 s.
     */
    private synchronized Duration firstRunDelay() {
        Duration delay = config.initialDelay();
        Duration untilFreeSlot = nextFirstRunSlot.remaining(scheduler);
        if (untilFreeSlot.compareTo(delay) > 0) {
            delay = untilFreeSlot;
        }
        nextFirstRunSlot = Deadline.in(scheduler, SaturatingTime.plus(delay, tuning.firstRunSpacing()));
        return delay;
    }

    private ShootProbe newProbe(String namespace, ShootSettings settings) {
        var scaler = new ResourceScaler(namespace, resources, scheduler, tuning, observer, leadership);
        return new ShootProbe(namespace, config, tuning, settings, scheduler, shootClients, machines, scaler,
                observer, random, wallClockSteps);
    }

    private Optional<ShootSettings> settingsOf(ClusterShoot shoot) {
        return shoot instanceof ClusterShoot.Present present
                ? Optional.of(ShootSettings.of(present.shoot(), config.kcmNodeMonitorGraceDuration()))
                : Optional.empty();
    }

    private void reportProblem(String namespace, ClusterShoot shoot) {
        String problem = switch (shoot) {
            case ClusterShoot.Present ignored -> null;
            case ClusterShoot.Missing ignored -> "Cluster has no spec.shoot";
            case ClusterShoot.Undecodable undecodable -> "spec.shoot cannot be decoded: " + undecodable.reason();
        };
        if (problem == null) {
            String mended = lastProblem.remove(namespace);
            if (mended != null) {
                LOG.log(System.Logger.Level.INFO, namespace + ": the Cluster is usable again (was: " + mended + ")");
            }
        } else if (!problem.equals(lastProblem.put(namespace, problem))) {
            String consequence = shoot instanceof ClusterShoot.Missing
                    ? "the shoot is not probed" : "a running probe is left as it is, none is started";
            LOG.log(System.Logger.Level.WARNING, namespace + ": " + problem + " (" + consequence
                    + "; fix the Cluster object to probe it)");
        }
    }
}
