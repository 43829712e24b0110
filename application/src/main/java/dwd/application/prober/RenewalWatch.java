package dwd.application.prober;

import dwd.application.port.out.NodeLeaseWatch;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.Scheduler;
import dwd.application.port.out.ShootApi;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseProbeInput;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.lease.LeaseVerdicts;
import dwd.domain.lease.Machine;
import dwd.domain.lease.Node;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * While a shoot's verdict is scale-down, a watch of its node leases, so that the prober acts on the crossing
 * back as promptly as on the crossing: each change the watch sees is judged at once with the nodes and Machines
 * of the last probe run, and when that verdict is scale-up, {@code crossedBack} asks for a probe run now (which
 * decides, as every run does, on fresh lists). The watch opens with a scale-down verdict and closes once a
 * scale-up is acted on, or with the probe; a healthy shoot has none.
 *
 * <p>Threading: {@link #afterVerdict} and {@link #close} come from the probe loop; the watch's changes arrive on an
 * adapter thread and are judged on a scheduler task, several changes in one judgement.
 */
final class RenewalWatch {

    private static final System.Logger LOG = System.getLogger(RenewalWatch.class.getName());

    private final String namespace;
    private final double failureFraction;
    private final Scheduler scheduler;
    private final ProberObserver observer;
    private final Runnable crossedBack;
    private final AtomicBoolean judgementPending = new AtomicBoolean();

    /** Guarded by this. */
    private NodeLeaseWatch watch;
    /** What the last run read besides the leases, and its settings; guarded by this. */
    private Basis basis;
    private boolean closed;

    /** The last run's nodes and Machines and the shoot's settings: what a lease change is judged with. */
    private record Basis(List<Node> nodes, List<Machine> machines, ShootSettings settings) { }

    RenewalWatch(String namespace, double failureFraction, Scheduler scheduler, ProberObserver observer,
            Runnable crossedBack) {
        this.namespace = namespace;
        this.failureFraction = failureFraction;
        this.scheduler = scheduler;
        this.observer = observer;
        this.crossedBack = crossedBack;
    }

    /**
     * After a run's verdict (not one held after a wall-clock step): a scale-down verdict opens the watch (from the
     * leases {@code shoot} just listed), a scale-up that is acted on closes it; anything else leaves it as it is.
     */
    void afterVerdict(ShootApi shoot, LeaseVerdict verdict, Optional<Decision> action, List<Node> nodes,
            List<Machine> machines, ShootSettings settings) {
        NodeLeaseWatch closing = null;
        boolean opened = false;
        synchronized (this) {
            if (closed) {
                return;
            }
            basis = new Basis(nodes, machines, settings);
            if (verdict.decision() == Decision.SCALE_DOWN && watch == null) {
                watch = shoot.watchNodeLeases(this::changed);
                opened = true;
            } else if (action.orElse(Decision.HOLD) == Decision.SCALE_UP && watch != null) {
                closing = watch;
                watch = null;
                basis = null;
            }
        }
        if (opened) {
            observer.leaseWatchChanged(namespace, true);
        }
        if (closing != null) {
            closing.close();
            observer.leaseWatchChanged(namespace, false);
        }
    }

    /** Whether the leases are watched now. */
    synchronized boolean watching() {
        return watch != null;
    }

    /** Stops watching for good (the probe stops). */
    void close() {
        NodeLeaseWatch closing;
        synchronized (this) {
            closed = true;
            closing = watch;
            watch = null;
            basis = null;
        }
        if (closing != null) {
            closing.close();
            observer.leaseWatchChanged(namespace, false);
        }
    }

    /** Judges the leases again after the run under way: a change it may have missed. */
    void judgeAgain() {
        changed();
    }

    /** The watch saw a change: judged soon, once for every change that comes meanwhile. */
    private void changed() {
        if (judgementPending.compareAndSet(false, true)) {
            scheduler.execute(this::judge);
        }
    }

    private void judge() {
        judgementPending.set(false);
        NodeLeaseWatch current;
        Basis with;
        synchronized (this) {
            current = watch;
            with = basis;
        }
        if (current == null || with == null) {
            return;
        }
        try {
            LeaseVerdict verdict = LeaseVerdicts.decide(new LeaseProbeInput(with.nodes(), with.machines(),
                    current.leases(), with.settings().workerNodeConditions(), with.settings().nodeMonitorGracePeriod(),
                    failureFraction, scheduler.now()));
            if (verdict.decision() == Decision.SCALE_UP) {
                crossedBack.run();
            }
        } catch (RuntimeException unexpected) {
            // The next probe run decides anyway; a bug here must not end anything.
            LOG.log(System.Logger.Level.ERROR, namespace + ": judging the watched leases failed unexpectedly", unexpected);
        }
    }
}
