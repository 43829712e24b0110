package dwd.domain.comparison;

import dwd.domain.internal.NullSafe;
import dwd.domain.scaling.Annotations;
import dwd.domain.scaling.ScaleUpTarget;
import dwd.domain.scaling.ScalingRules;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Who made the change between two versions of a dependent, decided from its {@code managedFields}.
 *
 * <p>The rule: the API server records each write under its field manager (the request's
 * {@code fieldManager}, else its user agent up to the first {@code /}; the original sends neither, so its
 * writes are recorded under its binary's name, {@code dependency-watchdog}). A write that changes fields
 * updates its manager's entry: the entry appears, takes ownership of the fields it set, or gets a new
 * {@code time}. So the writers of a change are the entries that appeared, gained fields or were re-timed
 * with it; an entry that only lost fields lost them to the writer. The change is the original's when its
 * manager is the only writer, someone else's when the original's manager is none of them, and unknown when
 * both wrote (versions that a watch's re-list merged). Where no entry moved (a second write of one manager
 * within the same second), the owners of the changed fields decide: of the values set, in the new version;
 * of the annotations removed, in the old one. Where a scale left no writer at all (an API server that records
 * no entry for writes through the scale subresource), it is the original's when it does what the original's
 * meltdown record asks ({@link #followsOriginalsRecord}), and unknown otherwise.
 *
 * <p>Limits: anyone who writes under the original's manager name (another binary called
 * {@code dependency-watchdog}, {@code kubectl --field-manager=dependency-watchdog}) is taken for the
 * original; {@code time} has a resolution of one second; where the scale subresource leaves no writer, a
 * person who scales a dependent the original holds down to exactly its recorded count is taken for the original.
 *
 * @param writer             who made the change
 * @param managers           the managers that wrote, sorted
 * @param writtenAt          the latest {@code time} of their entries (to the second); empty when none is known
 * @param replicasChanged    {@code spec.replicas} changed
 * @param annotationsChanged the dwd annotations set, changed or removed
 */
public record Attribution(Writer writer, Set<String> managers, Optional<Instant> writtenAt, boolean replicasChanged,
                          Set<String> annotationsChanged) {

    /** Who made a change. */
    public enum Writer {
        /** Nothing the comparison follows changed (a status update, another annotation). */
        NOBODY,
        /** The original dependency-watchdog. */
        ORIGINAL,
        /** Anyone else: a person's {@code kubectl scale}, gardenlet, an autoscaler. */
        OTHER,
        /** The original and someone else, or no entry tells. */
        UNKNOWN
    }

    public Attribution {
        Objects.requireNonNull(writer, "writer");
        managers = Collections.unmodifiableSortedSet(new TreeSet<>(Objects.requireNonNullElse(managers, Set.of())));
        writtenAt = NullSafe.optional(writtenAt);
        annotationsChanged = Collections.unmodifiableSortedSet(
                new TreeSet<>(Objects.requireNonNullElse(annotationsChanged, Set.of())));
    }

    /**
     * Who changed {@code previous} into {@code next}.
     *
     * @param originalManager the original's field manager, {@code dependency-watchdog} as Gardener deploys it
     */
    public static Attribution of(DependentSnapshot previous, DependentSnapshot next, String originalManager) {
        boolean replicas = previous.specReplicas() != next.specReplicas();
        Set<String> annotations = changedAnnotations(previous.annotations(), next.annotations());
        if (!replicas && annotations.isEmpty()) {
            return new Attribution(Writer.NOBODY, Set.of(), Optional.empty(), false, Set.of());
        }
        List<FieldManager> writers = next.managers().stream().filter(entry -> wrote(entry, previous.managers())).toList();
        if (writers.isEmpty()) {
            writers = owners(previous, next, replicas, annotations);
        }
        if (writers.isEmpty() && replicas && followsOriginalsRecord(previous, next, originalManager)) {
            return new Attribution(Writer.ORIGINAL, Set.of(originalManager), Optional.empty(), true, annotations);
        }
        Set<String> names = writers.stream().map(FieldManager::manager).collect(Collectors.toCollection(TreeSet::new));
        Optional<Instant> at = writers.stream().flatMap(entry -> entry.time().stream()).max(Instant::compareTo);
        Writer writer = names.isEmpty() ? Writer.UNKNOWN
                : names.equals(Set.of(originalManager)) ? Writer.ORIGINAL
                : names.contains(originalManager) ? Writer.UNKNOWN
                : Writer.OTHER;
        return new Attribution(writer, names, at, replicas, annotations);
    }

    /**
     * The original holds this dependent scaled down, as a meltdown of its left it: at 0 replicas, with the
     * meltdown annotation, {@code spec.replicas} last written by the original. What it was before (the
     * recorded count; dwd's annotations without the two the scale-down wrote) and when the scale was
     * written; empty otherwise. How a restarted comparison picks up a meltdown it did not see begin.
     */
    public static Optional<HeldDown> heldDownByOriginal(DependentSnapshot snapshot, String originalManager) {
        if (snapshot.specReplicas() != 0 || !snapshot.annotations().containsKey(Annotations.MELTDOWN_PROTECTION_ACTIVE)) {
            return Optional.empty();
        }
        Optional<FieldManager> owner = snapshot.managers().stream().filter(FieldManager::ownsReplicas).findFirst();
        Optional<FieldManager> recorder = snapshot.managers().stream()
                .filter(entry -> entry.ownedAnnotations().contains(Annotations.MELTDOWN_PROTECTION_ACTIVE)).findFirst();
        // spec.replicas written by the original; or by no one on record, the meltdown record being the original's.
        boolean theOriginals = owner.map(entry -> entry.manager().equals(originalManager))
                .orElse(recorder.filter(entry -> entry.manager().equals(originalManager)).isPresent());
        if (!theOriginals) {
            return Optional.empty();
        }
        owner = owner.or(() -> recorder);
        int recorded = ScalingRules.scaleUpTarget(snapshot.annotations(), "") instanceof ScaleUpTarget.Replicas target
                ? target.replicas() : ScalingRules.DEFAULT_SCALE_UP_REPLICAS;
        var before = new HashMap<>(snapshot.annotations());
        before.remove(Annotations.MELTDOWN_PROTECTION_ACTIVE);
        before.remove(Annotations.REPLICAS);
        return Optional.of(new HeldDown(new DependentFields(recorded, recorded, before), owner.get().time()));
    }

    /**
     * A scale that left no writer is the original's when it does what the original's own record asks: to 0
     * from the count its record just noted, or from 0 to the recorded count while its meltdown annotation is
     * on, the record owned by its manager. (The kube-apiserver 1.36.3 of the tests records no entry for a
     * write through the scale subresource; it takes {@code spec.replicas} from its owner and gives it to no one.)
     */
    private static boolean followsOriginalsRecord(DependentSnapshot previous, DependentSnapshot next, String originalManager) {
        Map<String, String> record = previous.annotations();
        boolean recordIsTheOriginals = previous.managers().stream().anyMatch(entry -> entry.manager().equals(originalManager)
                && entry.ownedAnnotations().contains(Annotations.MELTDOWN_PROTECTION_ACTIVE));
        if (!recordIsTheOriginals || !record.containsKey(Annotations.MELTDOWN_PROTECTION_ACTIVE)) {
            return false;
        }
        String recorded = record.getOrDefault(Annotations.REPLICAS, String.valueOf(ScalingRules.DEFAULT_SCALE_UP_REPLICAS));
        if (next.specReplicas() == 0) {
            return recorded.equals(String.valueOf(previous.specReplicas()));
        }
        return previous.specReplicas() == 0 && recorded.equals(String.valueOf(next.specReplicas()));
    }

    /** A dependent the original holds scaled down: its fields before, and when it was scaled. */
    public record HeldDown(DependentFields before, Optional<Instant> scaledAt) { }

    /** Whether {@code entry} wrote with this change: it is new, gained a field, or has a new time. */
    private static boolean wrote(FieldManager entry, List<FieldManager> before) {
        Optional<FieldManager> earlier = before.stream().filter(entry::sameEntryAs).findFirst();
        if (earlier.isEmpty()) {
            return true;
        }
        FieldManager was = earlier.get();
        return !entry.time().equals(was.time()) || (entry.ownsReplicas() && !was.ownsReplicas())
                || !was.ownedAnnotations().containsAll(entry.ownedAnnotations());
    }

    /** The owners of the changed fields: of values set, in {@code next}; of annotations removed, in {@code previous}. */
    private static List<FieldManager> owners(DependentSnapshot previous, DependentSnapshot next, boolean replicas,
            Set<String> annotations) {
        return java.util.stream.Stream.concat(
                next.managers().stream().filter(entry -> (replicas && entry.ownsReplicas())
                        || annotations.stream().anyMatch(key -> next.annotations().containsKey(key)
                                && entry.ownedAnnotations().contains(key))),
                previous.managers().stream().filter(entry -> annotations.stream()
                        .anyMatch(key -> !next.annotations().containsKey(key) && entry.ownedAnnotations().contains(key))))
                .toList();
    }

    private static Set<String> changedAnnotations(Map<String, String> before, Map<String, String> after) {
        var keys = new TreeSet<>(before.keySet());
        keys.addAll(after.keySet());
        keys.removeIf(key -> Objects.equals(before.get(key), after.get(key)));
        return keys;
    }

    /** {@code kubectl}, or {@code gardenlet, kubectl}; {@code an unknown writer} when none is known. */
    public String describeWriters() {
        return managers.isEmpty() ? "an unknown writer" : String.join(", ", managers);
    }
}
