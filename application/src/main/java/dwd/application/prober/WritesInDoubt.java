package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Clock;
import dwd.application.port.out.Deadline;
import dwd.application.port.out.ScalableResource;
import dwd.domain.config.ResourceRef;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A shoot's writes whose outcome is unknown: no answer came within the write's deadline, or its
 * connection broke. The request may still be on its way and land later; it was made at the
 * dependent's version then, so it can land only while the dependent is still at that version. Until
 * the dependent is seen past that version (the write landed, or anything else changed it, which
 * makes the late write a conflict), a decision that scales nothing must not be taken on it: the write
 * could still undo it. A decision that scales is safe (its own version check races the late write,
 * and whichever lands second is refused).
 *
 * <p>A doubt lasts at most as long again as the write's deadline, on the monotonic clock: a request the
 * network holds for longer than that is taken as lost.
 */
final class WritesInDoubt {

    /**
     * A write made at {@code version} that may still land, until {@code until}.
     *
     * @param deadline the write's own deadline, which it did not answer within
     */
    record Doubt(String version, Deadline until, Duration deadline, AtomicBoolean noticed) {
        Doubt(String version, Deadline until, Duration deadline) {
            this(version, until, deadline, new AtomicBoolean());
        }

        /** True the first time only: a wait on this doubt is logged once at INFO. */
        boolean noticeOnce() {
            return noticed.compareAndSet(false, true);
        }
    }

    private final Clock clock;
    private final Map<ResourceRef, Doubt> doubts = new ConcurrentHashMap<>();

    WritesInDoubt(Clock clock) {
        this.clock = clock;
    }

    /** Whether {@code failure} leaves a write's outcome unknown: no answer, or a broken connection or server. */
    static boolean outcomeUnknown(ApiFailure failure) {
        return failure.is(ApiFailure.Kind.TIMEOUT) || failure.is(ApiFailure.Kind.UNAVAILABLE);
    }

    /** A write of {@code ref} at {@code version}, sent with a deadline of {@code deadline}, failed just now. */
    void failed(ResourceRef ref, String version, ApiFailure failure, Duration deadline) {
        Objects.requireNonNull(version, "version");
        if (outcomeUnknown(failure)) {
            doubts.put(ref, new Doubt(version, Deadline.in(clock, deadline), deadline));
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
