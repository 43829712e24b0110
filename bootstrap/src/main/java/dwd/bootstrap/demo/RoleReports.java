package dwd.bootstrap.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dwd.application.port.out.Scheduler;
import dwd.bootstrap.demo.DemoTimeline.Kind;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the roles report about themselves, read from outside as an operator would: the prober's
 * {@code /probes} and the weeder's {@code /weeders} pages, polled, and, in shadow mode, the
 * would-be actions in their log lines (shadow mode changes nothing in the seed, and reports each
 * would-be action in one log line and as a count in {@code /metrics}; only the line names the
 * resource). Each news item goes to the timeline with the time the role gives it.
 */
final class RoleReports implements AutoCloseable {

    static final Duration POLL_INTERVAL = Duration.ofMillis(100);

    /** {@code shoot--a: [dry-run=server] would scale down apps/v1 Deployment kcm from 3 to 0 replicas (…): writes}. */
    private static final Pattern WOULD_SCALE = Pattern.compile(
            "^(\\S+): \\[dry-run=\\w+] would scale (?:down|up) \\S+ \\S+ (\\S+) from (\\d+) to (\\d+) replicas \\(.*\\): (.*)$");
    private static final Pattern WOULD_ANNOTATE = Pattern.compile(
            "^(\\S+): \\[dry-run=\\w+] would change annotations of \\S+ \\S+ (\\S+): (.*)$");
    private static final Pattern WOULD_DELETE = Pattern.compile(
            "^(\\S+): \\[dry-run=\\w+] would delete pod (\\S+) \\(uid [^)]*\\): CrashLoopBackOff after service (\\S+) turned ready: (.*)$");

    private final ObjectMapper json = new ObjectMapper();
    private final DemoTimeline timeline;
    private final Scheduler scheduler;
    private final Map<String, String> seen = new ConcurrentHashMap<>();
    /** The weeders {@code /weeders} listed at the last poll, as {@code namespace/service}. */
    private final java.util.Set<String> running = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    RoleReports(DemoTimeline timeline, Scheduler scheduler) {
        this.timeline = timeline;
        this.scheduler = scheduler;
    }

    /** Polls the prober's {@code /probes} and the weeder's {@code /weeders} every {@link #POLL_INTERVAL}. */
    void start(RoleProcess prober, RoleProcess weeder) {
        poll(prober.metricsUrl("/probes"), this::probes);
        poll(weeder.metricsUrl("/weeders"), this::weeders);
    }

    private void poll(String url, java.util.function.Consumer<JsonNode> reader) {
        if (closed) {
            return;
        }
        try {
            var response = RoleProcess.get(url);
            if (response.statusCode() == 200) {
                reader.accept(json.readTree(response.body()));
            }
        } catch (IOException | RuntimeException notNow) {
            // A role that is starting or stopping does not answer; the next poll asks again.
        }
        scheduler.schedule(POLL_INTERVAL, () -> poll(url, reader));
    }

    private void probes(JsonNode page) {
        for (JsonNode shoot : page.path("shoots")) {
            String ns = shoot.path("namespace").asText();
            JsonNode verdict = shoot.path("lastVerdict");
            if (isNew(ns + "/verdict", verdict.path("at"))) {
                String decision = verdict.path("decision").asText();
                timeline.add(instant(verdict.path("at")), ns, Kind.VERDICT, decision, "lease probe: "
                        + verdict.path("summary").asText() + " -> " + (decision.equals("scale-down") ? "scale down"
                        : decision.equals("hold") ? "hold" : "healthy (scale up if needed)"));
            }
            JsonNode failure = shoot.path("lastFailure");
            if (isNew(ns + "/failure", failure.path("at"))) {
                timeline.add(instant(failure.path("at")), ns, Kind.PROBE_FAILED, failure.path("stage").asText(),
                        "probe failed (" + failure.path("stage").asText() + ", " + failure.path("kind").asText() + "): "
                                + failure.path("message").asText());
            }
            JsonNode flow = shoot.path("lastFlow");
            if (isNew(ns + "/flow", flow.path("finishedAt"))) {
                String direction = flow.path("direction").asText();
                for (JsonNode step : flow.path("resources")) {
                    if (step.path("result").asText().equals("failed")) {
                        timeline.add(instant(flow.path("finishedAt")), ns, Kind.FAILED, step.path("resource").asText(),
                                "scale-" + direction + " could not scale " + step.path("resource").asText() + ": "
                                        + step.path("detail").asText());
                    }
                }
                timeline.add(instant(flow.path("finishedAt")), ns, Kind.FLOW_DONE, direction,
                        "scale-" + direction + " " + flow.path("result").asText());
            }
        }
    }

