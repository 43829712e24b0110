package dwd.bootstrap.check;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dwd.domain.status.Finding;
import dwd.domain.status.KstatusResult;
import dwd.domain.status.ObjectIdentity;
import dwd.domain.status.Severity;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * Writes the results of {@code dwd check}: for people (text) or for machines (JSON, YAML). Every
 * object has its result in every format; an object that could not be read as the rules need says
 * which field and why (and where, for an object from a file).
 */
final class CheckReport {

    private static final JsonFactory JSON = new JsonFactory();
    private static final YAMLFactory YAML = YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .build();

    private final List<CheckedObject> objects;
    private final boolean showKstatus;

    CheckReport(List<CheckedObject> objects, boolean showKstatus) {
        this.objects = List.copyOf(objects);
        this.showKstatus = showKstatus;
    }

    long warnings() {
        return objects.stream().mapToLong(object -> object.result().warnings().size()).sum();
    }

    long failures() {
        return objects.stream().mapToLong(object -> object.result().failures().size()).sum();
    }

    /** Objects some part of which could not be read as the checks or kstatus need it. */
    long unreadable() {
        return objects.stream().filter(object -> object.result().isUnreadable()).count();
    }

    /** No failure and no object that could not be read: warnings and kstatus values never fail a check. */
    boolean passed() {
        return failures() == 0 && unreadable() == 0;
    }

    /**
     * kstatus lines (if asked for), then every warning, then every failure, one line each
     * ({@code CODE severity kind/namespace/name: message}), then a summary line.
     */
    void writeText(PrintWriter out) {
        if (showKstatus) {
            objects.forEach(object -> object.result().kstatus().ifPresent(kstatus -> out.println(kstatusLine(object, kstatus))));
        }
        for (Severity severity : Severity.values()) {
            for (CheckedObject object : objects) {
                object.result().findings().stream()
                        .filter(finding -> finding.severity() == severity)
                        .forEach(finding -> out.println(finding.code() + " " + finding.severity().word() + " "
                                + object.name() + ": " + finding.message() + located(object, finding.field())));
            }
        }
        long unreadable = unreadable();
        out.println("checked " + count(objects.size(), "object") + ": " + count(warnings(), "warning") + ", "
                + count(failures(), "failure") + (unreadable > 0 ? ", " + unreadable + " unreadable" : ""));
        out.flush();
    }

    /** One JSON document: each object with its findings (and kstatus), then the totals. */
    void writeJson(PrintWriter out) {
        write(out, JSON, true);
    }

    /** The JSON document's content as one YAML document. */
    void writeYaml(PrintWriter out) {
        write(out, YAML, false);
    }

    private void write(PrintWriter out, JsonFactory factory, boolean pretty) {
        try (JsonGenerator generator = factory.createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)) {
            if (pretty) {
                generator.useDefaultPrettyPrinter();
            }
            generator.writeStartObject();
            generator.writeArrayFieldStart("objects");
            for (CheckedObject object : objects) {
                writeObject(generator, object);
            }
            generator.writeEndArray();
            generator.writeNumberField("warnings", warnings());
            generator.writeNumberField("failures", failures());
            generator.writeNumberField("unreadable", unreadable());
            generator.writeBooleanField("passed", passed());
            generator.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (pretty) {
            out.println();
        }
        out.flush();
    }

    private void writeObject(JsonGenerator generator, CheckedObject object) throws IOException {
        ObjectIdentity identity = object.result().object();
        generator.writeStartObject();
        generator.writeStringField("apiVersion", identity.apiVersion());
        generator.writeStringField("kind", identity.kind());
        generator.writeStringField("namespace", identity.namespace());
        generator.writeStringField("name", identity.name());
        generator.writeStringField("source", object.source());
        generator.writeBooleanField("readable", !object.result().isUnreadable());
        generator.writeArrayFieldStart("findings");
        for (Finding finding : object.result().findings()) {
            generator.writeStartObject();
            generator.writeStringField("code", finding.code().name());
            generator.writeStringField("severity", finding.severity().word());
            generator.writeStringField("message", finding.message());
            writeField(generator, object, finding.field());
            generator.writeEndObject();
        }
        generator.writeEndArray();
        Optional<KstatusResult> kstatus = object.result().kstatus();
        if (showKstatus && kstatus.isPresent()) {
            generator.writeObjectFieldStart("kstatus");
            generator.writeStringField("status", kstatus.get().status().text());
            Optional<String> reason = kstatus.get().reason();
            if (reason.isPresent()) {
                generator.writeStringField("reason", reason.get());
            }
            generator.writeStringField("message", kstatus.get().message());
            if (kstatus.get().unreadable().isPresent()) {
                writeField(generator, object, kstatus.get().unreadable().get().fieldPath());
            }
            generator.writeEndObject();
        }
        generator.writeEndObject();
    }

    /** {@code field} and {@code location} of a field a result names, when it names one. */
    private static void writeField(JsonGenerator generator, CheckedObject object, String field) throws IOException {
        if (field.isEmpty()) {
            return;
        }
        generator.writeStringField("field", field);
        Optional<String> location = object.locate(field);
        if (location.isPresent()) {
            generator.writeStringField("location", location.get());
        }
    }

    private static String kstatusLine(CheckedObject object, KstatusResult kstatus) {
        String reason = kstatus.reason().map(text -> " (reason " + text + ")").orElse("");
        String location = kstatus.unreadable().map(field -> located(object, field.fieldPath())).orElse("");
        return "kstatus " + kstatus.status().text() + " " + object.name() + ": " + kstatus.message() + reason + location;
    }

    /** {@code " (file:line:column)"} for a field of an object from a file, else nothing. */
    private static String located(CheckedObject object, String field) {
        return field.isEmpty() ? "" : object.locate(field).map(location -> " (" + location + ")").orElse("");
    }

    private static String count(long number, String noun) {
        return number + " " + noun + (number == 1 ? "" : "s");
    }
}
