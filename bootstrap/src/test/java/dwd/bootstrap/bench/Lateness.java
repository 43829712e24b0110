package dwd.bootstrap.bench;

import dwd.bootstrap.prober.PrometheusText;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Percentiles of the prober's probe lateness ({@code dwd_probe_lateness_seconds}) between two scrapes. */
final class Lateness {

    static final String HISTOGRAM = "dwd_probe_lateness_seconds";

    private Lateness() {
    }

    /** The smallest bucket bound that holds at least {@code q} of the runs between the scrapes, in seconds; NaN without runs. */
    static double bound(PrometheusText after, PrometheusText before, double q) {
        double count = after.sum(HISTOGRAM + "_count", Map.of()) - before.sum(HISTOGRAM + "_count", Map.of());
        var buckets = new TreeMap<Double, Double>();
        for (PrometheusText.Sample sample : after.find(HISTOGRAM + "_bucket", Map.of())) {
            String le = sample.labels().get("le");
            if (!le.equals("+Inf")) {
                Map<String, String> labels = Map.of("le", le);
                buckets.put(Double.parseDouble(le),
                        after.sum(HISTOGRAM + "_bucket", labels) - before.sum(HISTOGRAM + "_bucket", labels));
            }
        }
        for (var bucket : buckets.entrySet()) {
            if (count > 0 && bucket.getValue() >= q * count) {
                return bucket.getKey();
            }
        }
        return count > 0 ? Double.POSITIVE_INFINITY : Double.NaN;
    }

    /** {@link #bound} as the reports print it: {@code ≤ 50 ms}, {@code ≤ 1 s}, {@code > 30 s}. */
    static String quantile(PrometheusText after, PrometheusText before, double q) {
        double bound = bound(after, before, q);
        if (Double.isNaN(bound)) {
            return "n/a";
        }
        if (Double.isInfinite(bound)) {
            return "> 30 s";
        }
        return bound < 1 ? String.format(Locale.ROOT, "≤ %.0f ms", bound * 1000) : String.format(Locale.ROOT, "≤ %.0f s", bound);
    }
}
