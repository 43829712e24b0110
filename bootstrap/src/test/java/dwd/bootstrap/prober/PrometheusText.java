package dwd.bootstrap.prober;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A parsed scrape in the Prometheus text format: every sample with its labels (the weeder's ITs read it too). */
public record PrometheusText(List<Sample> samples) {

    public record Sample(String name, Map<String, String> labels, double value) { }

    public static PrometheusText parse(String text) {
        var samples = new ArrayList<Sample>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            String name;
            var labels = new LinkedHashMap<String, String>();
            if (brace >= 0 && brace < space) {
                name = line.substring(0, brace);
                String body = line.substring(brace + 1, line.lastIndexOf('}'));
                int i = 0;
                while (i < body.length()) {
                    int eq = body.indexOf('=', i);
                    String key = body.substring(i, eq).trim();
                    int start = eq + 2; // past ="
                    var value = new StringBuilder();
                    int j = start;
                    while (body.charAt(j) != '"') {
                        if (body.charAt(j) == '\\') {
                            j++;
                        }
                        value.append(body.charAt(j));
                        j++;
                    }
                    labels.put(key, value.toString());
                    i = j + 1;
                    if (i < body.length() && body.charAt(i) == ',') {
                        i++;
                    }
                }
            } else {
                name = line.substring(0, space);
            }
            samples.add(new Sample(name, labels, value(line.substring(space + 1))));
        }
        return new PrometheusText(samples);
    }

    /** A sample value; the text format spells infinities as Go does. */
    private static double value(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }

    /** The samples named {@code name} whose labels include all of {@code labels}. */
    public List<Sample> find(String name, Map<String, String> labels) {
        return samples.stream()
                .filter(sample -> sample.name().equals(name))
                .filter(sample -> sample.labels().entrySet().containsAll(labels.entrySet()))
                .toList();
    }

    /** The sum of {@link #find}'s values (0 when none match). */
    public double sum(String name, Map<String, String> labels) {
        return find(name, labels).stream().mapToDouble(Sample::value).sum();
    }

    public boolean has(String name) {
        return samples.stream().anyMatch(sample -> sample.name().equals(name));
    }
}
