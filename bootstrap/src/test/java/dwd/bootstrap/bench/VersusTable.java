package dwd.bootstrap.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The side-by-side table of {@code make bench-versus}: one row per figure, a column per implementation and the
 * ratio dwd / original. With repeats, a cell lists every repeat's figure in order ({@code a · b}); a ratio that is
 * below 1 in one repeat and above it in another is marked as flipping.
 */
final class VersusTable {

    /** One figure of one run: a number (NaN when it could not be measured) or a text. */
    record Figure(String row, double value, String format, String text) {

        static Figure of(String row, double value, String format) {
            return new Figure(row, value, format, null);
        }

        static Figure text(String row, String text) {
            return new Figure(row, Double.NaN, null, text);
        }

        boolean numeric() {
            return text == null;
        }

        String formatted() {
            return !numeric() ? text : Double.isNaN(value) ? "—" : String.format(Locale.ROOT, format, value);
        }
    }

    private final Map<Implementation, List<List<Figure>>> runs = new EnumMap<>(Implementation.class);

    /** Adds one run's figures of {@code implementation} (the next repeat's, or more rows of the current one). */
    void add(Implementation implementation, int repeat, List<Figure> figures) {
        List<List<Figure>> repeats = runs.computeIfAbsent(implementation, i -> new ArrayList<>());
        while (repeats.size() < repeat) {
            repeats.add(new ArrayList<>());
        }
        repeats.get(repeat - 1).addAll(figures);
    }

    String render() {
        Map<String, Boolean> rows = new LinkedHashMap<>();
        runs.values().forEach(repeats -> repeats.forEach(figures -> figures.forEach(f -> rows.putIfAbsent(f.row(), f.numeric()))));
        var table = new StringBuilder("| Figure | original | dwd | dwd / original |\n|---|---|---|---|\n");
        rows.forEach((row, numeric) -> {
            List<Figure> original = column(Implementation.ORIGINAL, row);
            List<Figure> dwd = column(Implementation.DWD, row);
            table.append("| ").append(row).append(" | ").append(cell(original)).append(" | ").append(cell(dwd)).append(" | ")
                    .append(numeric ? ratios(original, dwd) : "").append(" |\n");
        });
        return table.toString();
    }

    private List<Figure> column(Implementation implementation, String row) {
        var figures = new ArrayList<Figure>();
        for (List<Figure> repeat : runs.getOrDefault(implementation, List.of())) {
            repeat.stream().filter(f -> f.row().equals(row)).findFirst().ifPresent(figures::add);
        }
        return figures;
    }

    private static String cell(List<Figure> figures) {
        return figures.isEmpty() ? "—" : String.join(" · ", figures.stream().map(Figure::formatted).toList());
    }

    /** dwd / original per repeat, and whether the two swap places between repeats. */
    static String ratios(List<Figure> original, List<Figure> dwd) {
        var ratios = new ArrayList<String>();
        boolean below = false;
        boolean above = false;
        for (int i = 0; i < Math.min(original.size(), dwd.size()); i++) {
            double ratio = dwd.get(i).value() / original.get(i).value();
            if (Double.isNaN(ratio) || Double.isInfinite(ratio)) {
                ratios.add("—");
                continue;
            }
            below |= ratio < 1;
            above |= ratio > 1;
            ratios.add(String.format(Locale.ROOT, ratio >= 100 ? "%.0f" : ratio >= 10 ? "%.1f" : "%.2f", ratio));
        }
        String joined = ratios.isEmpty() ? "—" : String.join(" · ", ratios);
        return below && above ? joined + " **flips**" : joined;
    }
}
