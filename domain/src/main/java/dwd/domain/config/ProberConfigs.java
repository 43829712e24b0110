package dwd.domain.config;

import dwd.domain.config.Problems.DurationField;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a prober config file ({@link ProberConfigAsWritten}) into a {@link ProberConfig}: fills in the original's defaults
 * for absent keys, then reports every problem at once.
 *
 * <p>Report order: first the problems the original dependency-watchdog reports, in its order (secret name, a zero
 * grace duration, the resource list, then per resource its apiVersion, scaleUp and scaleDown); a missing {@code ref},
 * on which the original crashes, takes the apiVersion's place. Then the problems only dwd reports, in the order of the
 * file: unparsable durations, non-positive intervals and timeouts, negative delays, fractions out of range, thresholds
 * below 1, incomplete or duplicate refs.
 *
 * <p>Not checked, as in the original: levels (negative levels and gaps are fine) and whether a kind exists; an unknown
 * kind fails when it is first scaled.
 */
public final class ProberConfigs {

    public static final Duration DEFAULT_PROBE_INTERVAL = Duration.ofSeconds(10);
    public static final Duration DEFAULT_INITIAL_DELAY = Duration.ofSeconds(30);
    public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofSeconds(30);
    public static final double DEFAULT_BACKOFF_JITTER_FACTOR = 0.2;
    public static final Duration DEFAULT_KCM_NODE_MONITOR_GRACE_DURATION = Duration.ofSeconds(40);
    public static final double DEFAULT_NODE_LEASE_FAILURE_FRACTION = 0.6;
    /** 1 acts on the first verdict, as the original does. */
    public static final int DEFAULT_FAILURE_THRESHOLD = 1;
    /** 1 acts on the first verdict, as the original does. */
    public static final int DEFAULT_SUCCESS_THRESHOLD = 1;
    public static final int DEFAULT_SCALE_LEVEL = 0;
    public static final Duration DEFAULT_SCALE_INITIAL_DELAY = Duration.ZERO;
    public static final Duration DEFAULT_SCALE_TIMEOUT = Duration.ofSeconds(30);

    private static final String RESOURCES = "dependentResourceInfos";

    private ProberConfigs() {
    }

    /**
     * Validates a prober config file; {@code null} (an empty file) counts as one with every key absent.
     *
     * @return the config, or every problem found; never throws
     */
    public static Validated<ProberConfig> validate(ProberConfigAsWritten written) {
        ProberConfigAsWritten file = written == null ? ProberConfigAsWritten.empty() : written;
        Fields fields = Fields.of(file);
        Problems problems = new Problems();
        reportWhatTheOriginalReports(file, fields, problems);
        reportWhatOnlyDwdReports(file, fields, problems);
        return problems.outcome(() -> build(file, fields));
    }

    private static void reportWhatTheOriginalReports(ProberConfigAsWritten file, Fields fields, Problems problems) {
        if (isBlank(file.kubeConfigSecretName())) {
            problems.add("kubeConfigSecretName", "must not be empty; name the Secret in each shoot namespace whose key"
                    + " \"kubeconfig\" reaches the shoot's API server (Gardener: shoot-access-dependency-watchdog-probe)");
        } else if (!KubernetesNames.isDnsSubdomain(file.kubeConfigSecretName())) {
            problems.add("kubeConfigSecretName", InvalidGoDuration.quote(file.kubeConfigSecretName()) + " is not a Secret"
                    + " name, so no Secret could have it; Secret names are " + KubernetesNames.DNS_SUBDOMAIN_RULE
                    + ", e.g. shoot-access-dependency-watchdog-probe");
        }
        if (fields.kcmNodeMonitorGraceDuration.parsed() && fields.kcmNodeMonitorGraceDuration.value().isZero()) {
            problems.add("kcmNodeMonitorGraceDuration", "must not be zero; it is the kube-controller-manager's node"
                    + " monitor grace period that lease expiry is measured against: set it, e.g. to 40s, or remove it"
                    + " to use 40s");
        }
        List<DependentResourceInfoAsWritten> resources = file.dependentResourceInfos();
        if (resources == null || resources.isEmpty()) {
            problems.add(RESOURCES, "must not be empty; list the resources to scale (e.g. kube-controller-manager,"
                    + " machine-controller-manager, cluster-autoscaler), each with ref, scaleUp and scaleDown");
            return;
        }
        for (int i = 0; i < resources.size(); i++) {
            String path = Problems.index(RESOURCES, i);
            DependentResourceInfoAsWritten resource = resources.get(i);
            if (resource == null) {
                problems.add(path, "must not be empty; give the entry a ref, a scaleUp and a scaleDown");
                continue;
            }
            if (resource.ref() == null) {
                problems.add(Problems.child(path, "ref"), "must be set; name the resource to scale, e.g."
                        + " {apiVersion: apps/v1, kind: Deployment, name: kube-controller-manager}");
            } else if (ResourceRef.hasMoreThanOneSlash(resource.ref().apiVersion())) {
                problems.add(Problems.child(path, "ref.apiVersion"),
                        ResourceRef.apiVersionProblem(resource.ref().apiVersion()).orElseThrow());
            }
            if (resource.scaleUp() == null) {
                problems.add(Problems.child(path, "scaleUp"), "must be set; give at least its level, e.g."
                        + " scaleUp: {level: 0}; lower levels are scaled up first");
            }
            if (resource.scaleDown() == null) {
                problems.add(Problems.child(path, "scaleDown"), "must be set; give at least its level, e.g."
                        + " scaleDown: {level: 0}; lower levels are scaled down first");
            }
        }
    }

