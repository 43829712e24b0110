package dwd.bootstrap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.bootstrap.bench.VersusTable.Figure;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class VersusTableTest {

    @Test
    void aCellListsTheRepeatsAndTheRatioIsDwdOverTheOriginal() {
        var table = new VersusTable();
        table.add(Implementation.ORIGINAL, 1, List.of(Figure.of("CPU (cores)", 0.20, "%.2f"), Figure.text("load", "1.5")));
        table.add(Implementation.DWD, 1, List.of(Figure.of("CPU (cores)", 0.10, "%.2f"), Figure.text("load", "1.7")));
        table.add(Implementation.ORIGINAL, 2, List.of(Figure.of("CPU (cores)", 0.40, "%.2f"), Figure.text("load", "0.5")));
        table.add(Implementation.DWD, 2, List.of(Figure.of("CPU (cores)", 0.10, "%.2f"), Figure.text("load", "0.9")));

        assertThat(table.render()).contains("| CPU (cores) | 0.20 · 0.40 | 0.10 · 0.10 | 0.50 · 0.25 |")
                .contains("| load | 1.5 · 0.5 | 1.7 · 0.9 |  |");
    }

    @Test
    void aRatioOnBothSidesOfOneIsMarkedAsFlipping() {
        List<Figure> original = List.of(Figure.of("p99", 2.0, "%.1f"), Figure.of("p99", 2.0, "%.1f"));

        assertThat(VersusTable.ratios(original, List.of(Figure.of("p99", 1.0, "%.1f"), Figure.of("p99", 3.0, "%.1f"))))
                .isEqualTo("0.50 · 1.50 **flips**");
        assertThat(VersusTable.ratios(original, List.of(Figure.of("p99", 1.0, "%.1f"), Figure.of("p99", 1.5, "%.1f"))))
                .isEqualTo("0.50 · 0.75");
        assertThat(VersusTable.ratios(original, List.of(Figure.of("p99", Double.NaN, "%.1f"), Figure.of("p99", 1.5, "%.1f"))))
                .isEqualTo("— · 0.75");
    }

    @Test
    void theCrossingBackIsTheRenewalThatTakesTheExpiredFractionBelowTheThreshold() {
        Instant t = Instant.parse("2026-11-27T12:00:00Z");
        // 3 leases, threshold 0.6: after one renewal 2/3 are still expired (scale down), after two 1/3 (scale up)
        assertThat(ProberVersusRun.crossingBack(List.of(t.plusSeconds(7), t.plusSeconds(2), t.plusSeconds(5))))
                .isEqualTo(t.plusSeconds(5));
    }
}
