package dwd.bootstrap.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The scale-down writes of a meltdown, per shoot and dependent, from the prober's log lines after each write. */
final class ScaleDowns {

    /** The dependents of Gardener's first scale-down level (deploy/examples/prober-config.yaml). */
    static final Collection<String> FIRST_LEVEL = List.of("machine-controller-manager", "cluster-autoscaler");

    /** Every dependent Gardener's config names: the first level, then kube-controller-manager. */
    static final Collection<String> EVERY = List.of("machine-controller-manager", "cluster-autoscaler",
            "kube-controller-manager");

    private static final List<String> FLOW_FINISHED = List.of(": scale-down completed\"", ": scale-down failed\"",
            ": scale-down cancelled\"");

    record Write(String namespace, String dependent, Instant at) {
    }

    private final Map<String, Map<String, Instant>> byShoot = new HashMap<>();
    private final Set<String> finishedFlows = new HashSet<>();

    /** A log line of a dependent scaled down, if {@code line} is one. */
    static Optional<Write> parse(String line) {
        if (!line.contains(": scale-down: scaled ")) {
            return Optional.empty();
        }
        JsonObject json = JsonParser.parseString(line).getAsJsonObject();
        String resource = json.get("resource").getAsString(); // "apps/v1 Deployment kube-controller-manager"
        return Optional.of(new Write(json.get("shootNamespace").getAsString(),
                resource.substring(resource.lastIndexOf(' ') + 1), Instant.parse(json.get("time").getAsString())));
    }

    void add(String line) {
        parse(line).ifPresent(write -> byShoot.computeIfAbsent(write.namespace(), ns -> new HashMap<>())
                .putIfAbsent(write.dependent(), write.at()));
        if (FLOW_FINISHED.stream().anyMatch(line::contains)) {
            finishedFlows.add(JsonParser.parseString(line).getAsJsonObject().get("shootNamespace").getAsString());
        }
    }

    /**
     * Shoots whose scale-down flow has finished (completed, failed or cancelled): read from the log, so
     * that waiting for them costs the prober nothing (a scrape of its metrics at 10,000 shoots costs
     * it about a CPU-second).
     */
    int finishedFlows() {
        return finishedFlows.size();
    }

    /** Shoots with at least one dependent scaled down. */
    int shoots() {
        return byShoot.size();
    }

    /** When the shoot's first dependent was written. */
    Optional<Instant> first(String namespace) {
        return Optional.ofNullable(byShoot.get(namespace)).flatMap(writes -> writes.values().stream().min(Instant::compareTo));
    }

    /** When the last of {@code dependents} was written, once all of them were. */
    Optional<Instant> allOf(String namespace, Collection<String> dependents) {
        Map<String, Instant> writes = byShoot.getOrDefault(namespace, Map.of());
        return writes.keySet().containsAll(dependents)
                ? dependents.stream().map(writes::get).max(Instant::compareTo) : Optional.empty();
    }

    /** Scale-down writes (the first of each dependent) made in [from, to). */
    long writesBetween(Instant from, Instant to) {
        return byShoot.values().stream().flatMap(writes -> writes.values().stream())
                .filter(at -> !at.isBefore(from) && at.isBefore(to)).count();
    }

    /** Shoots whose first write was made in [from, to). */
    long firstWritesBetween(Instant from, Instant to) {
        return byShoot.keySet().stream().map(this::first).flatMap(Optional::stream)
                .filter(at -> !at.isBefore(from) && at.isBefore(to)).count();
    }
}
