package dwd.application.port.out;

import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the prober does, reported as it happens: for logs, metrics, Kubernetes events and the
 * status endpoint. Implementations must be fast and must not throw.
 */
public interface ProberObserver {

    /** Which part of a probe run failed. */
    enum ProbeStage { API_SERVER, LEASES }

    /** How a scale flow ended. */
    enum FlowOutcome { COMPLETED, FAILED, CANCELLED }

    /** A shoot's probe starts; its first run comes {@code firstRunIn} from now (on the monotonic clock). */
    default void probeStarted(String shootNamespace, Duration firstRunIn) { }

    default void probeStopped(String shootNamespace, String reason) { }

    /**
     * A probe run starts, {@code lateness} after the instant it was scheduled for (zero when on time):
     * how well the prober keeps its schedule under load.
     */
    default void probeRunStarted(String shootNamespace, Duration lateness) { }

    default void probeSucceeded(String shootNamespace, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) { }

    default void probeFailed(String shootNamespace, ProbeStage stage, ApiFailure failure, Instant nextProbe) { }

    /** The shoot's node leases are watched from now on ({@code watching}), while its verdict is scale-down, or no longer. */
    default void leaseWatchChanged(String shootNamespace, boolean watching) { }

    /** Watched leases crossed back: the next probe run comes now rather than on its schedule. */
    default void probeBroughtForward(String shootNamespace) { }

    /**
     * The wall clock stepped by {@code step} (positive: forward) against the monotonic clock: lease
     * verdicts of every shoot are held for {@code heldFor}. Reported once per step, not per shoot.
     */
    default void wallClockStepped(Duration step, Duration heldFor) { }

    default void flowStarted(String shootNamespace, ScaleDirection direction, LeaseVerdict cause) { }

    /** A resource was scaled: {@code from} → {@code to} replicas. */
    default void resourceScaled(String shootNamespace, ScaleDirection direction, ResourceRef ref, int from, int to,
            LeaseVerdict cause) { }

    /** A resource needed nothing, or was skipped (missing optional resource, ignore-scaling). */
    default void resourceSkipped(String shootNamespace, ScaleDirection direction, ResourceRef ref, String reason) { }

    default void resourceFailed(String shootNamespace, ScaleDirection direction, ResourceRef ref, String reason) { }

    default void flowFinished(String shootNamespace, ScaleDirection direction, FlowOutcome outcome) { }
}
