package dwd.bootstrap.weeder;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** The requests of one namespace (or all) in the API server's audit log (JSON lines), in the order they were received. */
public final class AuditedRequests {

    /**
     * One audit event: the stage ({@code ResponseStarted} for a watch that opened, {@code ResponseComplete}),
     * when the request was received and when the stage was reached (microseconds, by the API server's clock).
     */
    public record Request(String stage, Instant received, Instant reached, String userAgent, String verb, String resource,
                   String name, int code) {

        public boolean is(String verb, String resource) {
            return this.verb.equals(verb) && this.resource.equals(resource);
        }

        boolean byWeeder() {
            return by("dwd/");
        }

        /** Whether a client whose user agent starts so sent it (client-go's: the binary's name, a slash, …). */
        public boolean by(String userAgentPrefix) {
            return userAgent.startsWith(userAgentPrefix);
        }

        Duration took() {
            return Duration.between(received, reached);
        }
    }

    private final List<Request> requests;

    private AuditedRequests(List<Request> requests) {
        this.requests = requests;
    }

    /** The requests in {@code namespace}; with {@code null}, every request on an object or a collection. */
    public static AuditedRequests read(Path log, String namespace) throws IOException {
        var requests = new ArrayList<Request>();
        for (String line : Files.exists(log) ? Files.readAllLines(log) : List.<String>of()) {
            JsonObject ref = JsonParser.parseString(line).getAsJsonObject().getAsJsonObject("objectRef");
            if (namespace != null && (ref == null || !ref.has("namespace")
                    || !namespace.equals(ref.get("namespace").getAsString()))) {
                continue;
            }
            parse(line).ifPresent(requests::add);
        }
        requests.sort(Comparator.comparing(Request::received));
        return new AuditedRequests(requests);
    }

    /** One line of the audit log as a request on an object or a collection; empty for any other request. */
    public static Optional<Request> parse(String line) {
        JsonObject event = JsonParser.parseString(line).getAsJsonObject();
        JsonObject ref = event.getAsJsonObject("objectRef");
        if (ref == null) {
            return Optional.empty();
        }
        JsonObject status = event.getAsJsonObject("responseStatus");
        return Optional.of(new Request(event.get("stage").getAsString(),
                Instant.parse(event.get("requestReceivedTimestamp").getAsString()),
                Instant.parse(event.get("stageTimestamp").getAsString()),
                event.has("userAgent") ? event.get("userAgent").getAsString() : "",
                event.get("verb").getAsString(), ref.get("resource").getAsString(),
                ref.has("name") ? ref.get("name").getAsString() : "",
                status != null && status.has("code") ? status.get("code").getAsInt() : 0));
    }

    public List<Request> all() {
        return requests;
    }

    /** The requests received from {@code from} (inclusive) to {@code to} (exclusive). */
    public List<Request> between(Instant from, Instant to) {
        return requests.stream().filter(r -> !r.received().isBefore(from) && r.received().isBefore(to)).toList();
    }
}