    private static void reportWhatOnlyDwdReports(ProberConfigAsWritten file, Fields fields, Problems problems) {
        problems.requirePositive(fields.probeInterval, "it is the time between two probes, e.g. 10s");
        problems.requireNotNegative(fields.initialDelay, "it is the wait before a shoot's first probe, e.g. 30s;"
                + " 0s probes at once");
        problems.requirePositive(fields.probeTimeout, "it bounds each request to the shoot's API server, e.g. 30s");
        Double jitter = file.backoffJitterFactor();
        if (jitter != null && !(jitter >= 0 && jitter <= 1)) {
            problems.add("backoffJitterFactor", "must be between 0 and 1 (was " + jitter + "); it is the fraction"
                    + " of probeInterval added as random jitter, e.g. 0.2");
        }
        reportResourceProblems(file.dependentResourceInfos(), fields, problems);
        DurationField grace = fields.kcmNodeMonitorGraceDuration;
        if (!grace.parsed() || grace.value().isNegative()) { // zero is one the original reports; it is already on the list
            problems.requirePositive(grace, "it is the kube-controller-manager's node monitor grace period, e.g. 40s");
        }
        Double fraction = file.nodeLeaseFailureFraction();
        if (fraction != null && !(fraction > 0 && fraction <= 1)) {
            problems.add("nodeLeaseFailureFraction", "must be greater than 0 and at most 1 (was " + fraction + ");"
                    + " it is the fraction of expired node leases at which controllers are scaled down, e.g. 0.6");
        }
        Integer failures = file.failureThreshold();
        if (failures != null && failures < 1) {
            problems.add("failureThreshold", "must be at least 1 (was " + failures + "); it is the number of"
                    + " consecutive failed probes before scaling down, 1 acts at once");
        }
        Integer successes = file.successThreshold();
        if (successes != null && successes < 1) {
            problems.add("successThreshold", "must be at least 1 (was " + successes + "); it is the number of"
                    + " consecutive successful probes before scaling up, 1 acts at once");
        }
    }

    private static void reportResourceProblems(List<DependentResourceInfoAsWritten> resources, Fields fields, Problems problems) {
        if (resources == null) {
            return;
        }
        List<ResourceRef> earlierRefs = new ArrayList<>();
        List<String> earlierPaths = new ArrayList<>();
        for (int i = 0; i < resources.size(); i++) {
            DependentResourceInfoAsWritten resource = resources.get(i);
            if (resource == null) {
                continue;
            }
            ResourceRefAsWritten ref = resource.ref();
            String refPath = Problems.child(Problems.index(RESOURCES, i), "ref");
            if (ref != null) {
                reportRefProblems(ref, refPath, problems);
                if (isWellFormed(ref)) {
                    ResourceRef current = new ResourceRef(ref.apiVersion(), ref.kind(), ref.name());
                    for (int j = 0; j < earlierRefs.size(); j++) {
                        if (earlierRefs.get(j).refersToSameObjectAs(current)) {
                            problems.add(refPath, "names the same resource as " + earlierPaths.get(j) + " ("
                                    + earlierRefs.get(j) + "); list each resource once");
                            break;
                        }
                    }
                    earlierRefs.add(current);
                    earlierPaths.add(refPath);
                }
            }
            reportScaleInfoProblems(fields.scaleUp.get(i), problems);
            reportScaleInfoProblems(fields.scaleDown.get(i), problems);
        }
    }

    private static void reportRefProblems(ResourceRefAsWritten ref, String refPath, Problems problems) {
        // An apiVersion with more than one '/' is one the original reports; it is already on the list.
        if (!ResourceRef.hasMoreThanOneSlash(ref.apiVersion())) {
            ResourceRef.apiVersionProblem(ref.apiVersion())
                    .ifPresent(message -> problems.add(Problems.child(refPath, "apiVersion"), message));
        }
        if (isBlank(ref.kind())) {
            problems.add(Problems.child(refPath, "kind"), "must not be empty; give the kind of the resource, e.g. Deployment");
        } else if (!KubernetesNames.isKind(ref.kind())) {
            problems.add(Problems.child(refPath, "kind"), InvalidGoDuration.quote(ref.kind()) + " is not a kind; kinds"
                    + " are letters and digits starting with a letter, e.g. Deployment");
        }
        if (isBlank(ref.name())) {
            problems.add(Problems.child(refPath, "name"), "must not be empty; give the name of the resource in the"
                    + " shoot namespace, e.g. kube-controller-manager");
        } else if (!ResourceRef.isName(ref.apiVersion(), ref.name())) {
            problems.add(Problems.child(refPath, "name"), InvalidGoDuration.quote(ref.name()) + " is not a name such a"
                    + " resource can have, so none would be found; names of Deployments, StatefulSets and other built-in"
                    + " kinds are " + KubernetesNames.DNS_SUBDOMAIN_RULE + ", e.g. kube-controller-manager");
        }
    }

