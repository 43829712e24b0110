package dwd.domain.status;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kstatus' per-kind rules, chosen by {@code group/Kind} ({@code Kind} alone for the core group); the
 * API version plays no part. Each rule reads counts leniently: a missing or non-integer count is
 * its default.
 */
final class KstatusRules {

    /** How long a Pod may stay unschedulable before kstatus calls it Failed. */
    static final Duration SCHEDULE_WINDOW = Duration.ofSeconds(15);

    /** kstatus reads "no progress deadline" as the controller's special value {@code MaxInt32}. */
    private static final long NO_PROGRESS_DEADLINE = Integer.MAX_VALUE;

    private KstatusRules() {
    }

    /** The result of the object's kind rule, or empty when its kind has none. */
    static Optional<KstatusResult> forKind(ObjectDocument object, List<KstatusCondition> conditions, Instant now) {
        KstatusResult result = switch (ruleKey(object.identity())) {
            case "apps/Deployment", "extensions/Deployment" -> deployment(object, conditions);
            case "apps/StatefulSet" -> statefulSet(object);
            case "apps/ReplicaSet", "extensions/ReplicaSet" -> replicaSet(object, conditions);
            case "apps/DaemonSet", "extensions/DaemonSet" -> daemonSet(object);
            case "Pod" -> pod(object, conditions, now);
            case "Service" -> service(object);
            case "PersistentVolumeClaim" -> persistentVolumeClaim(object);
            case "policy/PodDisruptionBudget" -> KstatusResult.current("AllowedDisruptions has been computed.");
            case "apiextensions.k8s.io/CustomResourceDefinition" -> customResourceDefinition(conditions);
            case "batch/Job" -> job(object, conditions);
            case "Secret", "ConfigMap", "batch/CronJob" -> KstatusResult.current("Resource is always ready");
            default -> null;
        };
        return Optional.ofNullable(result);
    }

    /**
     * {@code group/Kind}, {@code Kind} for the core group, as kstatus builds it from the object's
     * GroupVersionKind: an {@code apiVersion} Go cannot parse as a group and version (more than one
     * slash) gives no GroupVersionKind at all, so no rule.
     */
    static String ruleKey(ObjectIdentity identity) {
        String apiVersion = identity.apiVersion();
        int slash = apiVersion.indexOf('/');
        if (slash >= 0 && apiVersion.indexOf('/', slash + 1) >= 0) {
            return "";
        }
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        return group.isEmpty() ? identity.kind() : group + "/" + identity.kind();
    }

    private static KstatusResult deployment(ObjectDocument object, List<KstatusCondition> conditions) {
        // Without a deadline the controller never writes Progressing, so there is nothing to wait for.
        boolean progressing = object.integer("spec.progressDeadlineSeconds", NO_PROGRESS_DEADLINE) == NO_PROGRESS_DEADLINE;
        boolean available = false;
        for (KstatusCondition condition : conditions) {
            if (condition.type().equals("Progressing")) {
                if (condition.reason().equals("ProgressDeadlineExceeded")) {
                    return KstatusResult.failed(condition.reason(), condition.message(), "Progress deadline exceeded");
                }
                if (condition.status().equals(Condition.TRUE) && condition.reason().equals("NewReplicaSetAvailable")) {
                    progressing = true;
                }
            } else if (condition.type().equals("Available") && condition.status().equals(Condition.TRUE)) {
                available = true;
            }
        }
        long spec = object.integer("spec.replicas", 1);
        long replicas = object.integer("status.replicas", 0);
        long updated = object.integer("status.updatedReplicas", 0);
        long ready = object.integer("status.readyReplicas", 0);
        long availableReplicas = object.integer("status.availableReplicas", 0);
        if (spec > replicas) {
            return KstatusResult.inProgress("LessReplicas", "Replicas: " + replicas + "/" + spec);
        }
        if (spec > updated) {
            return KstatusResult.inProgress("LessUpdated", "Updated: " + updated + "/" + spec);
        }
        if (replicas > spec) {
            return KstatusResult.inProgress("ExtraPods", "Pending termination: " + (replicas - spec));
        }
        if (updated > availableReplicas) {
            return KstatusResult.inProgress("LessAvailable", "Available: " + availableReplicas + "/" + updated);
        }
        if (spec > ready) {
            return KstatusResult.inProgress("LessReady", "Ready: " + ready + "/" + spec);
        }
        if (!progressing) {
            return KstatusResult.inProgress("ReplicaSetNotAvailable", "ReplicaSet not Available");
        }
        if (!available) {
            return KstatusResult.inProgress("DeploymentNotAvailable", "Deployment not Available");
        }
        return KstatusResult.current("Deployment is available. Replicas: " + replicas);
    }

