package dwd.domain.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.domain.comparison.Attribution.Writer;
import dwd.domain.scaling.Annotations;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AttributionTest {

    private static final String ORIGINAL = "dependency-watchdog";
    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
    private static final Instant T1 = Instant.parse("2026-11-28T10:05:00Z");
    private static final FieldManager CREATOR = new FieldManager("gardenlet", "Update", "", Optional.of(T0), true, Set.of());
    private static final DependentSnapshot HEALTHY = snapshot(3, Map.of(), List.of(CREATOR));

    private static DependentSnapshot snapshot(int replicas, Map<String, String> annotations, List<FieldManager> managers) {
        return new DependentSnapshot("uid-1", replicas, replicas, annotations, managers, "1");
    }

    private static FieldManager scaleBy(String manager, Instant at) {
        return new FieldManager(manager, "Update", "scale", Optional.of(at), true, Set.of());
    }

    private static FieldManager gardenletWithout(boolean replicas) {
        return new FieldManager("gardenlet", "Update", "", Optional.of(T0), replicas, Set.of());
    }

    @Test
    void theOriginalsScaleDownIsItsOwnTheRecordPatchAndTheScaleWriteAlike() {
        var record = new FieldManager(ORIGINAL, "Update", "", Optional.of(T1), false,
                Set.of(Annotations.REPLICAS, Annotations.MELTDOWN_PROTECTION_ACTIVE));
        var annotated = snapshot(3, Map.of(Annotations.REPLICAS, "3", Annotations.MELTDOWN_PROTECTION_ACTIVE, ""),
                List.of(CREATOR, record));
        var scaled = snapshot(0, annotated.annotations(), List.of(gardenletWithout(false), record, scaleBy(ORIGINAL, T1)));

        Attribution patch = Attribution.of(HEALTHY, annotated, ORIGINAL);
        Attribution scale = Attribution.of(annotated, scaled, ORIGINAL);

        assertThat(patch.writer()).isEqualTo(Writer.ORIGINAL);
        assertThat(patch.replicasChanged()).isFalse();
        assertThat(patch.annotationsChanged()).containsExactlyInAnyOrder(Annotations.REPLICAS,
                Annotations.MELTDOWN_PROTECTION_ACTIVE);
        assertThat(scale.writer()).as("gardenlet only lost spec.replicas to the original").isEqualTo(Writer.ORIGINAL);
        assertThat(scale.replicasChanged()).isTrue();
        assertThat(scale.writtenAt()).contains(T1);
    }

    @Test
    void aPersonsKubectlScaleIsSomeoneElses() {
        var scaled = snapshot(2, Map.of(), List.of(gardenletWithout(false), scaleBy("kubectl", T1)));

        Attribution change = Attribution.of(HEALTHY, scaled, ORIGINAL);

        assertThat(change.writer()).isEqualTo(Writer.OTHER);
        assertThat(change.managers()).containsExactly("kubectl");
        assertThat(change.describeWriters()).isEqualTo("kubectl");
    }

    @Test
    void aScaleByAnotherManagerAfterTheOriginalsIsNotTheOriginalsEvenThoughTheOriginalsEntryRemains() {
        var record = new FieldManager(ORIGINAL, "Update", "", Optional.of(T0), false, Set.of(Annotations.REPLICAS));
        var before = snapshot(0, Map.of(Annotations.REPLICAS, "3"), List.of(record, scaleBy(ORIGINAL, T0)));
        var after = snapshot(5, Map.of(Annotations.REPLICAS, "3"), List.of(record, scaleBy("kube-controller-manager", T1)));

        assertThat(Attribution.of(before, after, ORIGINAL).writer()).isEqualTo(Writer.OTHER);
    }

    @Test
    void aStatusUpdateOrAnotherAnnotationChangesNothingTheComparisonFollows() {
        var status = new FieldManager("kube-controller-manager", "Update", "status", Optional.of(T1), false, Set.of());
        var ready = new DependentSnapshot("uid-1", 3, 1, Map.of(), List.of(CREATOR, status), "2");

        assertThat(Attribution.of(HEALTHY, ready, ORIGINAL).writer()).isEqualTo(Writer.NOBODY);
    }

    @Test
    void withinTheSameSecondTheOwnersOfTheChangedFieldsDecide() {
        var scaledDown = snapshot(0, Map.of(Annotations.MELTDOWN_PROTECTION_ACTIVE, ""),
                List.of(new FieldManager(ORIGINAL, "Update", "", Optional.of(T1), false, Set.of(Annotations.MELTDOWN_PROTECTION_ACTIVE)),
                        scaleBy(ORIGINAL, T1)));
        // Scaled up and the annotation removed in the same second: no entry moved.
        var up = snapshot(3, Map.of(), List.of(new FieldManager(ORIGINAL, "Update", "", Optional.of(T1), false, Set.of()),
                scaleBy(ORIGINAL, T1)));

        Attribution change = Attribution.of(scaledDown, up, ORIGINAL);

        assertThat(change.writer()).isEqualTo(Writer.ORIGINAL);
    }

    @Test
    void theOriginalAndSomeoneElseInOneMergedChangeIsUnknown() {
        var merged = snapshot(0, Map.of(Annotations.IGNORE_SCALING, "true"), List.of(gardenletWithout(false),
                scaleBy(ORIGINAL, T1), new FieldManager("kubectl", "Update", "", Optional.of(T1), false,
                        Set.of(Annotations.IGNORE_SCALING))));

        Attribution change = Attribution.of(HEALTHY, merged, ORIGINAL);

        assertThat(change.writer()).isEqualTo(Writer.UNKNOWN);
        assertThat(change.managers()).containsExactly(ORIGINAL, "kubectl");
    }

    @Test
    void whereTheScaleSubresourceLeavesNoWriterTheOriginalsRecordTellsItsScalesFromAPersonsScale() {
        var record = new FieldManager(ORIGINAL, "Update", "", Optional.of(T1), false,
                Set.of(Annotations.REPLICAS, Annotations.MELTDOWN_PROTECTION_ACTIVE));
        Map<String, String> recorded = Map.of(Annotations.REPLICAS, "3", Annotations.MELTDOWN_PROTECTION_ACTIVE, "");
        var annotated = snapshot(3, recorded, List.of(CREATOR, record));
        // The API server stole spec.replicas from gardenlet and recorded no entry for the scale.
        var down = snapshot(0, recorded, List.of(gardenletWithout(false), record));
        var up = snapshot(3, recorded, List.of(gardenletWithout(false), record));
        var otherCount = snapshot(2, recorded, List.of(gardenletWithout(false), record));
        var byHand = snapshot(2, Map.of(), List.of(gardenletWithout(false)));

        assertThat(Attribution.of(annotated, down, ORIGINAL).writer()).as("to 0 from the count just recorded")
                .isEqualTo(Writer.ORIGINAL);
        assertThat(Attribution.of(down, up, ORIGINAL).writer()).as("to the recorded count").isEqualTo(Writer.ORIGINAL);
        assertThat(Attribution.of(down, otherCount, ORIGINAL).writer()).isEqualTo(Writer.UNKNOWN);
        assertThat(Attribution.of(HEALTHY, byHand, ORIGINAL).writer()).isEqualTo(Writer.UNKNOWN);
        assertThat(Attribution.of(HEALTHY, byHand, ORIGINAL).describeWriters()).isEqualTo("an unknown writer");
        assertThat(Attribution.heldDownByOriginal(down, ORIGINAL)).hasValueSatisfying(held ->
                assertThat(held.before().specReplicas()).isEqualTo(3));
    }

    @Test
    void aDependentTheOriginalHoldsDownTellsItsCountBeforeAndWhenItWasScaled() {
        var held = snapshot(0, Map.of(Annotations.REPLICAS, "3", Annotations.MELTDOWN_PROTECTION_ACTIVE, "",
                Annotations.IGNORE_SCALING, "false"), List.of(scaleBy(ORIGINAL, T1)));

        var found = Attribution.heldDownByOriginal(held, ORIGINAL).orElseThrow();

        assertThat(found.before()).isEqualTo(new DependentFields(3, 3, Map.of(Annotations.IGNORE_SCALING, "false")));
        assertThat(found.scaledAt()).contains(T1);
    }

    @Test
    void aDependentAtZeroThatSomeoneElseScaledOrWithoutTheMeltdownAnnotationIsNotHeldDownByTheOriginal() {
        var byHand = snapshot(0, Map.of(Annotations.MELTDOWN_PROTECTION_ACTIVE, ""), List.of(scaleBy("kubectl", T1)));
        var noAnnotation = snapshot(0, Map.of(), List.of(scaleBy(ORIGINAL, T1)));

        assertThat(Attribution.heldDownByOriginal(byHand, ORIGINAL)).isEmpty();
        assertThat(Attribution.heldDownByOriginal(noAnnotation, ORIGINAL)).isEmpty();
        assertThat(Attribution.heldDownByOriginal(HEALTHY, ORIGINAL)).isEmpty();
    }
}
