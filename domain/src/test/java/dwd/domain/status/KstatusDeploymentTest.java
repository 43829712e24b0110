package dwd.domain.status;

import static dwd.domain.status.Documents.condition;
import static dwd.domain.status.Documents.list;
import static dwd.domain.status.Documents.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** kstatus of a Deployment through the states a scale cycle passes (status-checks.md §3). */
class KstatusDeploymentTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

    /** A Deployment as apps/v1 stores it: progress deadline defaulted to 600 s. */
    private static Map<String, Object> deployment(long generation, long specReplicas, Map<String, Object> status) {
        return map(
                "apiVersion", "apps/v1",
                "kind", "Deployment",
                "metadata", map("name", "kube-controller-manager", "namespace", "shoot--x", "generation", generation),
                "spec", map("replicas", specReplicas, "progressDeadlineSeconds", 600),
                "status", status);
    }

    private static List<Object> completeRollout() {
        return list(
                condition("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability."),
                condition("Progressing", "True", "NewReplicaSetAvailable", "ReplicaSet \"kcm-5d4\" has successfully progressed."));
    }

    private static KstatusResult kstatus(Map<String, Object> object) {
        return Kstatus.compute(object, NOW);
    }

    private static void assertResult(KstatusResult result, KstatusStatus status, String reason, String message) {
        assertThat(result.status()).isEqualTo(status);
        assertThat(result.message()).isEqualTo(message);
        assertThat(result.reason()).contains(reason);
    }

    @Nested
    class ScaleDownFromThreeToZero {

        @Test
        void scalingDownBeforeTheControllerObservedTheNewGeneration() {
            var result = kstatus(deployment(6, 0, map("observedGeneration", 5, "replicas", 3, "updatedReplicas", 3,
                    "readyReplicas", 3, "availableReplicas", 3, "conditions", completeRollout())));
            assertResult(result, KstatusStatus.IN_PROGRESS, "LatestGenerationNotObserved",
                    "Deployment generation is 6, but latest observed generation is 5");
            assertThat(result.conditions()).containsExactly(new KstatusCondition("Reconciling", "True",
                    "LatestGenerationNotObserved", "Deployment generation is 6, but latest observed generation is 5"));
        }

        @Test
        void scalingDownWhilePodsArePendingTermination() {
            var result = kstatus(deployment(6, 0, map("observedGeneration", 6, "replicas", 3, "updatedReplicas", 3,
                    "readyReplicas", 3, "availableReplicas", 3, "conditions", completeRollout())));
            assertResult(result, KstatusStatus.IN_PROGRESS, "ExtraPods", "Pending termination: 3");
        }

        @Test
        void scaledDownIsCurrentOnceNoReplicasAreCounted() {
            // The controller drops zero counts from the status; Available stays True (0 >= 0 - 0).
            var result = kstatus(deployment(6, 0, map("observedGeneration", 6, "conditions", completeRollout())));
            assertThat(result.status()).isEqualTo(KstatusStatus.CURRENT);
            assertThat(result.message()).isEqualTo("Deployment is available. Replicas: 0");
            assertThat(result.conditions()).isEmpty();
        }
    }

    @Nested
    class ScaleUpFromZeroToThree {

        @Test
        void scalingUpBeforeTheControllerObservedTheNewGeneration() {
            var result = kstatus(deployment(7, 3, map("observedGeneration", 6, "conditions", completeRollout())));
            assertResult(result, KstatusStatus.IN_PROGRESS, "LatestGenerationNotObserved",
                    "Deployment generation is 7, but latest observed generation is 6");
        }

        @Test
        void scalingUpWithNoReplicasYet() {
            var result = kstatus(deployment(7, 3, map("observedGeneration", 7, "conditions", completeRollout())));
            assertResult(result, KstatusStatus.IN_PROGRESS, "LessReplicas", "Replicas: 0/3");
        }

        @Test
        void scalingUpWithPodsCreatedButNotAvailable() {
            var result = kstatus(deployment(7, 3, map("observedGeneration", 7, "replicas", 3, "updatedReplicas", 3,
                    "unavailableReplicas", 3, "conditions", completeRollout())));
            assertResult(result, KstatusStatus.IN_PROGRESS, "LessAvailable", "Available: 0/3");
        }

        @Test
        void scalingUpWithPodsAvailableButNotAllReady() {
            var result = kstatus(deployment(7, 3, map("observedGeneration", 7, "replicas", 3, "updatedReplicas", 3,
                    "availableReplicas", 3, "readyReplicas", 2, "conditions", completeRollout())));
            assertResult(result, KstatusStatus.IN_PROGRESS, "LessReady", "Ready: 2/3");
        }

        @Test
        void availableWithAllReplicasReadyIsCurrent() {
            var result = kstatus(deployment(7, 3, map("observedGeneration", 7, "replicas", 3, "updatedReplicas", 3,
                    "readyReplicas", 3, "availableReplicas", 3, "conditions", completeRollout())));
            assertThat(result.status()).isEqualTo(KstatusStatus.CURRENT);
            assertThat(result.message()).isEqualTo("Deployment is available. Replicas: 3");
        }
    }

    @Test
    void progressDeadlineExceededIsFailedWhateverTheProgressingStatus() {
        var result = kstatus(deployment(7, 3, map("observedGeneration", 7, "replicas", 3, "updatedReplicas", 3,
                "conditions", list(
                        condition("Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability."),
                        condition("Progressing", "False", "ProgressDeadlineExceeded", "ReplicaSet \"kcm-5d4\" has timed out progressing.")))));
        assertThat(result.status()).isEqualTo(KstatusStatus.FAILED);
        assertThat(result.message()).isEqualTo("Progress deadline exceeded");
        assertThat(result.conditions()).containsExactly(new KstatusCondition("Stalled", "True",
                "ProgressDeadlineExceeded", "ReplicaSet \"kcm-5d4\" has timed out progressing."));
    }

    @Test
    void aStaleProgressDeadlineExceededWinsOverCompleteCounts() {
        var result = kstatus(deployment(8, 0, map("observedGeneration", 8, "conditions", list(
                condition("Available", "True", "MinimumReplicasAvailable", ""),
                condition("Progressing", "Unknown", "ProgressDeadlineExceeded", "timed out")))));
        assertThat(result.status()).isEqualTo(KstatusStatus.FAILED);
    }

    @Test
    @SuppressWarnings("unchecked")
    void pausedNeverBecomesCurrentBecauseProgressingIsUnknown() {
        var paused = deployment(7, 3, map("observedGeneration", 7, "replicas", 3, "updatedReplicas", 3,
                "readyReplicas", 3, "availableReplicas", 3, "conditions", list(
                        condition("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability."),
                        condition("Progressing", "Unknown", "DeploymentPaused", "Deployment is paused"))));
        ((Map<String, Object>) paused.get("spec")).put("paused", true);
        assertResult(kstatus(paused), KstatusStatus.IN_PROGRESS, "ReplicaSetNotAvailable", "ReplicaSet not Available");
    }

    @Test
    @SuppressWarnings("unchecked")
    void withoutAProgressDeadlineProgressingIsNotNeeded() {
        var noDeadline = deployment(2, 1, map("observedGeneration", 2, "replicas", 1, "updatedReplicas", 1,
                "readyReplicas", 1, "availableReplicas", 1, "conditions", list(condition("Available", "True"))));
        ((Map<String, Object>) noDeadline.get("spec")).remove("progressDeadlineSeconds");
        assertThat(kstatus(noDeadline).status()).isEqualTo(KstatusStatus.CURRENT);
    }

    @Test
    void availableFalseIsDeploymentNotAvailable() {
        var result = kstatus(deployment(2, 1, map("observedGeneration", 2, "replicas", 1, "updatedReplicas", 1,
                "readyReplicas", 1, "availableReplicas", 1, "conditions", list(
                        condition("Available", "False"),
                        condition("Progressing", "True", "NewReplicaSetAvailable", "")))));
        assertResult(result, KstatusStatus.IN_PROGRESS, "DeploymentNotAvailable", "Deployment not Available");
    }

    @Test
    void aRollingUpdateWithOldPodsLeftIsLessUpdated() {
        var result = kstatus(deployment(3, 3, map("observedGeneration", 3, "replicas", 4, "updatedReplicas", 1,
                "conditions", completeRollout())));
        assertResult(result, KstatusStatus.IN_PROGRESS, "LessUpdated", "Updated: 1/3");
    }

    @Test
    void decimalCountsReadAsTheirDefaults() {
        var result = kstatus(deployment(7, 3, map("observedGeneration", 7, "replicas", 3.0, "conditions", completeRollout())));
        assertResult(result, KstatusStatus.IN_PROGRESS, "LessReplicas", "Replicas: 0/3");
    }

    @Test
    void extensionsDeploymentsFollowTheSameRule() {
        var object = deployment(7, 3, map("observedGeneration", 7, "conditions", completeRollout()));
        object.put("apiVersion", "extensions/v1beta1");
        assertResult(kstatus(object), KstatusStatus.IN_PROGRESS, "LessReplicas", "Replicas: 0/3");
    }
}
