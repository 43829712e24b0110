package dwd.adapters.metrics;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dwd.domain.config.GoDuration;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * The status pages' JSON, written by Jackson's streaming generator: maps (in their iteration order),
 * collections, strings, numbers, booleans, instants (RFC 3339), durations (as Go writes them, e.g.
 * {@code 1m30s}), enums and null. An empty {@link Optional} and a number that is not finite are
 * written as null; anything else as its {@code toString()}.
 */
final class Json {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private Json() {
    }

    static String write(Object value) {
        var out = new StringWriter();
        try (JsonGenerator generator = FACTORY.createGenerator(out)) {
            write(value, generator);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON into memory", e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void write(Object value, JsonGenerator out) throws IOException {
        switch (value) {
            case null -> out.writeNull();
            case Optional<?> optional -> write(optional.orElse(null), out);
            case String text -> out.writeString(text);
            case Boolean bool -> out.writeBoolean(bool);
            case Double number when number.isNaN() || number.isInfinite() -> out.writeNull();
            case Float number when number.isNaN() || number.isInfinite() -> out.writeNull();
            case Double number -> out.writeNumber(number);
            case Float number -> out.writeNumber(number);
            case Number number -> out.writeNumber(number.toString());
            case Instant instant -> out.writeString(instant.toString());
            case Duration duration -> out.writeString(GoDuration.format(duration));
            case Enum<?> constant -> out.writeString(constant.name());
            case Map<?, ?> map -> {
                out.writeStartObject();
                for (var entry : map.entrySet()) {
                    out.writeFieldName(String.valueOf(entry.getKey()));
                    write(entry.getValue(), out);
                }
                out.writeEndObject();
            }
            case Collection<?> list -> {
                out.writeStartArray();
                for (Object element : list) {
                    write(element, out);
                }
                out.writeEndArray();
            }
            default -> out.writeString(value.toString());
        }
    }
}
