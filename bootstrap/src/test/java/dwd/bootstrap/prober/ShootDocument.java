package dwd.bootstrap.prober;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Gardener shoot embedded in a Cluster's {@code spec.shoot}, with the fields dwd reads; starts
 * as a reconciled shoot with one worker pool, {@code pool-a}, using the default node conditions.
 */
final class ShootDocument {

    private String lastOperationType = "Reconcile";
    private String lastOperationState = "Succeeded";
    private boolean hibernationEnabled;
    private boolean hibernated;
    private boolean markedForDeletion;
    private String gracePeriod;
    private List<Map<String, Object>> workers = List.of(pool("pool-a"));

    static ShootDocument reconciled() {
        return new ShootDocument();
    }

    /** A worker pool with machine-controller-manager settings and these unhealthy node conditions (none: the defaults). */
    static Map<String, Object> pool(String name, String... nodeConditions) {
        Map<String, Object> mcm = nodeConditions.length == 0 ? Map.of() : Map.of("nodeConditions", List.of(nodeConditions));
        return Map.of("name", name, "machineControllerManager", mcm);
    }

    ShootDocument lastOperation(String type, String state) {
        this.lastOperationType = type;
        this.lastOperationState = state;
        return this;
    }

    /** No {@code status.lastOperation} at all: a shoot still being created. */
    ShootDocument noLastOperation() {
        return lastOperation(null, null);
    }

    ShootDocument hibernationEnabled(boolean enabled) {
        this.hibernationEnabled = enabled;
        return this;
    }

    ShootDocument hibernated(boolean hibernated) {
        this.hibernated = hibernated;
        return this;
    }

    ShootDocument markedForDeletion(boolean marked) {
        this.markedForDeletion = marked;
        return this;
    }

    /** The shoot's {@code kubeControllerManager.nodeMonitorGracePeriod}, e.g. {@code 8s}. */
    ShootDocument gracePeriod(String gracePeriod) {
        this.gracePeriod = gracePeriod;
        return this;
    }

    @SafeVarargs
    final ShootDocument workers(Map<String, Object>... pools) {
        var list = new ArrayList<Map<String, Object>>();
        for (Map<String, Object> pool : pools) { // not List.of(pools): the array must not escape (-Xlint:varargs)
            list.add(pool);
        }
        this.workers = List.copyOf(list);
        return this;
    }

    Map<String, Object> toMap() {
        Map<String, Object> metadata = new LinkedHashMap<>(Map.of("name", "shoot", "namespace", "garden-dev"));
        if (markedForDeletion) {
            metadata.put("deletionTimestamp", "2026-01-01T00:00:00Z");
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("hibernation", Map.of("enabled", hibernationEnabled));
        spec.put("provider", Map.of("workers", new ArrayList<>(workers)));
        if (gracePeriod != null) {
            spec.put("kubernetes", Map.of("kubeControllerManager", Map.of("nodeMonitorGracePeriod", gracePeriod)));
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("hibernated", hibernated);
        if (lastOperationType != null) {
            status.put("lastOperation", Map.of("type", lastOperationType, "state", lastOperationState));
        }
        Map<String, Object> shoot = new LinkedHashMap<>();
        shoot.put("apiVersion", "core.gardener.cloud/v1beta1");
        shoot.put("kind", "Shoot");
        shoot.put("metadata", metadata);
        shoot.put("spec", spec);
        shoot.put("status", status);
        return shoot;
    }
}
