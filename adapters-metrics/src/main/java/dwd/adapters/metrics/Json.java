package dwd.adapters.metrics;

import dwd.domain.config.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * A minimal JSON writer for the status pages: maps (in their iteration order), collections,
 * strings, numbers, booleans, instants (RFC 3339), durations (as Go writes them, e.g. {@code 1m30s}),
 * enums and null. An empty {@link Optional} is written as null.
 */
final class Json {

    private Json() {
    }

    static String write(Object value) {
        var out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        switch (value) {
            case null -> out.append("null");
            case Optional<?> optional -> write(optional.orElse(null), out);
            case String text -> string(text, out);
            case Boolean bool -> out.append(bool);
            case Double number when number.isNaN() || number.isInfinite() -> out.append("null");
            case Float number when number.isNaN() || number.isInfinite() -> out.append("null");
            case Number number -> out.append(number);
            case Instant instant -> string(instant.toString(), out);
            case Duration duration -> string(GoDuration.format(duration), out);
            case Enum<?> constant -> string(constant.name(), out);
            case Map<?, ?> map -> {
                out.append('{');
                boolean first = true;
                for (var entry : map.entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    string(String.valueOf(entry.getKey()), out);
                    out.append(':');
                    write(entry.getValue(), out);
                }
                out.append('}');
            }
            case Collection<?> list -> {
                out.append('[');
                boolean first = true;
                for (Object element : list) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    write(element, out);
                }
                out.append(']');
            }
            default -> string(value.toString(), out);
        }
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
