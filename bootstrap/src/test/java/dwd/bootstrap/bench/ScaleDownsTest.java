package dwd.bootstrap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The meltdown's writes as the scale benchmark reads them from the prober's log. */
class ScaleDownsTest {

    private static String scaled(String namespace, String dependent, String time) {
        return "{\"time\":\"" + time + "\",\"level\":\"INFO\",\"logger\":\"dwd.prober\",\"message\":\"" + namespace
                + ": scale-down: scaled apps/v1 Deployment " + dependent + " from 1 to 0 replicas (3 candidates, 2 "
                + "expired, fraction 0.67 >= threshold 0.60)\",\"shootNamespace\":\"" + namespace + "\",\"resource\":"
                + "\"apps/v1 Deployment " + dependent + "\",\"thread\":\"dwd-task-1\"}";
    }

    @Test
    void firstLevelAndEveryDependentAreKnownOnlyOnceAllTheirWritesAre() {
        var writes = new ScaleDowns();
        writes.add(scaled("shoot--a", "cluster-autoscaler", "2026-11-25T08:52:33.042Z"));
        writes.add("{\"message\":\"shoot--a: probe ok\"}");
        assertThat(writes.shoots()).isEqualTo(1);
        assertThat(writes.first("shoot--a")).contains(Instant.parse("2026-11-25T08:52:33.042Z"));
        assertThat(writes.allOf("shoot--a", ScaleDowns.FIRST_LEVEL)).as("machine-controller-manager not yet").isEmpty();

        writes.add(scaled("shoot--a", "machine-controller-manager", "2026-11-25T08:52:33.545Z"));
        assertThat(writes.allOf("shoot--a", ScaleDowns.FIRST_LEVEL)).contains(Instant.parse("2026-11-25T08:52:33.545Z"));
        assertThat(writes.allOf("shoot--a", ScaleDowns.EVERY)).isEmpty();

        writes.add(scaled("shoot--a", "kube-controller-manager", "2026-11-25T08:52:34.001Z"));
        writes.add(scaled("shoot--a", "cluster-autoscaler", "2026-11-25T08:53:03.000Z")); // a later flow's: not the first
        assertThat(writes.allOf("shoot--a", ScaleDowns.EVERY)).contains(Instant.parse("2026-11-25T08:52:34.001Z"));
        assertThat(writes.first("shoot--a")).contains(Instant.parse("2026-11-25T08:52:33.042Z"));
        assertThat(writes.first("shoot--b")).isEmpty();
    }

    @Test
    void aShootsFlowCountsAsFinishedOnceItsLogLineSaysSoWhetherItCompletedFailedOrWasCancelled() {
        var writes = new ScaleDowns();
        writes.add(scaled("shoot--a", "kube-controller-manager", "2026-11-25T08:52:34.001Z"));
        assertThat(writes.finishedFlows()).isZero();

        writes.add(finished("shoot--a", "completed"));
        writes.add(finished("shoot--b", "failed"));
        writes.add(finished("shoot--c", "cancelled"));
        writes.add(finished("shoot--a", "completed")); // the same shoot again: counted once
        writes.add("{\"message\":\"shoot--d: scale-up completed\",\"shootNamespace\":\"shoot--d\"}");

        assertThat(writes.finishedFlows()).isEqualTo(3);
    }

    private static String finished(String namespace, String outcome) {
        return "{\"time\":\"2026-11-25T08:52:34.002Z\",\"level\":\"INFO\",\"logger\":\"dwd.prober\",\"message\":\""
                + namespace + ": scale-down " + outcome + "\",\"shootNamespace\":\"" + namespace + "\",\"thread\":\"dwd-task-1\"}";
    }
}
