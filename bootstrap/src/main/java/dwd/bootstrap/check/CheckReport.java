package dwd.bootstrap.check;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dwd.application.check.CheckResult;
import dwd.domain.status.Finding;
import dwd.domain.status.KstatusResult;
import dwd.domain.status.ObjectIdentity;
import dwd.domain.status.Severity;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;

/** Writes the results of {@code dwd check}, for people (text) or for machines (JSON). */
final class CheckReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

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

    /**
     * kstatus lines (if asked for), then every warning, then every failure, one line each
     * ({@code CODE severity kind/namespace/name: message}), then a summary line.
     */
    void writeText(PrintWriter out) {
        if (showKstatus) {
            objects.forEach(object -> object.result().kstatus().ifPresent(kstatus -> out.println(kstatusLine(object.result(), kstatus))));
        }
        for (Severity severity : Severity.values()) {
            for (CheckedObject object : objects) {
                object.result().findings().stream()
                        .filter(finding -> finding.severity() == severity)
                        .forEach(finding -> out.println(object.result().line(finding)));
            }
        }
        out.println("checked " + count(objects.size(), "object") + ": "
                + count(warnings(), "warning") + ", " + count(failures(), "failure"));
        out.flush();
    }

    /** One JSON document: each object with its findings (and kstatus), then the totals. */
    void writeJson(PrintWriter out) {
        ObjectNode report = JSON.createObjectNode();
        ArrayNode list = report.putArray("objects");
        for (CheckedObject object : objects) {
            ObjectIdentity identity = object.result().object();
            ObjectNode node = list.addObject()
                    .put("apiVersion", identity.apiVersion())
                    .put("kind", identity.kind())
                    .put("namespace", identity.namespace())
                    .put("name", identity.name())
                    .put("source", object.source());
            ArrayNode findings = node.putArray("findings");
            for (Finding finding : object.result().findings()) {
                findings.addObject()
                        .put("code", finding.code().name())
                        .put("severity", finding.severity().word())
                        .put("message", finding.message());
            }
            if (showKstatus) {
                object.result().kstatus().ifPresent(kstatus -> {
                    ObjectNode status = node.putObject("kstatus").put("status", kstatus.status().text());
                    kstatus.reason().ifPresent(reason -> status.put("reason", reason));
                    status.put("message", kstatus.message());
                });
            }
        }
        report.put("warnings", warnings()).put("failures", failures()).put("passed", failures() == 0);
        try {
            out.println(JSON.writeValueAsString(report));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        out.flush();
    }

    private static String kstatusLine(CheckResult result, KstatusResult kstatus) {
        String reason = kstatus.reason().map(text -> " (reason " + text + ")").orElse("");
        return "kstatus " + kstatus.status().text() + " " + result.object().describe() + ": " + kstatus.message() + reason;
    }

    private static String count(long number, String noun) {
        return number + " " + noun + (number == 1 ? "" : "s");
    }
}
