package dwd.bootstrap.gardener;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The API server's audit log (JSON lines, level Metadata): who asked what and what the server answered. */
record AuditLog(List<Request> requests) {

    /**
     * One completed request: user, verb, what it addressed (resource or path), the answer's code, and whether
     * it was a dry run ({@code dryRun=All} in its query, or in a deletion's options when the body is audited).
     */
    record Request(Instant received, String user, String userAgent, String verb, String target, int code, boolean dryRun) {

        @Override
        public String toString() {
            return code + " " + user + " " + verb + " " + target + " (" + userAgent + ")";
        }
    }

    /** The completed requests received at or after {@code since}. */
    static AuditLog read(Path file, Instant since) throws IOException {
        var requests = new ArrayList<Request>();
        for (String line : Files.readAllLines(file)) {
            JsonObject event = JsonParser.parseString(line).getAsJsonObject();
            if (!"ResponseComplete".equals(event.get("stage").getAsString())) {
                continue;
            }
            Instant received = Instant.parse(event.get("requestReceivedTimestamp").getAsString());
            if (received.isBefore(since)) {
                continue;
            }
            JsonObject status = event.getAsJsonObject("responseStatus");
            requests.add(new Request(received, event.getAsJsonObject("user").get("username").getAsString(),
                    event.has("userAgent") ? event.get("userAgent").getAsString() : "",
                    event.get("verb").getAsString(), target(event),
                    status != null && status.has("code") ? status.get("code").getAsInt() : 0, dryRun(event)));
        }
        return new AuditLog(List.copyOf(requests));
    }

    private static boolean dryRun(JsonObject event) {
        if (event.get("requestURI").getAsString().contains("dryRun=All")) {
            return true;
        }
        JsonObject body = event.getAsJsonObject("requestObject");
        return body != null && body.has("dryRun") && body.get("dryRun").toString().contains("\"All\"");
    }

    /** {@code group/resource[/subresource] in namespace [name]}, or the path of a non-resource request. */
    private static String target(JsonObject event) {
        JsonObject ref = event.getAsJsonObject("objectRef");
        if (ref == null) {
            return event.get("requestURI").getAsString();
        }
        String group = ref.has("apiGroup") ? ref.get("apiGroup").getAsString() + "/" : "core/";
        String resource = group + ref.get("resource").getAsString()
                + (ref.has("subresource") ? "/" + ref.get("subresource").getAsString() : "");
        return resource + (ref.has("namespace") ? " in " + ref.get("namespace").getAsString() : "")
                + (ref.has("name") ? " " + ref.get("name").getAsString() : "");
    }

    List<Request> answered(int code) {
        return requests.stream().filter(request -> request.code() == code).toList();
    }

    List<Request> by(String user) {
        return requests.stream().filter(request -> request.user().equals(user)).toList();
    }
}
