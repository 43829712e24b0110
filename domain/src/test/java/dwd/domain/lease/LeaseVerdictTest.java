package dwd.domain.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeaseVerdictTest {

    private static LeaseVerdict verdict(Decision decision, int candidates, int expired, double threshold) {
        double fraction = candidates == 0 ? 0 : (double) expired / candidates;
        return new LeaseVerdict(decision, candidates, expired, fraction, threshold, Map.of(), 0, 0, List.of(),
                Optional.empty());
    }

    @Test
    void summaryComparesFractionWithThreshold() {
        assertThat(verdict(Decision.SCALE_DOWN, 5, 3, 0.6).summary())
                .isEqualTo("5 candidates, 3 expired, fraction 0.60 >= threshold 0.60");
        assertThat(verdict(Decision.SCALE_UP, 4, 1, 0.6).summary())
                .isEqualTo("4 candidates, 1 expired, fraction 0.25 < threshold 0.60");
        assertThat(verdict(Decision.SCALE_UP, 2, 0, 0.6).summary())
                .isEqualTo("2 candidates, 0 expired, fraction 0.00 < threshold 0.60");
    }

    @Test
    void summaryExplainsTooFewCandidates() {
        assertThat(verdict(Decision.SCALE_UP, 0, 0, 0.6).summary()).isEqualTo("0 candidates, 0 expired, no candidate leases");
        assertThat(verdict(Decision.HOLD, 1, 1, 0.6).summary()).isEqualTo("1 candidate, 1 expired, fewer than 2 candidates");
    }

    @Test
    void absentPartsAreEmpty() {
        var verdict = new LeaseVerdict(Decision.SCALE_UP, 0, 0, 0, 0.6, null, 0, 0, null, null);
        assertThat(verdict.excludedNodes()).isEmpty();
        assertThat(verdict.candidateNodesWithoutLease()).isEmpty();
        assertThat(verdict.predictedCrossing()).isEmpty();
        assertThatThrownBy(() -> new LeaseVerdict(null, 0, 0, 0, 0.6, null, 0, 0, null, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("decision");
    }

    @Test
    void excludedNodesKeepTheirOrderAndDropEmptyEntries() {
        var excluded = new LinkedHashMap<String, Set<Exclusion>>();
        excluded.put("z", EnumSet.of(Exclusion.IN_PLACE_UPDATE, Exclusion.NOT_MANAGED_BY_MCM));
        excluded.put("no-reason", Set.of());
        excluded.put("absent-reasons", null);
        excluded.put(null, EnumSet.of(Exclusion.NO_LIVE_MACHINE));
        excluded.put("a", EnumSet.of(Exclusion.NO_LIVE_MACHINE));
        var verdict = new LeaseVerdict(Decision.SCALE_UP, 0, 0, 0, 0.6, excluded, 0, 0, List.of(), Optional.empty());
        assertThat(verdict.excludedNodes()).containsExactly(
                Map.entry("z", Set.of(Exclusion.NOT_MANAGED_BY_MCM, Exclusion.IN_PLACE_UPDATE)),
                Map.entry("a", Set.of(Exclusion.NO_LIVE_MACHINE)));
        assertThat(verdict.excludedNodes().get("z"))
                .containsExactly(Exclusion.NOT_MANAGED_BY_MCM, Exclusion.IN_PLACE_UPDATE);
    }

    @Test
    void verdictIsImmutable() {
        var excluded = new HashMap<String, Set<Exclusion>>();
        excluded.put("a", EnumSet.of(Exclusion.NO_LIVE_MACHINE));
        var withoutLease = new ArrayList<>(List.of("b"));
        var verdict = new LeaseVerdict(Decision.SCALE_UP, 0, 0, 0, 0.6, excluded, 0, 0, withoutLease,
                Optional.of(Instant.EPOCH));
        excluded.clear();
        withoutLease.clear();
        assertThat(verdict.excludedNodes()).containsOnlyKeys("a");
        assertThat(verdict.candidateNodesWithoutLease()).containsExactly("b");
        assertThatThrownBy(() -> verdict.excludedNodes().get("a").add(Exclusion.IN_PLACE_UPDATE))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> verdict.excludedNodes().clear()).isInstanceOf(UnsupportedOperationException.class);
    }
}
