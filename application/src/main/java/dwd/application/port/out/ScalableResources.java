package dwd.application.port.out;

import dwd.domain.config.ResourceRef;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The dependents of a shoot in the seed (kube-controller-manager, machine-controller-manager, …):
 * any kind with a scale subresource. Every method fails with {@link ApiFailure}; an unknown kind
 * is {@link ApiFailure.Kind#INVALID} with a message naming it.
 */
public interface ScalableResources {

    /** The resource, or empty when it does not exist. */
    Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout);

    /**
     * Changes annotations with one JSON merge patch: a present value sets the key, an empty one
     * removes it.
     */
    void patchAnnotations(String namespace, ResourceRef ref, Map<String, Optional<String>> changes, Duration timeout);

    /**
     * Sets the replicas of the scale subresource, with optimistic concurrency: the write carries
     * the resourceVersion just read, and a conflict is re-read and retried.
     */
    void scale(String namespace, ResourceRef ref, int replicas, Duration timeout);

    /**
     * The resource as a cache of the seed shows it, when one is kept and holds it: possibly a moment
     * old, so it only ever saves work (a scale-up that finds nothing to do); every write is decided
     * on a {@link #read}. Empty when there is no cache, it has not synced, or it does not hold the
     * resource.
     */
    default Optional<ScalableResource> cached(String namespace, ResourceRef ref) {
        return Optional.empty();
    }

    /**
     * {@code true} when every write is sent with {@code dryRun=All}: the API server checks it as a real
     * one (authorization, admission, validation) and persists nothing. Server-side shadow mode refuses
     * to start on resources that would write for real.
     */
    default boolean dryRunWrites() {
        return false;
    }
}
