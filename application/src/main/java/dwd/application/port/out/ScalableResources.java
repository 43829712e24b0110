package dwd.application.port.out;

import dwd.domain.config.ResourceRef;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The dependents of a shoot in the seed (kube-controller-manager, machine-controller-manager, …):
 * any kind with a scale subresource. Every method fails with {@link ApiFailure}; an unknown kind
 * is {@link ApiFailure.Kind#INVALID} with a message naming it.
 *
 * <p>Every write is made "at" a {@linkplain ScalableResource#version version}: it lands only if the
 * resource has not changed since it was seen at that version, and fails with {@link ApiFailure.Kind#CONFLICT}
 * (changing nothing) otherwise. So a decision taken on a copy that may be old (a cache's) is never
 * applied to a resource that has moved on, and a write the network delivers late cannot undo a later one.
 */
public interface ScalableResources {

    /** The resource, or empty when it does not exist. */
    Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout);

    /**
     * Changes annotations with one JSON merge patch, only if the resource is still at {@code version}: a
     * present value sets the key, an empty one removes it.
     *
     * @return the resource's version after the patch, at which the next write can be made
     * @throws ApiFailure CONFLICT when the resource has changed since {@code version}
     */
    String patchAnnotationsAt(String namespace, ResourceRef ref, String version, Map<String, Optional<String>> changes,
            Duration timeout);

    /**
     * Sets the replicas of the scale subresource, only if the resource is still at {@code version}
     * (the scale subresource shares its object's version).
     *
     * @return the resource's version after the write, at which the next write can be made
     * @throws ApiFailure CONFLICT when the resource has changed since {@code version}
     */
    String scaleAt(String namespace, ResourceRef ref, String version, int replicas, Duration timeout);

    /**
     * Whether {@code ref}'s kind {@linkplain #scaleAndAnnotateAt scales and annotates in one write}:
     * its replica count is its own {@code spec.replicas} (Deployments, StatefulSets). Otherwise the
     * annotations and the scale are separate writes.
     */
    default boolean scalesInOneWrite(ResourceRef ref) {
        return false;
    }

    /**
     * Sets the replicas and changes the annotations in one write, only if the resource is still at
     * {@code version}. One write cannot leave a scale without its record or a record without its
     * scale, and a meltdown's scale-downs send half the writes.
     *
     * @throws ApiFailure CONFLICT when the resource has changed since {@code version}
     * @throws IllegalArgumentException for a kind that does not {@linkplain #scalesInOneWrite scale in one write}
     */
    default void scaleAndAnnotateAt(String namespace, ResourceRef ref, String version, int replicas,
            Map<String, Optional<String>> changes, Duration timeout) {
        throw new IllegalArgumentException(ref + " does not scale and annotate in one write");
    }

    /**
     * The resource as a cache of the seed shows it, when one is kept and holds it: possibly a moment
     * old, so it only ever saves work: a step that finds nothing to do, a write made {@linkplain
     * #patchAnnotationsAt at} its version (which a change since turns into a conflict), a readiness
     * check. Empty when there is no cache, it has not synced or not proven itself alive lately, it
     * does not hold the resource, or its copy is not yet at or past this process's last write of it.
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
