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
            throw new ApiFailure(ApiFailure.Kind.FORBIDDEN, action + ": not written: this process is not the leader");
        }
    }

    /** {@code resources} whose writes happen only while leading. */
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
                require(leadership, "patching annotations of " + ref + " in namespace " + namespace);
                return resources.patchAnnotationsAt(namespace, ref, version, changes, timeout);
            }

            @Override
            public String scaleAt(String namespace, ResourceRef ref, String version, int replicas, Duration timeout) {
                require(leadership, "scaling " + ref + " in namespace " + namespace + " to " + replicas);
                return resources.scaleAt(namespace, ref, version, replicas, timeout);
            }

            @Override
            public boolean scalesInOneWrite(ResourceRef ref) {
                return resources.scalesInOneWrite(ref);
            }

            @Override
            public void scaleAndAnnotateAt(String namespace, ResourceRef ref, String version, int replicas,
                    Map<String, Optional<String>> changes, Duration timeout) {
                require(leadership, "scaling " + ref + " in namespace " + namespace + " to " + replicas);
                resources.scaleAndAnnotateAt(namespace, ref, version, replicas, changes, timeout);
            }

            @Override
            public boolean dryRunWrites() {
                return resources.dryRunWrites();
            }
        };
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
