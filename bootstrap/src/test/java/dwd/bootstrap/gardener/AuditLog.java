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

    /** One completed request: user, verb, what it addressed (resource or path) and the answer's code. */
    record Request(Instant received, String user, String userAgent, String verb, String target, int code) {

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
                    status != null && status.has("code") ? status.get("code").getAsInt() : 0));
        }
        return new AuditLog(List.copyOf(requests));
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
