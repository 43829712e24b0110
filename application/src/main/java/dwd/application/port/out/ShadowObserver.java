package dwd.application.port.out;

import dwd.domain.config.ResourceRef;
import dwd.domain.dryrun.DryRunMode;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.weeding.PodState;
import java.util.List;
import java.util.Objects;

/**
 * What shadow mode ({@code --dry-run=client|server}) did instead of changing the seed: each
 * would-be change, reported once, with the API server's answer in server mode. For logs, metrics
 * and the status endpoint; never for Kubernetes Events, which are writes too. Implementations must
 * be fast and must not throw; they may be called from several threads.
 */
public interface ShadowObserver {

    /** How one would-be write was answered. */
    sealed interface Answer {

        /** Client dry-run: the write was not sent. */
        record NotSent() implements Answer { }

        /** Server dry-run: the API server accepted the write (and persisted nothing). */
        record Accepted() implements Answer { }

        /**
         * Server dry-run: the API server refused the write, so the real one would fail the same way.
         * A finding for the operator.
         *
         * @param kind   how it was refused (FORBIDDEN, CONFLICT, NOT_FOUND, INVALID, UNAUTHORIZED)
         * @param reason the server's answer, naming the resource
         */
        record Refused(ApiFailure.Kind kind, String reason) implements Answer {
            public Refused {
                Objects.requireNonNull(kind, "kind");
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    /**
     * One would-be request.
     *
     * @param change what it would change, e.g. {@code scale to 0 replicas}
     */
    record Write(String change, Answer answer) {
        public Write {
            Objects.requireNonNull(change, "change");
            Objects.requireNonNull(answer, "answer");
        }
    }

    /**
     * A dependent the prober would have scaled, with its writes in the order they would have been sent
     * (scale-down: annotations, then scale; scale-up: scale, then annotations).
     */
    record WouldScale(DryRunMode mode, String namespace, ScaleDirection direction, ResourceRef ref, int from, int to,
                      List<Write> writes, LeaseVerdict cause) {
        public WouldScale {
            writes = List.copyOf(writes);
        }

        /** The writes the API server refused; empty when it would all have worked (or nothing was sent). */
        public List<Answer.Refused> findings() {
            return ShadowObserver.findings(writes);
        }
    }

    /** Annotations the prober would have changed without scaling (a leftover meltdown annotation removed). */
    record WouldAnnotate(DryRunMode mode, String namespace, ResourceRef ref, List<Write> writes) {
        public WouldAnnotate {
            writes = List.copyOf(writes);
        }

        public List<Answer.Refused> findings() {
            return ShadowObserver.findings(writes);
        }
    }

    /** A crash-looping pod the weeder would have deleted (with its UID as precondition). */
    record WouldDelete(DryRunMode mode, String namespace, String service, PodState pod, Answer answer) {
        public WouldDelete {
            Objects.requireNonNull(answer, "answer");
        }
    }

    default void wouldScale(WouldScale action) { }

    default void wouldAnnotate(WouldAnnotate action) { }

    default void wouldDelete(WouldDelete action) { }

    private static List<Answer.Refused> findings(List<Write> writes) {
        return writes.stream()
                .map(Write::answer)
                .filter(Answer.Refused.class::isInstance)
                .map(Answer.Refused.class::cast)
                .toList();
    }
}
