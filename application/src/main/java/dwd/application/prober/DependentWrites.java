package dwd.application.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Deadline;
import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.domain.config.ResourceRef;
import dwd.domain.scaling.StepDecision.Scale;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What a shoot's scale steps write to its dependents (the original's {@code updateResourceAndScale} and
 * {@code removeMeltdownAnnotations}). Every write is made at the version its decision was taken on,
 * clean-ups included, so a request the network delivers late lands only on the dependent it was decided
 * on and can never erase a replica count recorded since. Each write is given the time its step's
 * {@link StepBudget} allows (a newer verdict never finds an older one's write still on its way); one that
 * got no answer is in doubt ({@link WritesInDoubt}) until the dependent is seen past its version.
 */
final class DependentWrites {

    private final String namespace;
    private final ScalableResources resources;
    private final WritesInDoubt doubts;

    DependentWrites(String namespace, ScalableResources resources, WritesInDoubt doubts) {
        this.namespace = namespace;
        this.resources = resources;
        this.doubts = doubts;
    }

    /**
     * Sends {@code scale}, decided on {@code seen}, so that the recorded count is always the one the
     * scale to 0 replaced, and a scale-up restores the count recorded on what it scales: one write where
     * the kind allows; otherwise a scale-down's record, then its scale at the version the record answered,
     * or a scale-up's scale, then the record's removal at the version the scale answered.
     *
     * @param budget   the step's, which gives each write its time
     * @param onScaled told once the count is written, after the record's removal when that is a write of
     *     its own, even when the removal failed
     * @throws ApiFailure CONFLICT when the dependent changed since it was seen: that write changed nothing
     */
    void scale(ResourceRef ref, ScalableResource seen, Scale scale, StepBudget budget, Runnable onScaled) {
        Deadline end = budget.writesEnd();
        if (resources.scalesInOneWrite(ref)) {
            writeAt(ref, seen.version(), end, budget, (at, within) -> {
                resources.scaleAndAnnotateAt(namespace, ref, at, scale.to(), scale.annotations(), within);
                return at;
            });
            onScaled.run();
        } else if (scale.annotationsFirst()) {
            String recorded = writeAt(ref, seen.version(), end, budget,
                    (at, within) -> resources.patchAnnotationsAt(namespace, ref, at, scale.annotations(), within));
            writeAt(ref, recorded, end, budget, (at, within) -> resources.scaleAt(namespace, ref, at, scale.to(), within));
            onScaled.run();
        } else {
            String scaled = writeAt(ref, seen.version(), end, budget,
                    (at, within) -> resources.scaleAt(namespace, ref, at, scale.to(), within));
            try {
                writeAt(ref, scaled, end, budget,
                        (at, within) -> resources.patchAnnotationsAt(namespace, ref, at, scale.annotations(), within));
            } finally {
                onScaled.run(); // the count is written, whatever became of its record's removal
            }
        }
    }

    /**
     * Sends annotation changes that decide no count (a leftover record's removal, an ignored dependent's
     * meltdown mark), at the version of {@code seen}; none when {@code changes} is empty.
     *
     * @throws ApiFailure CONFLICT when the dependent changed since it was seen: nothing was changed
     */
    void cleanUp(ResourceRef ref, Optional<ScalableResource> seen, Map<String, Optional<String>> changes,
            StepBudget budget) {
        if (!changes.isEmpty()) {
            writeAt(ref, seen.orElseThrow().version(), budget.writesEnd(), budget,
                    (at, within) -> resources.patchAnnotationsAt(namespace, ref, at, changes, within));
        }
    }

    /** One write at a version. */
    @FunctionalInterface
    private interface Write {
        /** Sends the write at {@code version}, to be answered within {@code within}; returns the version after it. */
        String sendAt(String version, Duration within);
    }

    /** Sends {@code write} at {@code version} by {@code end}, and notes whether its outcome is in doubt. */
    private String writeAt(ResourceRef ref, String version, Deadline end, StepBudget budget, Write write) {
        Duration within = budget.forWrite(end);
        try {
            String after = write.sendAt(version, within);
            doubts.landed(ref);
            return after;
        } catch (ApiFailure failure) {
            doubts.failed(ref, version, failure, within);
            throw failure;
        }
    }
}
