package dwd.domain.status;

import static dwd.domain.status.Documents.condition;
import static dwd.domain.status.Documents.list;
import static dwd.domain.status.Documents.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

@SuppressWarnings("unchecked")
class KstatusTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

    private static KstatusResult kstatus(Map<String, Object> object) {
        return Kstatus.compute(object, NOW);
    }

    private static Map<String, Object> object(String apiVersion, String kind, Map<String, Object> metadata,
            Map<String, Object> spec, Map<String, Object> status) {
        var object = map("apiVersion", apiVersion, "kind", kind, "metadata", metadata);
        if (spec != null) {
            object.put("spec", spec);
        }
        if (status != null) {
            object.put("status", status);
        }
        return object;
    }

    private static Map<String, Object> custom(Map<String, Object> status) {
        return object("example.com/v1", "Foo", map("name", "x", "generation", 2), null, status);
    }

    private static void assertResult(KstatusResult result, KstatusStatus status, String reason, String message) {
        assertThat(result.status()).isEqualTo(status);
        assertThat(result.message()).isEqualTo(message);
        if (reason == null) {
            assertThat(result.reason()).isEmpty();
        } else {
            assertThat(result.reason()).contains(reason);
        }
    }

    @Nested
    class GenericRules {

        @Test
        void aDeletionTimestampMeansTerminatingBeforeAnythingElse() {
            var object = custom(map("observedGeneration", 1, "conditions", list(condition("Stalled", "True"))));
            ((Map<String, Object>) object.get("metadata")).put("deletionTimestamp", "2026-11-21T09:00:00Z");
            var result = kstatus(object);
            assertThat(result.status()).isEqualTo(KstatusStatus.TERMINATING);
            assertThat(result.message()).isEqualTo("Resource scheduled for deletion");
            assertThat(result.conditions()).isEmpty();
        }

        @Test
        void anEmptyDeletionTimestampIsIgnored() {
            var object = custom(null);
            ((Map<String, Object>) object.get("metadata")).put("deletionTimestamp", "");
            assertThat(kstatus(object).status()).isEqualTo(KstatusStatus.CURRENT);
        }

        @Test
        void aNonStringDeletionTimestampIsAnError() {
            var object = custom(null);
            ((Map<String, Object>) object.get("metadata")).put("deletionTimestamp", 5);
            var result = kstatus(object);
            assertThat(result.status()).isEqualTo(KstatusStatus.UNKNOWN);
            assertThat(result.message()).isEqualTo("metadata.deletionTimestamp: expected a string, found 5 (an integer)");
            assertThat(result.unreadable()).contains(new FieldProblem("metadata.deletionTimestamp", "expected a string, found 5 (an integer)"));
        }

        @Test
        void aGenerationNotObservedIsInProgressEvenWhenAhead() {
            assertResult(kstatus(custom(map("observedGeneration", 1))), KstatusStatus.IN_PROGRESS,
                    "LatestGenerationNotObserved", "Foo generation is 2, but latest observed generation is 1");
            assertResult(kstatus(custom(map("observedGeneration", 3))), KstatusStatus.IN_PROGRESS,
                    "LatestGenerationNotObserved", "Foo generation is 2, but latest observed generation is 3");
        }

        @Test
        void aMissingObservedGenerationSkipsTheGenerationRule() {
            assertThat(kstatus(custom(map())).status()).isEqualTo(KstatusStatus.CURRENT);
            assertThat(kstatus(custom(null)).message()).isEqualTo("Resource is current");
        }

        @Test
        void aNonIntegerGenerationIsAnError() {
            var object = object("example.com/v1", "Foo", map("name", "x", "generation", "2"), null, map("observedGeneration", 2));
            assertThat(kstatus(object).status()).isEqualTo(KstatusStatus.UNKNOWN);
            assertThat(kstatus(object).message()).isEqualTo("metadata.generation: expected an integer, found \"2\" (a string)");
        }

        @Test
        void theFirstTrueReconcilingOrStalledDecides() {
            var reconcilingFirst = custom(map("observedGeneration", 2, "conditions", list(
                    condition("Reconciling", "False", "Old", "old"),
                    condition("Reconciling", "True", "Progressing", "working on it"),
                    condition("Stalled", "True", "Stuck", "gave up"))));
            var stalledFirst = custom(map("observedGeneration", 2, "conditions", list(
                    condition("Stalled", "True", "Stuck", "gave up"),
                    condition("Reconciling", "True", "Progressing", "working on it"))));
            assertResult(kstatus(reconcilingFirst), KstatusStatus.IN_PROGRESS, "Progressing", "working on it");
            var failed = kstatus(stalledFirst);
            assertResult(failed, KstatusStatus.FAILED, "Stuck", "gave up");
            assertThat(failed.conditions()).containsExactly(new KstatusCondition("Stalled", "True", "Stuck", "gave up"));
        }

        @Test
        void reconcilingTrueAppliesToBuiltInKindsToo() {
            var configMap = object("v1", "ConfigMap", map("name", "c"), null, map("conditions", list(
                    condition("Reconciling", "True", "Busy", "busy"))));
            assertResult(kstatus(configMap), KstatusStatus.IN_PROGRESS, "Busy", "busy");
        }

        @Test
        void readyDecidesForKindsWithoutARule() {
            assertThat(kstatus(custom(map("observedGeneration", 2, "conditions", list(condition("Ready", "True")))))
                    .message()).isEqualTo("Resource is Ready");
            assertResult(kstatus(custom(map("observedGeneration", 2, "conditions", list(
                    condition("Ready", "False", "Failing", "cannot fetch"))))), KstatusStatus.IN_PROGRESS, "Failing", "cannot fetch");
            assertThat(kstatus(custom(map("observedGeneration", 2, "conditions", list(
                    condition("Ready", "Unknown"))))).status()).isEqualTo(KstatusStatus.IN_PROGRESS);
        }

        @Test
        void aReadyWithAnOddStatusIsSkipped() {
            var object = custom(map("observedGeneration", 2, "conditions", list(
                    condition("Ready", "maybe"), condition("Ready", "True"))));
            assertThat(kstatus(object).message()).isEqualTo("Resource is Ready");
        }

        @Test
        void aReconcilingWithoutReasonGivesNoReason() {
            var result = kstatus(custom(map("observedGeneration", 2, "conditions", list(condition("Reconciling", "True")))));
            assertThat(result.status()).isEqualTo(KstatusStatus.IN_PROGRESS);
            assertThat(result.reason()).isEmpty();
        }

        @Test
        void statusValuesAreSpelledAsKstatusSpellsThem() {
            assertThat(KstatusStatus.IN_PROGRESS.text()).isEqualTo("InProgress");
            assertThat(KstatusStatus.NOT_FOUND).hasToString("NotFound");
        }

        @Test
        void malformedConditionsAreAnError() {
            var result = kstatus(custom(map("conditions", list(map("type", "Ready", "status", true)))));
            assertThat(result.status()).isEqualTo(KstatusStatus.UNKNOWN);
            assertThat(result.message()).isEqualTo("status.conditions[0].status: expected a string, found true (a boolean); "
                    + "YAML reads an unquoted True as a boolean, quote it: \"True\"");
            assertThat(kstatus(custom(map("conditions", "Ready"))).status()).isEqualTo(KstatusStatus.UNKNOWN);
        }
    }

    /** Values kstatus reads differently from a lenient reader; each answer is kstatus' own (KstatusDifferentialTest). */
    @Nested
    class OddValues {

        private Map<String, Object> withMetadata(Object... keysAndValues) {
            var metadata = map("name", "x");
            metadata.putAll(map(keysAndValues));
            return object("example.com/v1", "Foo", metadata, null, map("observedGeneration", 2));
        }

        @Test
        void anExplicitNullWhereKstatusLooksAValueUpIsUnknown() {
            assertThat(kstatus(withMetadata("generation", null)).unreadable())
                    .contains(new FieldProblem("metadata.generation", "expected an integer, found null"));
            assertThat(kstatus(custom(map("observedGeneration", null))).unreadable())
                    .contains(new FieldProblem("status.observedGeneration", "expected an integer, found null"));
            assertThat(kstatus(withMetadata("deletionTimestamp", null)).unreadable())
                    .contains(new FieldProblem("metadata.deletionTimestamp", "expected a string, found null"));
        }

        @Test
        void aNullOnTheWayReadsAsAbsent() {
            var object = object("example.com/v1", "Foo", map("name", "x", "generation", 2), null, null);
            object.put("status", null);
            assertResult(kstatus(object), KstatusStatus.CURRENT, null, "Resource is current");
        }

        @Test
        void aStringObservedGenerationIsUnknownNamingTheField() {
            var rollout = object("argoproj.io/v1alpha1", "Rollout", map("name", "web", "generation", 12), null,
                    map("observedGeneration", "12"));
            var result = kstatus(rollout);
            assertThat(result.status()).isEqualTo(KstatusStatus.UNKNOWN);
            assertThat(result.message()).isEqualTo("status.observedGeneration: expected an integer, found \"12\" (a string)");
        }

        @Test
        void anApiVersionWithTwoSlashesHasNoKindRule() {
            var deployment = object("apps/v1/extra", "Deployment", map("name", "d"), map("replicas", 3), map());
            assertResult(kstatus(deployment), KstatusStatus.CURRENT, null, "Resource is current");
            assertThat(KstatusRules.ruleKey(new ObjectIdentity("/", "Pod", "", "p"))).isEqualTo("Pod");
            assertThat(KstatusRules.ruleKey(new ObjectIdentity("apps/v1", "Deployment", "", "d"))).isEqualTo("apps/Deployment");
        }

        @Test
        void aConditionWithoutTypeAndANullEntryAreEmptyConditions() {
            var object = custom(map("observedGeneration", 2, "conditions", list(
                    map("status", "True"), null, condition("Ready", "False", "Waiting", "not yet"))));
            assertResult(kstatus(object), KstatusStatus.IN_PROGRESS, "Waiting", "not yet");
        }

        @Test
        void aNullContainerStatusesListIsUnknown() {
            var pod = object("v1", "Pod", map("name", "p"), null, map("phase", "Running"));
            ((Map<String, Object>) pod.get("status")).put("containerStatuses", null);
            assertThat(kstatus(pod).unreadable()).map(FieldProblem::fieldPath).contains("status.containerStatuses");
        }

        @Test
        void aCreationTimestampGoRejectsCountsAsOld() {
            assertThat(unschedulablePodCreated("2999-01-01T00:00:00Z").status()).isEqualTo(KstatusStatus.IN_PROGRESS);
            assertThat(unschedulablePodCreated("2999-01-01t00:00:00z").status()).isEqualTo(KstatusStatus.FAILED);
            assertThat(unschedulablePodCreated("29999-01-01T00:00:00Z").status()).isEqualTo(KstatusStatus.FAILED);
            assertThat(unschedulablePodCreated("2999-01-01T1:00:00,5+24:00").status()).isEqualTo(KstatusStatus.IN_PROGRESS);
        }

        private KstatusResult unschedulablePodCreated(String creationTimestamp) {
            return kstatus(object("v1", "Pod", map("name", "p", "creationTimestamp", creationTimestamp), null,
                    map("phase", "Pending", "conditions", list(condition("PodScheduled", "False", "Unschedulable", "")))));
        }
    }

    @Nested
    class KindRules {

        @Test
        void statefulSets() {
            var onDelete = object("apps/v1", "StatefulSet", map("name", "s"),
                    map("replicas", 3, "updateStrategy", map("type", "OnDelete")), map());
            assertThat(kstatus(onDelete).message()).isEqualTo("StatefulSet is using the ondelete update strategy");

            var partitioned = object("apps/v1", "StatefulSet", map("name", "s"),
                    map("replicas", 3, "updateStrategy", map("type", "RollingUpdate", "rollingUpdate", map("partition", 1))),
                    map("replicas", 3, "readyReplicas", 3, "updatedReplicas", 1));
            assertResult(kstatus(partitioned), KstatusStatus.IN_PROGRESS, "PartitionRollout", "updated: 1/2");

            var lessReady = object("apps/v1", "StatefulSet", map("name", "s"), map("replicas", 3),
                    map("replicas", 3, "readyReplicas", 1));
            assertResult(kstatus(lessReady), KstatusStatus.IN_PROGRESS, "LessReady", "Ready: 1/3");

            var revisionMismatch = object("apps/v1", "StatefulSet", map("name", "s"), map("replicas", 2),
                    map("replicas", 2, "readyReplicas", 2, "currentReplicas", 2, "currentRevision", "a", "updateRevision", "b"));
            assertResult(kstatus(revisionMismatch), KstatusStatus.IN_PROGRESS, "RevisionMismatch",
                    "Waiting for updated revision to match current");

            var current = object("apps/v1", "StatefulSet", map("name", "s"), map("replicas", 2),
                    map("replicas", 2, "readyReplicas", 2, "currentReplicas", 2, "currentRevision", "a", "updateRevision", "a"));
            assertThat(kstatus(current).message()).isEqualTo("All replicas scheduled as expected. Replicas: 2");
        }

        @Test
        void statefulSetReplicaCounts() {
            var lessReplicas = object("apps/v1", "StatefulSet", map("name", "s"), map("replicas", 3), map("replicas", 1));
            assertResult(kstatus(lessReplicas), KstatusStatus.IN_PROGRESS, "LessReplicas", "Replicas: 1/3");
            var extra = object("apps/v1", "StatefulSet", map("name", "s"), map("replicas", 2),
                    map("replicas", 5, "readyReplicas", 5));
            assertResult(kstatus(extra), KstatusStatus.IN_PROGRESS, "ExtraPods", "Pending termination: 3");
            var partitionDone = object("apps/v1", "StatefulSet", map("name", "s"),
                    map("replicas", 3, "updateStrategy", map("rollingUpdate", map("partition", 1))),
                    map("replicas", 3, "readyReplicas", 3, "updatedReplicas", 2));
            assertThat(kstatus(partitionDone).message()).isEqualTo("Partition rollout complete. updated: 2");
            var lessCurrent = object("apps/v1", "StatefulSet", map("name", "s"), map("replicas", 3),
                    map("replicas", 3, "readyReplicas", 3, "currentReplicas", 2));
            assertResult(kstatus(lessCurrent), KstatusStatus.IN_PROGRESS, "LessCurrent", "current: 2/3");
        }

        @Test
        void replicaSetReplicaCounts() {
            var lessAvailable = object("apps/v1", "ReplicaSet", map("name", "r"), map("replicas", 3),
                    map("replicas", 3, "fullyLabeledReplicas", 3, "availableReplicas", 1));
            assertResult(kstatus(lessAvailable), KstatusStatus.IN_PROGRESS, "LessAvailable", "Available: 1/3");
            var lessReady = object("apps/v1", "ReplicaSet", map("name", "r"), map("replicas", 3),
                    map("replicas", 3, "fullyLabeledReplicas", 3, "availableReplicas", 3, "readyReplicas", 2));
            assertResult(kstatus(lessReady), KstatusStatus.IN_PROGRESS, "LessReady", "Ready: 2/3");
            var extra = object("apps/v1", "ReplicaSet", map("name", "r"), map("replicas", 1),
                    map("replicas", 4, "fullyLabeledReplicas", 4, "availableReplicas", 4, "readyReplicas", 4));
            assertResult(kstatus(extra), KstatusStatus.IN_PROGRESS, "ExtraPods", "Pending termination: 3");
        }

        @Test
        void daemonSetCounts() {
            var base = map("name", "d", "generation", 1);
            assertResult(kstatus(object("apps/v1", "DaemonSet", base, map(), map("observedGeneration", 1,
                    "desiredNumberScheduled", 3, "currentNumberScheduled", 2))), KstatusStatus.IN_PROGRESS, "LessCurrent", "Current: 2/3");
            assertResult(kstatus(object("apps/v1", "DaemonSet", base, map(), map("observedGeneration", 1,
                    "desiredNumberScheduled", 3, "currentNumberScheduled", 3, "updatedNumberScheduled", 1))),
                    KstatusStatus.IN_PROGRESS, "LessUpdated", "Updated: 1/3");
            assertResult(kstatus(object("apps/v1", "DaemonSet", base, map(), map("observedGeneration", 1,
                    "desiredNumberScheduled", 3, "currentNumberScheduled", 3, "updatedNumberScheduled", 3,
                    "numberAvailable", 3, "numberReady", 0))), KstatusStatus.IN_PROGRESS, "LessReady", "Ready: 0/3");
            assertThat(kstatus(object("extensions/v1beta1", "DaemonSet", map("name", "d"), map(), map())).message())
                    .isEqualTo("DaemonSet metadata.generation not found");
            assertThat(kstatus(object("apps/v1", "DaemonSet", map("name", "d", "generation", 1.0), map(), map())).status())
                    .isEqualTo(KstatusStatus.UNKNOWN);
        }

        @Test
        void replicaSets() {
            var failure = object("apps/v1", "ReplicaSet", map("name", "r"), map("replicas", 1),
                    map("conditions", list(condition("ReplicaFailure", "True"))));
            assertResult(kstatus(failure), KstatusStatus.IN_PROGRESS, "ReplicaFailure", "Replica Failure condition. Check Pods");
            var lessLabelled = object("apps/v1", "ReplicaSet", map("name", "r"), map("replicas", 2), map("replicas", 2));
            assertResult(kstatus(lessLabelled), KstatusStatus.IN_PROGRESS, "LessLabelled", "Labelled: 0/2");
            var available = object("apps/v1", "ReplicaSet", map("name", "r"), map("replicas", 2), map("replicas", 2,
                    "fullyLabeledReplicas", 2, "availableReplicas", 2, "readyReplicas", 2));
            assertThat(kstatus(available).message()).isEqualTo("ReplicaSet is available. Replicas: 2");
        }

        @Test
        void daemonSetsInsistOnGenerations() {
            var noGeneration = object("apps/v1", "DaemonSet", map("name", "d"), map(), map("desiredNumberScheduled", 1));
            assertResult(kstatus(noGeneration), KstatusStatus.IN_PROGRESS, "NoGeneration", "DaemonSet metadata.generation not found");
            var noObserved = object("apps/v1", "DaemonSet", map("name", "d", "generation", 1), map(), map());
            assertResult(kstatus(noObserved), KstatusStatus.IN_PROGRESS, "NoObservedGeneration",
                    "DaemonSet status.observedGeneration not found");
            var noDesired = object("apps/v1", "DaemonSet", map("name", "d", "generation", 1), map(), map("observedGeneration", 1));
            assertResult(kstatus(noDesired), KstatusStatus.IN_PROGRESS, "NoDesiredNumber", "Missing .status.desiredNumberScheduled");
            var lessAvailable = object("apps/v1", "DaemonSet", map("name", "d", "generation", 1), map(), map("observedGeneration", 1,
                    "desiredNumberScheduled", 3, "currentNumberScheduled", 3, "updatedNumberScheduled", 3, "numberAvailable", 2));
            assertResult(kstatus(lessAvailable), KstatusStatus.IN_PROGRESS, "LessAvailable", "Available: 2/3");
            var current = object("apps/v1", "DaemonSet", map("name", "d", "generation", 1), map(), map("observedGeneration", 1,
                    "desiredNumberScheduled", 3, "currentNumberScheduled", 3, "updatedNumberScheduled", 3,
                    "numberAvailable", 3, "numberReady", 3));
            assertThat(kstatus(current).message()).isEqualTo("All replicas scheduled as expected. Replicas: 3");
        }

        @Test
        void podsByPhase() {
            assertThat(kstatus(pod("Succeeded", null)).message()).isEqualTo("Pod has completed successfully");
            assertThat(kstatus(pod("Failed", null))).isEqualTo(new KstatusResult(KstatusStatus.CURRENT,
                    "Pod has completed, but not successfully", java.util.List.of()));
            assertThat(kstatus(pod("Running", list(condition("Ready", "True")))).message()).isEqualTo("Pod is Ready");
            assertResult(kstatus(pod("Running", list(condition("Ready", "False")))), KstatusStatus.IN_PROGRESS,
                    "PodRunningNotReady", "Pod is running but is not Ready");
            assertResult(kstatus(pod("Pending", null)), KstatusStatus.IN_PROGRESS, "PodPending", "Pod is in the Pending phase");
            assertResult(kstatus(pod("", null)), KstatusStatus.IN_PROGRESS, "PodNotObserved", "Pod phase not available");
            assertThat(kstatus(pod("Unknown", null))).isEqualTo(KstatusResult.unknown("unknown phase Unknown"));
        }

        @Test
        void crashLoopingContainersMakeARunningPodFailed() {
            var object = pod("Running", list(condition("Ready", "False")));
            ((Map<String, Object>) object.get("status")).put("containerStatuses", list(
                    map("name", "app", "state", map("waiting", map("reason", "CrashLoopBackOff"))),
                    map("name", "sidecar", "state", map("running", map())),
                    "not a container status",
                    map("name", "proxy", "state", map("waiting", map("reason", "CrashLoopBackOff")))));
            assertResult(kstatus(object), KstatusStatus.FAILED, "ContainerCrashLooping", "Containers in CrashLoop state: app,proxy");
        }

        @Test
        void anUnschedulablePodGetsFifteenSecondsBeforeItFails() {
            var fresh = pod("Pending", list(condition("PodScheduled", "False", "Unschedulable", "0/3 nodes")));
            ((Map<String, Object>) fresh.get("metadata")).put("creationTimestamp", "2026-11-21T09:59:50Z");
            assertResult(kstatus(fresh), KstatusStatus.IN_PROGRESS, "PodNotScheduled", "Pod has not been scheduled");
            var old = pod("Pending", list(condition("PodScheduled", "False", "Unschedulable", "0/3 nodes")));
            ((Map<String, Object>) old.get("metadata")).put("creationTimestamp", "2026-11-21T09:59:44Z");
            assertResult(kstatus(old), KstatusStatus.FAILED, "PodUnschedulable", "Pod could not be scheduled");
            var undated = pod("Pending", list(condition("PodScheduled", "False", "Unschedulable", "0/3 nodes")));
            assertThat(kstatus(undated).status()).isEqualTo(KstatusStatus.FAILED);
        }

        @Test
        void services() {
            var loadBalancer = object("v1", "Service", map("name", "s"), map("type", "LoadBalancer"), null);
            assertResult(kstatus(loadBalancer), KstatusStatus.IN_PROGRESS, "NoIPAssigned", "ClusterIP not set. Service type: LoadBalancer");
            var clusterIp = object("v1", "Service", map("name", "s"), map("clusterIP", "10.0.0.1"), null);
            assertThat(kstatus(clusterIp).message()).isEqualTo("Service is ready");
        }

        @Test
        void persistentVolumeClaims() {
            assertResult(kstatus(object("v1", "PersistentVolumeClaim", map("name", "p"), null, null)),
                    KstatusStatus.IN_PROGRESS, "NotBound", "PVC is not Bound. phase: unknown");
            assertThat(kstatus(object("v1", "PersistentVolumeClaim", map("name", "p"), null, map("phase", "Bound")))
                    .message()).isEqualTo("PVC is Bound");
        }

        @Test
        void customResourceDefinitions() {
            String apiVersion = "apiextensions.k8s.io/v1";
            assertResult(kstatus(object(apiVersion, "CustomResourceDefinition", map("name", "c"), null, map("conditions", list(
                    condition("NamesAccepted", "False", "Conflict", "kind taken"))))), KstatusStatus.FAILED, "Conflict", "kind taken");
            assertResult(kstatus(object(apiVersion, "CustomResourceDefinition", map("name", "c"), null, map("conditions", list(
                    condition("Established", "False", "Installing", "wait"))))), KstatusStatus.IN_PROGRESS, "Installing", "Install in progress");
            assertResult(kstatus(object(apiVersion, "CustomResourceDefinition", map("name", "c"), null, map("conditions", list(
                    condition("Established", "False", "Broken", "schema rejected"))))), KstatusStatus.FAILED, "Broken", "schema rejected");
            assertThat(kstatus(object(apiVersion, "CustomResourceDefinition", map("name", "c"), null, map("conditions", list(
                    condition("Established", "True"), condition("NamesAccepted", "False"))))).message()).isEqualTo("CRD is established");
        }

        @Test
        void jobs() {
            var complete = object("batch/v1", "Job", map("name", "j"), map("completions", 2),
                    map("succeeded", 2, "conditions", list(condition("Complete", "True"))));
            assertThat(kstatus(complete).message()).isEqualTo("Job Completed. succeeded: 2/2");
            var failed = object("batch/v1", "Job", map("name", "j"), map("parallelism", 3),
                    map("failed", 1, "conditions", list(condition("Failed", "True"))));
            assertResult(kstatus(failed), KstatusStatus.FAILED, "JobFailed", "Job Failed. failed: 1/3");
            var suspendedByConditionOnly = object("batch/v1", "Job", map("name", "j"), map(),
                    map("conditions", list(condition("Suspended", "True"))));
            assertResult(kstatus(suspendedByConditionOnly), KstatusStatus.IN_PROGRESS, "JobNotStarted", "Job not started");
            var suspended = object("batch/v1", "Job", map("name", "j"), map("suspend", true),
                    map("conditions", list(condition("Suspended", "True"))));
            assertThat(kstatus(suspended).message()).isEqualTo("Job is suspended");
            var running = object("batch/v1", "Job", map("name", "j"), map(),
                    map("startTime", "2026-11-21T09:00:00Z", "active", 1));
            assertThat(kstatus(running).message()).isEqualTo("Job in progress. success:0, active: 1, failed: 0");
        }

        @Test
        void alwaysReadyKinds() {
            assertThat(kstatus(object("v1", "Secret", map("name", "s"), null, null)).message()).isEqualTo("Resource is always ready");
            assertThat(kstatus(object("v1", "ConfigMap", map("name", "s"), null, null)).status()).isEqualTo(KstatusStatus.CURRENT);
            assertThat(kstatus(object("batch/v1", "CronJob", map("name", "s"), null, null)).status()).isEqualTo(KstatusStatus.CURRENT);
            assertThat(kstatus(object("policy/v1", "PodDisruptionBudget", map("name", "p"), null, null)).message())
                    .isEqualTo("AllowedDisruptions has been computed.");
        }

        @Test
        void theRuleIsChosenByGroupAndKindNotVersion() {
            // A Secret in another group is not the core Secret: no rule, so the generic default.
            assertThat(kstatus(object("example.com/v1", "Secret", map("name", "s"), null, null)).message())
                    .isEqualTo("Resource is current");
        }

        private static Map<String, Object> pod(String phase, Object conditions) {
            var status = map("phase", phase);
            if (conditions != null) {
                status.put("conditions", conditions);
            }
            return object("v1", "Pod", map("name", "p"), map(), status);
        }
    }
}