    private static KstatusResult statefulSet(ObjectDocument object) {
        if (object.string("spec.updateStrategy.type", "").equals("OnDelete")) {
            return KstatusResult.current("StatefulSet is using the ondelete update strategy");
        }
        long spec = object.integer("spec.replicas", 1);
        long ready = object.integer("status.readyReplicas", 0);
        long current = object.integer("status.currentReplicas", 0);
        long updated = object.integer("status.updatedReplicas", 0);
        long replicas = object.integer("status.replicas", 0);
        long partition = object.integer("spec.updateStrategy.rollingUpdate.partition", -1);
        if (spec > replicas) {
            return KstatusResult.inProgress("LessReplicas", "Replicas: " + replicas + "/" + spec);
        }
        if (spec > ready) {
            return KstatusResult.inProgress("LessReady", "Ready: " + ready + "/" + spec);
        }
        if (replicas > spec) {
            return KstatusResult.inProgress("ExtraPods", "Pending termination: " + (replicas - spec));
        }
        if (partition != -1) {
            if (updated < spec - partition) {
                return KstatusResult.inProgress("PartitionRollout", "updated: " + updated + "/" + (spec - partition));
            }
            return KstatusResult.current("Partition rollout complete. updated: " + updated);
        }
        if (spec > current) {
            return KstatusResult.inProgress("LessCurrent", "current: " + current + "/" + spec);
        }
        if (!object.string("status.currentRevision", "").equals(object.string("status.updateRevision", ""))) {
            return KstatusResult.inProgress("RevisionMismatch", "Waiting for updated revision to match current");
        }
        return KstatusResult.current("All replicas scheduled as expected. Replicas: " + replicas);
    }

    private static KstatusResult replicaSet(ObjectDocument object, List<KstatusCondition> conditions) {
        for (KstatusCondition condition : conditions) {
            if (condition.type().equals("ReplicaFailure") && condition.status().equals(Condition.TRUE)) {
                return KstatusResult.inProgress("ReplicaFailure", "Replica Failure condition. Check Pods");
            }
        }
        long spec = object.integer("spec.replicas", 1);
        long replicas = object.integer("status.replicas", 0);
        long ready = object.integer("status.readyReplicas", 0);
        long available = object.integer("status.availableReplicas", 0);
        long labelled = object.integer("status.fullyLabeledReplicas", 0);
        if (spec > labelled) {
            return KstatusResult.inProgress("LessLabelled", "Labelled: " + labelled + "/" + spec);
        }
        if (spec > available) {
            return KstatusResult.inProgress("LessAvailable", "Available: " + available + "/" + spec);
        }
        if (spec > ready) {
            return KstatusResult.inProgress("LessReady", "Ready: " + ready + "/" + spec);
        }
        if (replicas > spec) {
            return KstatusResult.inProgress("ExtraPods", "Pending termination: " + (replicas - spec));
        }
        return KstatusResult.current("ReplicaSet is available. Replicas: " + replicas);
    }

    private static KstatusResult daemonSet(ObjectDocument object) {
        // Unlike the generic rule, a DaemonSet without generations has not been seen by its controller.
        String kind = object.identity().kind();
        if (KstatusFields.nestedInt64(object, "metadata.generation").isEmpty()) {
            return KstatusResult.inProgress("NoGeneration", kind + " metadata.generation not found");
        }
        if (KstatusFields.nestedInt64(object, "status.observedGeneration").isEmpty()) {
            return KstatusResult.inProgress("NoObservedGeneration", kind + " status.observedGeneration not found");
        }
        long desired = object.integer("status.desiredNumberScheduled", -1);
        long current = object.integer("status.currentNumberScheduled", 0);
        long updated = object.integer("status.updatedNumberScheduled", 0);
        long available = object.integer("status.numberAvailable", 0);
        long ready = object.integer("status.numberReady", 0);
        if (desired == -1) {
            return KstatusResult.inProgress("NoDesiredNumber", "Missing .status.desiredNumberScheduled");
        }
        if (desired > current) {
            return KstatusResult.inProgress("LessCurrent", "Current: " + current + "/" + desired);
        }
        if (desired > updated) {
            return KstatusResult.inProgress("LessUpdated", "Updated: " + updated + "/" + desired);
        }
        if (desired > available) {
            return KstatusResult.inProgress("LessAvailable", "Available: " + available + "/" + desired);
        }
        if (desired > ready) {
            return KstatusResult.inProgress("LessReady", "Ready: " + ready + "/" + desired);
        }
        return KstatusResult.current("All replicas scheduled as expected. Replicas: " + desired);
    }