    private void weeders(JsonNode page) {
        Instant polled = Instant.now();
        var listed = new java.util.HashSet<String>();
        for (JsonNode weeder : page.path("weeders")) {
            String ns = weeder.path("namespace").asText();
            String service = weeder.path("service").asText();
            listed.add(ns + "/" + service);
            if (isNew(ns + "/weeder/" + service, weeder.path("started"))) {
                running.add(ns + "/" + service);
                timeline.add(instant(weeder.path("started")), ns, Kind.WEEDER, service, "weeder started for " + service
                        + ": watching its dependents until " + instant(weeder.path("until")).truncatedTo(ChronoUnit.SECONDS));
            }
        }
        for (String gone : running.stream().filter(key -> !listed.contains(key)).toList()) {
            running.remove(gone);
            String ns = gone.substring(0, gone.indexOf('/'));
            String service = gone.substring(gone.indexOf('/') + 1);
            seen.remove(ns + "/weeder/" + service);
            // /weeders lists running weeders only: the time is when the page stopped listing it.
            timeline.add(polled, ns, Kind.WEEDER_STOPPED, service, "weeder for " + service + " stopped");
        }
    }

    /** Whether {@code stamp} is a time not seen before under {@code key} (a new verdict, failure, flow, weeder). */
    private boolean isNew(String key, JsonNode stamp) {
        if (!stamp.isTextual()) {
            return false;
        }
        return !stamp.asText().equals(seen.put(key, stamp.asText()));
    }

    /**
     * One log line of a role: in shadow mode, a would-be scaling, annotation or deletion goes to the
     * timeline, worded as before the API server's answer is known to the reader.
     */
    void logLine(String line) {
        if (!line.startsWith("{") || !line.contains("] would ")) {
            return;
        }
        JsonNode entry;
        try {
            entry = json.readTree(line);
        } catch (IOException notJson) {
            return;
        }
        String message = entry.path("message").asText();
        Instant at = Optional.of(entry.path("time")).filter(JsonNode::isTextual).map(this::instant).orElseGet(Instant::now);
        Matcher scale = WOULD_SCALE.matcher(message);
        Matcher annotate = WOULD_ANNOTATE.matcher(message);
        Matcher delete = WOULD_DELETE.matcher(message);
        if (scale.matches()) {
            timeline.add(at, scale.group(1), Kind.SCALED, scale.group(2), "would scale " + scale.group(2) + " "
                    + scale.group(3) + " -> " + scale.group(4) + " replicas: " + answer(scale.group(5)));
        } else if (annotate.matches()) {
            timeline.add(at, annotate.group(1), Kind.ANNOTATED, annotate.group(2), "would change annotations of "
                    + annotate.group(2) + ": " + answer(annotate.group(3)));
        } else if (delete.matches()) {
            timeline.add(at, delete.group(1), Kind.POD_DELETED, delete.group(2), "would delete crash-looping pod "
                    + delete.group(2) + " (depends on " + delete.group(3) + "): " + answer(delete.group(4)));
        }
    }

    /** The answers of a line's writes, in the narration's words: the first refusal, else accepted, else not sent. */
    static String answer(String writes) {
        int finding = writes.indexOf("FINDING: ");
        if (finding >= 0) {
            String refusal = writes.substring(finding + "FINDING: ".length());
            int next = refusal.indexOf("; ");
            return "the API server refuses: " + (next < 0 ? refusal : refusal.substring(0, next));
        }
        return writes.contains("would succeed") ? "accepted by the API server, not persisted" : "not sent";
    }

    private Instant instant(JsonNode stamp) {
        try {
            return Instant.parse(stamp.asText());
        } catch (DateTimeParseException e) {
            return java.time.OffsetDateTime.parse(stamp.asText()).toInstant();
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
