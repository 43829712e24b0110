package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ScalableResource;
import dwd.domain.config.ResourceRef;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A shoot's scale writes whose outcome is unknown: no answer came within the write's deadline, or
 * its connection broke. The request may still be on its way and land later; it was made at the
 * dependent's version then, so it can land only while the dependent is still at that version. Until
 * the dependent is seen past that version (the write landed, or anything else changed it, which
 * makes the late write a conflict), a decision to send nothing must not be taken on it: the write
 * could still undo it. A decision that writes is safe (its own version check races the late write,
 * and whichever lands second is refused).
 *
 * <p>A doubt lasts at most as long again as the write's deadline: a request the network holds for
 * longer than that is taken as lost.
 */
final class WritesInDoubt {

    /**
     * A write made at {@code version} at {@code since} that may still land, until {@code until}.
     *
     * @param deadline the write's own deadline, which it did not answer within
     */
    record Doubt(String version, Instant since, Duration deadline, AtomicBoolean noticed) {
        Doubt(String version, Instant since, Duration deadline) {
            this(version, since, deadline, new AtomicBoolean());
        }

        Instant until() {
            return since.plus(deadline);
        }

        /** True the first time only: a wait on this doubt is logged once at INFO. */
        boolean noticeOnce() {
            return noticed.compareAndSet(false, true);
        }
    }

    private final Map<ResourceRef, Doubt> doubts = new ConcurrentHashMap<>();

    /** Whether {@code failure} leaves a write's outcome unknown: no answer, or a broken connection or server. */
    static boolean outcomeUnknown(ApiFailure failure) {
        return failure.is(ApiFailure.Kind.TIMEOUT) || failure.is(ApiFailure.Kind.UNAVAILABLE);
    }

    /** A write of {@code ref} at {@code version} failed at {@code now} after a deadline of {@code deadline}. */
    void failed(ResourceRef ref, String version, ApiFailure failure, Instant now, Duration deadline) {
        if (version != null && outcomeUnknown(failure)) {
            doubts.put(ref, new Doubt(version, now, deadline));
        }
    }

    /** A write of {@code ref} landed: a write in doubt before it can no longer land. */
    void landed(ResourceRef ref) {
        doubts.remove(ref);
    }

    /** {@code ref} as read now: past the version in doubt, or gone, ends the doubt. */
    void seen(ResourceRef ref, Optional<ScalableResource> seen) {
        doubts.computeIfPresent(ref, (key, doubt) ->
                seen.isEmpty() || !seen.get().version().equals(doubt.version()) ? null : doubt);
    }

    /** The doubt about {@code ref}, if a write of it is in doubt. */
    Optional<Doubt> of(ResourceRef ref) {
        return Optional.ofNullable(doubts.get(ref));
    }

    /** The doubt's time is over: the write is taken as lost. */
    void expired(ResourceRef ref, Doubt doubt) {
        doubts.remove(ref, doubt);
    }
}
