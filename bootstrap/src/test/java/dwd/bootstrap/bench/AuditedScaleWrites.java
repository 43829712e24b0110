package dwd.bootstrap.bench;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The writes that changed a dependent's replicas, as the seed's audit log records them: whichever way an
 * implementation scales (dwd: one merge patch of the Deployment with {@code spec.replicas}; the original: a PUT of
 * its scale subresource, after a patch of its annotations), the request carries the new {@code spec.replicas}
 * (a Scale's {@code spec} without it means 0).
 * The audit policy ({@link #POLICY}) records only writes of Deployments and their scale, with the request's body.
 */
final class AuditedScaleWrites {

    /** Patches and updates of Deployments and of their scale, with the request; nothing else. */
    static final String POLICY = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            omitStages: ["RequestReceived"]
            rules:
              - level: Request
                verbs: ["patch", "update"]
                resources:
                  - group: "apps"
                    resources: ["deployments", "deployments/scale"]
              - level: None
            """;

    /** The seed's kube-apiserver flags that write the log to {@code log} under {@code policy}. */
    static List<String> apiServerFlags(Path policy, Path log) {
        return List.of("--audit-policy-file=" + policy, "--audit-log-path=" + log, "--audit-log-mode=batch",
                "--audit-log-batch-max-wait=1s");
    }

    /** One successful write that set a dependent's replicas: received and done by the API server's clock. */
    record Write(String namespace, String name, int replicas, Instant received, Instant done, String userAgent) {
    }

    private final List<Write> writes;

    private AuditedScaleWrites(List<Write> writes) {
        this.writes = writes;
    }

    static AuditedScaleWrites read(Path log) throws IOException {
        var writes = new ArrayList<Write>();
        if (!Files.exists(log)) {
            return new AuditedScaleWrites(writes);
        }
        for (String line : Files.readAllLines(log)) {
            JsonObject event = JsonParser.parseString(line).getAsJsonObject();
            JsonObject ref = event.getAsJsonObject("objectRef");
            JsonObject status = event.getAsJsonObject("responseStatus");
            JsonElement request = event.get("requestObject");
            if (ref == null || status == null || !status.has("code") || status.get("code").getAsInt() >= 300
                    || request == null || !request.isJsonObject()) {
                continue;
            }
            JsonObject spec = request.getAsJsonObject().getAsJsonObject("spec");
            boolean scale = ref.has("subresource") && ref.get("subresource").getAsString().equals("scale");
            boolean replicasSet = spec != null && spec.has("replicas") && !spec.get("replicas").isJsonNull();
            if (spec == null || !replicasSet && !scale) {
                continue;
            }
            writes.add(new Write(ref.get("namespace").getAsString(), ref.get("name").getAsString(),
                    // a Scale written by a Go client leaves out replicas 0 (omitempty)
                    replicasSet ? spec.get("replicas").getAsInt() : 0, Instant.parse(event.get("requestReceivedTimestamp").getAsString()),
                    Instant.parse(event.get("stageTimestamp").getAsString()),
                    event.has("userAgent") ? event.get("userAgent").getAsString() : ""));
        }
        writes.sort(Comparator.comparing(Write::done));
        return new AuditedScaleWrites(writes);
    }

    /** The first write in {@code namespace} done at or after {@code from} that matches. */
    Optional<Write> first(String namespace, Instant from, Predicate<Write> which) {
        return writes.stream().filter(w -> w.namespace().equals(namespace) && !w.done().isBefore(from) && which.test(w))
                .findFirst();
    }

    /** The first write to dependent {@code name} done at or after {@code from} that matches. */
    Optional<Write> first(String namespace, String name, Instant from, Predicate<Write> which) {
        return first(namespace, from, w -> w.name().equals(name) && which.test(w));
    }

    int size() {
        return writes.size();
    }
}