    private static boolean isWellFormed(ResourceRefAsWritten ref) {
        return ResourceRef.apiVersionProblem(ref.apiVersion()).isEmpty() && KubernetesNames.isKind(ref.kind())
                && !isBlank(ref.name()) && ResourceRef.isName(ref.apiVersion(), ref.name());
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }

    private static void reportScaleInfoProblems(ScaleFields scale, Problems problems) {
        if (scale == null) {
            return;
        }
        problems.requireNotNegative(scale.initialDelay, "it is the wait before each attempt to scale the resource;"
                + " 0s scales at once");
        problems.requirePositive(scale.timeout, "it bounds each call that reads or scales the resource, e.g. 30s");
    }

    private static ProberConfig build(ProberConfigAsWritten file, Fields fields) {
        List<DependentResourceInfo> resources = new ArrayList<>();
        for (int i = 0; i < file.dependentResourceInfos().size(); i++) {
            DependentResourceInfoAsWritten resource = file.dependentResourceInfos().get(i);
            ResourceRefAsWritten ref = resource.ref();
            resources.add(new DependentResourceInfo(
                    new ResourceRef(ref.apiVersion(), ref.kind(), ref.name()),
                    Boolean.TRUE.equals(resource.optional()),
                    fields.scaleUp.get(i).toScaleInfo(),
                    fields.scaleDown.get(i).toScaleInfo()));
        }
        return new ProberConfig(
                file.kubeConfigSecretName(),
                fields.probeInterval.value(),
                fields.initialDelay.value(),
                fields.probeTimeout.value(),
                orDefault(file.backoffJitterFactor(), DEFAULT_BACKOFF_JITTER_FACTOR),
                resources,
                fields.kcmNodeMonitorGraceDuration.value(),
                orDefault(file.nodeLeaseFailureFraction(), DEFAULT_NODE_LEASE_FAILURE_FRACTION),
                file.failureThreshold() == null ? DEFAULT_FAILURE_THRESHOLD : file.failureThreshold(),
                file.successThreshold() == null ? DEFAULT_SUCCESS_THRESHOLD : file.successThreshold());
    }

    private static double orDefault(Double value, double fallback) {
        return value == null ? fallback : value;
    }

    /** The duration fields, parsed once with defaults, so both report passes and the build see the same values. */
    private record Fields(
            DurationField probeInterval,
            DurationField initialDelay,
            DurationField probeTimeout,
            DurationField kcmNodeMonitorGraceDuration,
            List<ScaleFields> scaleUp,
            List<ScaleFields> scaleDown) {

        static Fields of(ProberConfigAsWritten file) {
            List<ScaleFields> scaleUp = new ArrayList<>();
            List<ScaleFields> scaleDown = new ArrayList<>();
            List<DependentResourceInfoAsWritten> resources = file.dependentResourceInfos() == null ? List.of() : file.dependentResourceInfos();
            for (int i = 0; i < resources.size(); i++) {
                DependentResourceInfoAsWritten resource = resources.get(i);
                String path = Problems.index(RESOURCES, i);
                scaleUp.add(resource == null ? null : ScaleFields.of(Problems.child(path, "scaleUp"), resource.scaleUp()));
                scaleDown.add(resource == null ? null : ScaleFields.of(Problems.child(path, "scaleDown"), resource.scaleDown()));
            }
            return new Fields(
                    DurationField.of("probeInterval", file.probeInterval(), DEFAULT_PROBE_INTERVAL),
                    DurationField.of("initialDelay", file.initialDelay(), DEFAULT_INITIAL_DELAY),
                    DurationField.of("probeTimeout", file.probeTimeout(), DEFAULT_PROBE_TIMEOUT),
                    DurationField.of("kcmNodeMonitorGraceDuration", file.kcmNodeMonitorGraceDuration(),
                            DEFAULT_KCM_NODE_MONITOR_GRACE_DURATION),
                    scaleUp,
                    scaleDown);
        }
    }

    /** A present scaleUp/scaleDown block with defaults filled in; absent blocks stay absent ({@code null}). */
    private record ScaleFields(int level, DurationField initialDelay, DurationField timeout) {

        static ScaleFields of(String path, ScaleInfoAsWritten scale) {
            if (scale == null) {
                return null;
            }
            return new ScaleFields(
                    scale.level() == null ? DEFAULT_SCALE_LEVEL : scale.level(),
                    DurationField.of(Problems.child(path, "initialDelay"), scale.initialDelay(), DEFAULT_SCALE_INITIAL_DELAY),
                    DurationField.of(Problems.child(path, "timeout"), scale.timeout(), DEFAULT_SCALE_TIMEOUT));
        }

        ScaleInfo toScaleInfo() {
            return new ScaleInfo(level, initialDelay.value(), timeout.value());
        }
    }
}