    private static KstatusResult pod(ObjectDocument object, List<KstatusCondition> conditions, Instant now) {
        String phase = object.string("status.phase", "");
        switch (phase) {
            case "Succeeded" -> {
                return KstatusResult.current("Pod has completed successfully");
            }
            case "Failed" -> {
                return KstatusResult.current("Pod has completed, but not successfully");
            }
            case "Running" -> {
                if (firstWithStatus(conditions, "Ready", Condition.TRUE).isPresent()) {
                    return KstatusResult.current("Pod is Ready");
                }
                List<String> crashLooping = crashLoopingContainers(object);
                if (!crashLooping.isEmpty()) {
                    return KstatusResult.failed("ContainerCrashLooping",
                            "Containers in CrashLoop state: " + String.join(",", crashLooping));
                }
                return KstatusResult.inProgress("PodRunningNotReady", "Pod is running but is not Ready");
            }
            case "Pending" -> {
                Optional<KstatusCondition> unscheduled = firstWithStatus(conditions, "PodScheduled", Condition.FALSE);
                if (unscheduled.isPresent() && unscheduled.get().reason().equals("Unschedulable")) {
                    if (createdWithin(object, SCHEDULE_WINDOW, now)) {
                        return KstatusResult.inProgress("PodNotScheduled", "Pod has not been scheduled");
                    }
                    return KstatusResult.failed("PodUnschedulable", "Pod could not be scheduled");
                }
                return KstatusResult.inProgress("PodPending", "Pod is in the Pending phase");
            }
            case "" -> {
                return KstatusResult.inProgress("PodNotObserved", "Pod phase not available");
            }
            default -> {
                return KstatusResult.unknown("unknown phase " + phase); // kstatus returns an error
            }
        }
    }

    /**
     * Names of containers waiting in CrashLoopBackOff (init containers are not looked at). Entries
     * without the expected shape are skipped; kstatus itself would crash on them.
     */
    private static List<String> crashLoopingContainers(ObjectDocument object) {
        List<?> statuses = KstatusFields.nestedList(object, "status.containerStatuses");
        var names = new ArrayList<String>();
        for (Object entry : statuses) {
            if (entry instanceof Map<?, ?> map) {
                @SuppressWarnings("unchecked")
                var container = ObjectDocument.of((Map<String, ?>) map);
                if (container.fieldOrAbsent("name").orElse(null) instanceof String name
                        && "CrashLoopBackOff".equals(container.fieldOrAbsent("state.waiting.reason").orElse(null))) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /**
     * A missing creationTimestamp, or one Go's RFC 3339 parser rejects, counts as old, as in kstatus
     * (its zero time).
     */
    private static boolean createdWithin(ObjectDocument object, Duration window, Instant now) {
        String created = object.string("metadata.creationTimestamp", "");
        return GoTimestamps.parseRfc3339(created).map(time -> now.minus(window).isBefore(time)).orElse(false);
    }

    private static KstatusResult service(ObjectDocument object) {
        if (object.string("spec.type", "ClusterIP").equals("LoadBalancer") && object.string("spec.clusterIP", "").isEmpty()) {
            return KstatusResult.inProgress("NoIPAssigned", "ClusterIP not set. Service type: LoadBalancer");
        }
        return KstatusResult.current("Service is ready");
    }

    private static KstatusResult persistentVolumeClaim(ObjectDocument object) {
        String phase = object.string("status.phase", "unknown");
        if (!phase.equals("Bound")) {
            return KstatusResult.inProgress("NotBound", "PVC is not Bound. phase: " + phase);
        }
        return KstatusResult.current("PVC is Bound");
    }

    private static KstatusResult customResourceDefinition(List<KstatusCondition> conditions) {
        for (KstatusCondition condition : conditions) {
            if (condition.type().equals("NamesAccepted") && condition.status().equals(Condition.FALSE)) {
                return KstatusResult.failed(condition.reason(), condition.message());
            }
            if (condition.type().equals("Established")) {
                if (condition.status().equals(Condition.FALSE) && !condition.reason().equals("Installing")) {
                    return KstatusResult.failed(condition.reason(), condition.message());
                }
                if (condition.status().equals(Condition.TRUE)) {
                    return KstatusResult.current("CRD is established");
                }
            }
        }
        return KstatusResult.inProgress("Installing", "Install in progress");
    }

    private static KstatusResult job(ObjectDocument object, List<KstatusCondition> conditions) {
        long parallelism = object.integer("spec.parallelism", 1);
        long completions = object.integer("spec.completions", parallelism);
        long succeeded = object.integer("status.succeeded", 0);
        long active = object.integer("status.active", 0);
        long failed = object.integer("status.failed", 0);
        for (KstatusCondition condition : conditions) {
            if (!condition.status().equals(Condition.TRUE)) {
                continue;
            }
            switch (condition.type()) {
                case "Complete" -> {
                    return KstatusResult.current("Job Completed. succeeded: " + succeeded + "/" + completions);
                }
                case "Failed" -> {
                    return KstatusResult.failed("JobFailed", "Job Failed. failed: " + failed + "/" + completions);
                }
                case "Suspended" -> {
                    if (object.bool("spec.suspend", false)) {
                        return KstatusResult.current("Job is suspended");
                    }
                }
                default -> {
                    // other conditions do not decide
                }
            }
        }
        if (object.string("status.startTime", "").isEmpty()) {
            return KstatusResult.inProgress("JobNotStarted", "Job not started");
        }
        return KstatusResult.current("Job in progress. success:" + succeeded + ", active: " + active + ", failed: " + failed);
    }

    private static Optional<KstatusCondition> firstWithStatus(List<KstatusCondition> conditions, String type, String status) {
        return conditions.stream().filter(c -> c.type().equals(type) && c.status().equals(status)).findFirst();
    }
}
