package dwd.domain.cluster;

import dwd.domain.config.GoDuration;
import dwd.domain.lease.NodeCandidacy;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Decides from a {@code Cluster}'s shoot whether its prober should run, and with which per-shoot settings. */
public final class ProbeEligibility {

    static final String MIGRATE = "Migrate";
    static final String RECONCILE = "Reconcile";
    static final String RESTORE = "Restore";
    static final String CREATE = "Create";
    static final String SUCCEEDED = "Succeeded";

    private ProbeEligibility() {
    }

    /**
     * The original's two checks, in its order: first whether to stop ({@code shouldStopProber}), then whether a
     * prober may start ({@code canStartProber}); when neither holds, an existing prober is left running.
     *
     * <ul>
     *   <li>Missing shoot: stop. The original crashes here; without a shoot there is nothing to probe.
     *   <li>Undecodable shoot: leave as is. The original fails the reconcile and retries it without touching the
     *       prober; a shoot that is momentarily unreadable is no reason to drop the protection of a running one.
     * </ul>
     */
    public static Eligibility of(ClusterShoot clusterShoot) {
        return switch (clusterShoot) {
            case ClusterShoot.Present present -> of(present.shoot());
            case ClusterShoot.Undecodable undecodable -> new Eligibility(ProbeAction.LEAVE_AS_IS,
                    "error extracting shoot from cluster: " + undecodable.reason());
            case ClusterShoot.Missing missing -> stop("Cluster has no spec.shoot");
            case null -> stop("Cluster has no spec.shoot");
        };
    }

    private static Eligibility of(Shoot shoot) {
        if (shoot.deletionRequested()) {
            return stop("Cluster has been marked for deletion, existing prober if any will be removed");
        }
        if (shoot.isHibernationEnabled()) {
            return stop("Cluster hibernation is enabled, existing prober if any will be removed");
        }
        Optional<LastOperation> lastOperation = shoot.lastOperation();
        if (lastOperation.map(operation -> operation.type().equals(MIGRATE)).orElse(false)) {
            return stop("Cluster migration is enabled, existing prober if any will be removed");
        }
        if (shoot.workers().isEmpty()) {
            return stop("Cluster does not have any workers, existing prober if any will be removed");
        }
        // Hibernation is known to be off here, so "hibernated" means the shoot is still waking up.
        if (shoot.hibernated()) {
            return leave("Cannot start probe. Cluster is waking up from hibernation");
        }
        if (lastOperation.isEmpty()) {
            return leave("Cannot start probe. Cluster is creation phase");
        }
        LastOperation operation = lastOperation.get();
        if (allowsProbing(operation)) {
            return new Eligibility(ProbeAction.START, "Cluster's last operation is " + operation.type()
                    + (operation.state().isEmpty() ? "" : " " + operation.state()) + ", prober can run");
        }
        return leave("Cannot start probe. Cluster is either in migration/restore or in creation phase");
    }

    /**
     * A reconcile in any state means the shoot was created successfully at least once; a restore or a create
     * must have succeeded, else the control plane may not be fully up and a premature probe could scale it down.
     */
    private static boolean allowsProbing(LastOperation operation) {
        return switch (operation.type()) {
            case RECONCILE -> true;
            case RESTORE, CREATE -> operation.state().equals(SUCCEEDED);
            default -> false;
        };
    }

    /**
     * The unhealthy node condition types per worker pool, in worker order. Only workers with machine-controller-manager
     * settings appear; one without configured conditions gets the defaults. A later worker of the same name wins.
     */
    public static Map<String, List<String>> workerNodeConditions(Shoot shoot) {
        var conditions = new LinkedHashMap<String, List<String>>();
        if (shoot != null) {
            for (Worker worker : shoot.workers()) {
                if (worker.hasMachineControllerManagerSettings()) {
                    conditions.put(worker.name(), worker.nodeConditions().isEmpty()
                            ? NodeCandidacy.DEFAULT_UNHEALTHY_CONDITIONS
                            : worker.nodeConditions());
                }
            }
        }
        return Collections.unmodifiableMap(conditions);
    }

    /**
     * The shoot's own {@code nodeMonitorGracePeriod} if it is positive, else the configured one. A grace period
     * of zero or less would count every lease as expired and scale a healthy shoot down (the original takes it
     * as it is); Gardener refuses one in a Shoot, so one in a Cluster is a mistake, which must not switch the
     * protection off either: the configured grace period applies, and {@link #ignoredSettings} says so.
     */
    public static Duration effectiveGracePeriod(Shoot shoot, Duration configured) {
        if (shoot == null) {
            return configured;
        }
        return shoot.nodeMonitorGracePeriod().filter(Duration::isPositive).orElse(configured);
    }

    /** The shoot's settings that the prober does not use, each with what it uses instead, for a warning. */
    public static List<String> ignoredSettings(Shoot shoot) {
        return shoot.nodeMonitorGracePeriod().filter(grace -> !grace.isPositive())
                .map(grace -> List.of("spec.shoot.spec.kubernetes.kubeControllerManager.nodeMonitorGracePeriod is "
                        + GoDuration.format(grace) + ", not positive: the prober uses its kcmNodeMonitorGraceDuration"
                        + " instead (Gardener refuses such a value in a Shoot; fix the Cluster)"))
                .orElse(List.of());
    }

    private static Eligibility stop(String reason) {
        return new Eligibility(ProbeAction.STOP, reason);
    }

    private static Eligibility leave(String reason) {
        return new Eligibility(ProbeAction.LEAVE_AS_IS, reason);
    }
}
