package dwd.application.comparison;

import dwd.application.port.in.DependentChanges;
import dwd.application.port.out.Clock;
import dwd.application.port.out.ScalableResource;
import dwd.domain.comparison.Act;
import dwd.domain.comparison.Attribution;
import dwd.domain.comparison.DependentFields;
import dwd.domain.comparison.DependentSnapshot;
import dwd.domain.comparison.EpisodeKind;
import dwd.domain.comparison.OtherChange;
import dwd.domain.comparison.Side;
import dwd.domain.config.ResourceRef;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The shoots' dependents as the original changes them. Each version a watch sees is compared with the one
 * before, and the change attributed ({@link Attribution}): a change of {@code spec.replicas} by the original
 * is its action (a scale-down to 0 in a meltdown, a scale-up from 0 in a recovery) and goes to the
 * {@link Comparison}; a change by anyone else is listed as such and counted as nobody's action.
 *
 * <p>It also keeps each dependent as it would be without the original's writes, the view dwd's shadow mode
 * decides on ({@link #view}): a field the original changed keeps its value from before; a field anyone
 * else changed takes the new value (reality wins, as in shadow mode). Without this, a recovery the
 * original made first would leave dwd nothing to do, and a meltdown it handled first nothing to scale down:
 * dwd's would-be actions would depend on the original's timing, and could not be compared with it.
 *
 * <p>After a restart nothing is remembered; a dependent that the original holds scaled down (at 0, the
 * meltdown annotation, {@code spec.replicas} written by the original) is taken back as the original's
 * scale-down, and the recorded count as its replicas before.
 */
public final class OriginalDependents implements DependentChanges {

    private static final System.Logger LOG = System.getLogger(OriginalDependents.class.getName());

    /** An observation later than the write's recorded time by more than this is dated by the write (a re-list, a restart). */
    static final Duration LATE_OBSERVATION = Duration.ofSeconds(2);

    private record Key(String namespace, String kind, String name) { }

    /** What is known of one dependent: the last version seen and, while they differ, its fields without the original. */
    private record Known(ResourceRef ref, DependentSnapshot last, Optional<DependentFields> withoutOriginal) { }

    private final String originalManager;
    private final Clock clock;
    private final Comparison comparison;
    private final Map<Key, Known> known = new HashMap<>(); // guarded by this

    /** @param originalManager the field manager the original's writes are recorded under */
    public OriginalDependents(String originalManager, Clock clock, Comparison comparison) {
        this.originalManager = originalManager;
        this.clock = clock;
        this.comparison = comparison;
    }

    @Override
    public void dependentChanged(String namespace, ResourceRef ref, DependentSnapshot snapshot) {
        var key = new Key(namespace, ref.kind(), ref.name());
        Known before;
        synchronized (this) {
            before = known.get(key);
        }
        Known after;
        if (before == null || !before.last().uid().equals(snapshot.uid())) {
            after = firstSeen(namespace, ref, snapshot);
        } else {
            after = changed(namespace, before, snapshot);
        }
        synchronized (this) {
            known.put(key, after);
        }
    }

    @Override
    public synchronized void dependentDeleted(String namespace, ResourceRef ref) {
        known.remove(new Key(namespace, ref.kind(), ref.name()));
    }

    /**
     * The dependent as it would be without the original's writes, at its latest version; empty when no watch
     * has shown it (then only a read of the seed tells).
     */
    public Optional<ScalableResource> view(String namespace, ResourceRef ref) {
        Known dependent;
        synchronized (this) {
            dependent = known.get(new Key(namespace, ref.kind(), ref.name()));
        }
        if (dependent == null || !dependent.ref().refersToSameObjectAs(ref)) {
            return Optional.empty();
        }
        DependentFields fields = dependent.withoutOriginal().orElse(dependent.last().fields());
        return Optional.of(new ScalableResource(ref, fields.annotations(), fields.specReplicas(), fields.readyReplicas(),
                dependent.last().version()));
    }

    private Known firstSeen(String namespace, ResourceRef ref, DependentSnapshot snapshot) {
        Optional<Attribution.HeldDown> held = Attribution.heldDownByOriginal(snapshot, originalManager);
        if (held.isEmpty()) {
            return new Known(ref, snapshot, Optional.empty());
        }
        Instant seen = clock.now();
        DependentFields before = held.get().before();
        comparison.acted(Side.ORIGINAL, EpisodeKind.MELTDOWN, namespace, "", new Act(ref.name(), ref.name(),
                before.specReplicas(), 0, held.get().scaledAt().orElse(seen),
                "held at 0 by " + originalManager + " when dwd started", true, order(snapshot)));
        LOG.log(System.Logger.Level.INFO, () -> namespace + ": " + ref.name() + " is held at 0 by " + originalManager
                + " since " + held.get().scaledAt().map(Instant::toString).orElse("an unknown time")
                + "; dwd compares as if it had " + before.specReplicas() + " replicas");
        return new Known(ref, snapshot, Optional.of(before));
    }

    private Known changed(String namespace, Known before, DependentSnapshot next) {
        Attribution attribution = Attribution.of(before.last(), next, originalManager);
        Optional<DependentFields> without = before.withoutOriginal();
        switch (attribution.writer()) {
            case NOBODY -> {
                // Readiness moves with the pods whoever scaled them; without the original, pods would be as before.
            }
            case ORIGINAL -> {
                if (without.isEmpty()) {
                    without = Optional.of(before.last().fields());
                }
                if (attribution.replicasChanged()) {
                    reportOriginal(namespace, before.ref(), before.last().specReplicas(), next, attribution);
                }
            }
            case OTHER, UNKNOWN -> {
                without = without.map(fields -> fields.withChangesOf(next.fields(), attribution.replicasChanged(),
                        attribution.annotationsChanged()));
                if (attribution.replicasChanged()) {
                    comparison.otherChange(new OtherChange(namespace, before.ref().name(), "replicas "
                            + before.last().specReplicas() + "→" + next.specReplicas(), attribution.describeWriters(),
                            clock.now()));
                }
            }
        }
        Optional<DependentFields> stillDifferent = without.filter(fields -> !fields.sameDecisionInputsAs(next.fields()));
        return new Known(before.ref(), next, stillDifferent);
    }

    private void reportOriginal(String namespace, ResourceRef ref, int from, DependentSnapshot next,
            Attribution attribution) {
        int to = next.specReplicas();
        Instant seen = clock.now();
        Instant at = attribution.writtenAt()
                .filter(written -> Duration.between(written, seen).compareTo(LATE_OBSERVATION) > 0)
                .orElse(seen);
        EpisodeKind kind = to < from ? EpisodeKind.MELTDOWN : EpisodeKind.RECOVERY;
        comparison.acted(Side.ORIGINAL, kind, namespace, "", new Act(ref.name(), ref.name(), from, to, at,
                "spec.replicas written by " + attribution.describeWriters(), false, order(next)));
    }

    /**
     * The order of the original's writes: the resourceVersion the API server stored each at (an etcd revision,
     * one sequence for all of them), not when a watch, one per dependent, delivered it; the monotonic clock
     * for a version that is no number.
     */
    private long order(DependentSnapshot snapshot) {
        try {
            return Long.parseLong(snapshot.version());
        } catch (NumberFormatException e) {
            return clock.nanoTime();
        }
    }
}
