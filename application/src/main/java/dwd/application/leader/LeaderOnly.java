package dwd.application.leader;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.EventRecorder;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.Pods;
import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.domain.config.ResourceRef;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Fences the mutating ports: every write first asks {@link Leadership}, so a process that lost
 * its lease stops writing at once, even with flows in flight, while it is still shutting down.
 * Reads pass.
 */
public final class LeaderOnly {

    private LeaderOnly() {
    }

    /** Refuses {@code action} with {@link ApiFailure.Kind#FORBIDDEN} unless leading. */
    public static void require(Leadership leadership, String action) {
        if (!leadership.isLeading()) {
            throw notLeading(action);
        }
    }

    /**
     * {@code resources} whose writes happen only while leading, each within the time leadership is left
     * ({@link Leadership#leadingFor()}): no write is still on its way once a standby may take over.
     */
    public static ScalableResources scalableResources(ScalableResources resources, Leadership leadership) {
        Objects.requireNonNull(resources, "resources");
        Objects.requireNonNull(leadership, "leadership");
        return new ScalableResources() {
            @Override
            public Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout) {
                return resources.read(namespace, ref, timeout);
            }

            @Override
            public Optional<ScalableResource> cached(String namespace, ResourceRef ref) {
                return resources.cached(namespace, ref);
            }

            @Override
            public String patchAnnotationsAt(String namespace, ResourceRef ref, String version,
                    Map<String, Optional<String>> changes, Duration timeout) {
                Duration within = whileLeading(leadership, timeout,
                        "patching annotations of " + ref + " in namespace " + namespace);
                return resources.patchAnnotationsAt(namespace, ref, version, changes, within);
            }

            @Override
            public String scaleAt(String namespace, ResourceRef ref, String version, int replicas, Duration timeout) {
                Duration within = whileLeading(leadership, timeout,
                        "scaling " + ref + " in namespace " + namespace + " to " + replicas);
                return resources.scaleAt(namespace, ref, version, replicas, within);
            }

            @Override
            public boolean scalesInOneWrite(ResourceRef ref) {
                return resources.scalesInOneWrite(ref);
            }

            @Override
            public void scaleAndAnnotateAt(String namespace, ResourceRef ref, String version, int replicas,
                    Map<String, Optional<String>> changes, Duration timeout) {
                Duration within = whileLeading(leadership, timeout,
                        "scaling " + ref + " in namespace " + namespace + " to " + replicas);
                resources.scaleAndAnnotateAt(namespace, ref, version, replicas, changes, within);
            }

            @Override
            public boolean dryRunWrites() {
                return resources.dryRunWrites();
            }
        };
    }

    /**
     * {@code timeout}, cut to the time leadership is left; refuses {@code action} with
     * {@link ApiFailure.Kind#FORBIDDEN} when there is none.
     */
    private static Duration whileLeading(Leadership leadership, Duration timeout, String action) {
        Duration left = leadership.leadingFor();
        if (!left.isPositive()) {
            throw notLeading(action);
        }
        return left.compareTo(timeout) < 0 ? left : timeout;
    }

    private static ApiFailure notLeading(String action) {
        return new ApiFailure(ApiFailure.Kind.FORBIDDEN, action + ": not written: this process is not the leader");
    }

    /** {@code pods} whose deletions happen only while leading (the weeder's only write). */
    public static Pods pods(Pods pods, Leadership leadership) {
        Objects.requireNonNull(pods, "pods");
        Objects.requireNonNull(leadership, "leadership");
        return (namespace, name, uid) -> {
            require(leadership, "deleting pod " + namespace + "/" + name);
            return pods.delete(namespace, name, uid);
        };
    }

    /** {@code events} that are dropped unless leading. */
    public static EventRecorder events(EventRecorder events, Leadership leadership) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(leadership, "leadership");
        return event -> {
            if (leadership.isLeading()) {
                events.record(event);
            }
        };
    }
}
