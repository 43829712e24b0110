package dwd.domain.config;

import static dwd.domain.config.ConfigFixtures.deployment;
import static dwd.domain.config.ConfigFixtures.gardenerProberConfig;
import static dwd.domain.config.ConfigFixtures.level;
import static dwd.domain.config.ConfigFixtures.originalProberExample;
import static dwd.domain.config.ConfigFixtures.paths;
import static dwd.domain.config.ConfigFixtures.valid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProberConfigsTest {

    private static final Duration SECONDS_30 = Duration.ofSeconds(30);

    @Test
    void theOriginalsExampleIsValidAndGetsTheOriginalsDefaults() {
        assertThat(valid(originalProberExample())).isEqualTo(new ProberConfig(
                "dwd-api-server-probe-secret",
                Duration.ofSeconds(10),
                SECONDS_30,
                SECONDS_30,
                0.2,
                List.of(
                        new DependentResourceInfo(new ResourceRef("apps/v1", "Deployment", "kube-controller-manager"), false,
                                new ScaleInfo(0, Duration.ZERO, SECONDS_30), new ScaleInfo(1, Duration.ZERO, SECONDS_30)),
                        new DependentResourceInfo(new ResourceRef("apps/v1", "Deployment", "machine-controller-manager"), false,
                                new ScaleInfo(1, SECONDS_30, SECONDS_30), new ScaleInfo(0, Duration.ZERO, SECONDS_30)),
                        new DependentResourceInfo(new ResourceRef("apps/v1", "Deployment", "cluster-autoscaler"), true,
                                new ScaleInfo(2, Duration.ZERO, SECONDS_30), new ScaleInfo(0, Duration.ZERO, SECONDS_30))),
                Duration.ofSeconds(40),
                0.6,
                1,
                1));
    }

    @Test
    void gardenersConfigIsValidWithEverythingButThreeKeysDefaulted() {
        ProberConfig config = valid(gardenerProberConfig());

        assertThat(config.kubeConfigSecretName()).isEqualTo("shoot-access-dependency-watchdog-probe");
        assertThat(config.probeInterval()).isEqualTo(SECONDS_30);
        assertThat(config.initialDelay()).isEqualTo(ProberConfigs.DEFAULT_INITIAL_DELAY).isEqualTo(SECONDS_30);
        assertThat(config.probeTimeout()).isEqualTo(SECONDS_30);
        assertThat(config.backoffJitterFactor()).isEqualTo(0.2);
        assertThat(config.kcmNodeMonitorGraceDuration()).isEqualTo(Duration.ofSeconds(40));
        assertThat(config.nodeLeaseFailureFraction()).isEqualTo(0.6);
        assertThat(config.failureThreshold()).isEqualTo(1);
        assertThat(config.successThreshold()).isEqualTo(1);
        assertThat(config.dependentResourceInfos()).extracting(info -> info.ref().name())
                .containsExactly("kube-controller-manager", "machine-controller-manager", "cluster-autoscaler");
    }

    /** The original's {@code config_missing_mandatory_values.yaml}: it reports exactly these five errors. */
    @Test
    void theOriginalsFiveErrorFixtureGivesTheSameFiveProblemsInTheSameOrder() {
        ProberConfigAsWritten written = new ProberConfigAsWritten("", "20s", "5s", null, 0.2, List.of(
                new DependentResourceInfoAsWritten(new ResourceRefAsWritten("apps/v/1", "Deployment", "kube-controller-manager"), null, null, null),
                new DependentResourceInfoAsWritten(deployment("machine-controller-manager"), null,
                        new ScaleInfoAsWritten(1, "10s", "60s"), new ScaleInfoAsWritten(0, "15s", "45s")),
                new DependentResourceInfoAsWritten(deployment("cluster-autoscaler"), null, new ScaleInfoAsWritten(0, "10s", "60s"), null)),
                null, null, 3, 1);

        Validated<ProberConfig> outcome = ProberConfigs.validate(written);

        assertThat(outcome).isInstanceOf(Validated.Invalid.class);
        assertThat(paths(outcome)).containsExactly(
                "kubeConfigSecretName",
                "dependentResourceInfos[0].ref.apiVersion",
                "dependentResourceInfos[0].scaleUp",
                "dependentResourceInfos[0].scaleDown",
                "dependentResourceInfos[2].scaleDown");
        assertThat(outcome.problems().get(1).message()).startsWith("\"apps/v/1\" has more than one '/'");
    }

    /** The original's second fixture: a null secret name and grace duration, no resources: two errors. */
    @Test
    void theOriginalsTwoErrorFixtureGivesTwoProblemsAndDefaultsTheNullGraceDuration() {
        ProberConfigAsWritten written = new ProberConfigAsWritten(null, "20s", "5s", null, 0.2, null, null, null, null, null);

        Validated<ProberConfig> outcome = ProberConfigs.validate(written);

        assertThat(paths(outcome)).containsExactly("kubeConfigSecretName", "dependentResourceInfos");
        assertThat(outcome.problems()).extracting(ConfigProblem::toString).containsExactly(
                "kubeConfigSecretName: must not be empty; name the Secret in each shoot namespace whose key"
                        + " \"kubeconfig\" reaches the shoot's API server (Gardener: shoot-access-dependency-watchdog-probe)",
                "dependentResourceInfos: must not be empty; list the resources to scale (e.g. kube-controller-manager,"
                        + " machine-controller-manager, cluster-autoscaler), each with ref, scaleUp and scaleDown");
    }

    @Test
    void anEmptyFileReportsTheTwoMandatoryKeys() {
        assertThat(paths(ProberConfigs.validate(null))).containsExactly("kubeConfigSecretName", "dependentResourceInfos");
        assertThat(paths(ProberConfigs.validate(ProberConfigAsWritten.empty()))).containsExactly("kubeConfigSecretName", "dependentResourceInfos");
    }

    static Stream<Arguments> singleProblems() {
        return Stream.of(
                arguments("blank secret name", change(b -> b.kubeConfigSecretName(" \t")),
                        "kubeConfigSecretName", "must not be empty; name the Secret"),
                arguments("zero grace duration", change(b -> b.kcmNodeMonitorGraceDuration("0s")),
                        "kcmNodeMonitorGraceDuration", "must not be zero; it is the kube-controller-manager's node monitor grace period"),
                arguments("negative grace duration", change(b -> b.kcmNodeMonitorGraceDuration("-40s")),
                        "kcmNodeMonitorGraceDuration", "must be positive (was -40s); it is the kube-controller-manager's"),
                arguments("grace duration without unit", change(b -> b.kcmNodeMonitorGraceDuration("40")),
                        "kcmNodeMonitorGraceDuration", "invalid duration \"40\": missing unit after 40"),
                arguments("empty resource list", change(b -> b.dependentResourceInfos(List.of())),
                        "dependentResourceInfos", "must not be empty; list the resources to scale"),
                arguments("null resource", change(b -> b.resource(1, r -> null)),
                        "dependentResourceInfos[1]", "must not be empty; give the entry a ref, a scaleUp and a scaleDown"),
                arguments("missing ref", change(b -> b.resource(2, r -> new DependentResourceInfoAsWritten(null, true, r.scaleUp(), r.scaleDown()))),
                        "dependentResourceInfos[2].ref", "must be set; name the resource to scale, e.g. {apiVersion: apps/v1"),
                arguments("apiVersion with two slashes", ref(0, new ResourceRefAsWritten("apps/v/1", "Deployment", "kcm")),
                        "dependentResourceInfos[0].ref.apiVersion", "\"apps/v/1\" has more than one '/'; write group/version, e.g. apps/v1"),
                arguments("empty apiVersion", ref(0, new ResourceRefAsWritten("", "Deployment", "kcm")),
                        "dependentResourceInfos[0].ref.apiVersion", "must be set; write group/version"),
                arguments("missing apiVersion", ref(0, new ResourceRefAsWritten(null, "Deployment", "kcm")),
                        "dependentResourceInfos[0].ref.apiVersion", "must be set; write group/version"),
                arguments("empty group", ref(0, new ResourceRefAsWritten("/v1", "Deployment", "kcm")),
                        "dependentResourceInfos[0].ref.apiVersion", "\"/v1\" has an empty group before '/'"),
                arguments("empty version", ref(0, new ResourceRefAsWritten("apps/", "Deployment", "kcm")),
                        "dependentResourceInfos[0].ref.apiVersion", "\"apps/\" has an empty version after '/'"),
                arguments("whitespace in apiVersion", ref(0, new ResourceRefAsWritten("apps /v1", "Deployment", "kcm")),
                        "dependentResourceInfos[0].ref.apiVersion", "\"apps /v1\" contains whitespace"),
                arguments("empty kind", ref(1, new ResourceRefAsWritten("apps/v1", "", "mcm")),
                        "dependentResourceInfos[1].ref.kind", "must not be empty; give the kind of the resource, e.g. Deployment"),
                arguments("missing kind", ref(1, new ResourceRefAsWritten("apps/v1", null, "mcm")),
                        "dependentResourceInfos[1].ref.kind", "must not be empty"),
                arguments("blank name", ref(1, new ResourceRefAsWritten("apps/v1", "Deployment", " ")),
                        "dependentResourceInfos[1].ref.name", "must not be empty; give the name of the resource in the shoot namespace"),
                arguments("duplicate resource", ref(2, new ResourceRefAsWritten("apps/v1beta2", "Deployment", "kube-controller-manager")),
                        "dependentResourceInfos[2].ref", "names the same resource as dependentResourceInfos[0].ref"
                                + " (apps/v1 Deployment kube-controller-manager); list each resource once"),
                arguments("missing scaleUp", change(b -> b.resource(0, r -> new DependentResourceInfoAsWritten(r.ref(), r.optional(), null, r.scaleDown()))),
                        "dependentResourceInfos[0].scaleUp", "must be set; give at least its level, e.g. scaleUp: {level: 0}"),
                arguments("missing scaleDown", change(b -> b.resource(2, r -> new DependentResourceInfoAsWritten(r.ref(), r.optional(), r.scaleUp(), null))),
                        "dependentResourceInfos[2].scaleDown", "must be set; give at least its level, e.g. scaleDown: {level: 0}"),
                arguments("negative scale-up delay", scaleUp(1, new ScaleInfoAsWritten(1, "-30s", null)),
                        "dependentResourceInfos[1].scaleUp.initialDelay", "must not be negative (was -30s); it is the wait before each attempt"),
                arguments("unparsable scale-up delay", scaleUp(1, new ScaleInfoAsWritten(1, "30 s", null)),
                        "dependentResourceInfos[1].scaleUp.initialDelay", "invalid duration \"30 s\": unknown unit \" s\""),
                arguments("zero scale-up timeout", scaleUp(1, new ScaleInfoAsWritten(1, null, "0s")),
                        "dependentResourceInfos[1].scaleUp.timeout", "must be positive (was 0s); it bounds each call that reads or scales the resource"),
                arguments("scale-down timeout without unit", scaleDown(0, new ScaleInfoAsWritten(1, null, "30")),
                        "dependentResourceInfos[0].scaleDown.timeout", "invalid duration \"30\": missing unit after 30"),
                arguments("zero probe interval", change(b -> b.probeInterval("0s")),
                        "probeInterval", "must be positive (was 0s); it is the time between two probes, e.g. 10s"),
                arguments("negative probe interval", change(b -> b.probeInterval("-10s")),
                        "probeInterval", "must be positive (was -10s)"),
                arguments("probe interval in days", change(b -> b.probeInterval("1d")),
                        "probeInterval", "invalid duration \"1d\": unknown unit \"d\"; Go durations have no day unit"),
                arguments("negative initial delay", change(b -> b.initialDelay("-1s")),
                        "initialDelay", "must not be negative (was -1s); it is the wait before a shoot's first probe"),
                arguments("zero probe timeout", change(b -> b.probeTimeout("0")),
                        "probeTimeout", "must be positive (was 0s); it bounds each request to the shoot's API server"),
                arguments("jitter above 1", change(b -> b.backoffJitterFactor(1.5)),
                        "backoffJitterFactor", "must be between 0 and 1 (was 1.5); it is the fraction of probeInterval added as random jitter"),
                arguments("negative jitter", change(b -> b.backoffJitterFactor(-0.1)),
                        "backoffJitterFactor", "must be between 0 and 1 (was -0.1)"),
                arguments("NaN jitter", change(b -> b.backoffJitterFactor(Double.NaN)),
                        "backoffJitterFactor", "must be between 0 and 1 (was NaN)"),
                arguments("infinite jitter", change(b -> b.backoffJitterFactor(Double.POSITIVE_INFINITY)),
                        "backoffJitterFactor", "must be between 0 and 1 (was Infinity)"),
                arguments("zero failure fraction", change(b -> b.nodeLeaseFailureFraction(0.0)),
                        "nodeLeaseFailureFraction", "must be greater than 0 and at most 1 (was 0.0); it is the fraction of expired node leases"),
                arguments("failure fraction as a percentage", change(b -> b.nodeLeaseFailureFraction(60.0)),
                        "nodeLeaseFailureFraction", "must be greater than 0 and at most 1 (was 60.0)"),
                arguments("negative failure fraction", change(b -> b.nodeLeaseFailureFraction(-0.5)),
                        "nodeLeaseFailureFraction", "must be greater than 0 and at most 1 (was -0.5)"),
                arguments("NaN failure fraction", change(b -> b.nodeLeaseFailureFraction(Double.NaN)),
                        "nodeLeaseFailureFraction", "must be greater than 0 and at most 1 (was NaN)"),
                arguments("infinite failure fraction", change(b -> b.nodeLeaseFailureFraction(Double.NEGATIVE_INFINITY)),
                        "nodeLeaseFailureFraction", "must be greater than 0 and at most 1 (was -Infinity)"),
                arguments("zero failure threshold", change(b -> b.failureThreshold(0)),
                        "failureThreshold", "must be at least 1 (was 0); it is the number of consecutive failed probes before scaling down"),
                arguments("negative success threshold", change(b -> b.successThreshold(-1)),
                        "successThreshold", "must be at least 1 (was -1); it is the number of consecutive successful probes before scaling up"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("singleProblems")
    void reportsOneProblemWithItsPathAndAHowToFix(String name, UnaryOperator<ProberConfigAsWrittenBuilder> change, String path, String messageStart) {
        Validated<ProberConfig> outcome = ProberConfigs.validate(change.apply(ProberConfigAsWrittenBuilder.from(gardenerProberConfig())).build());

        assertThat(outcome.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo(path);
            assertThat(problem.message()).startsWith(messageStart);
            assertThat(problem.toString()).isEqualTo(path + ": " + problem.message());
        });
    }

    static Stream<Arguments> acceptedEdges() {
        return Stream.of(
                arguments("no initial delay", change(b -> b.initialDelay("0s"))),
                arguments("bare zero initial delay", change(b -> b.initialDelay("0"))),
                arguments("no jitter", change(b -> b.backoffJitterFactor(0.0))),
                arguments("full jitter", change(b -> b.backoffJitterFactor(1.0))),
                arguments("failure fraction 1", change(b -> b.nodeLeaseFailureFraction(1.0))),
                arguments("tiny failure fraction", change(b -> b.nodeLeaseFailureFraction(0.001))),
                arguments("hysteresis", change(b -> b.failureThreshold(3).successThreshold(2))),
                arguments("sub-second interval", change(b -> b.probeInterval("500ms"))),
                arguments("core-group resource", ref(0, new ResourceRefAsWritten("v1", "ReplicationController", "kcm"))),
                arguments("unknown kind (fails at scale time, as in the original)", ref(0, new ResourceRefAsWritten("apps/v1", "Depoyment", "kcm"))),
                arguments("same name, different kind", ref(2, new ResourceRefAsWritten("apps/v1", "StatefulSet", "kube-controller-manager"))),
                arguments("negative levels and gaps", change(b -> scaleUp(2, new ScaleInfoAsWritten(100, "0s", "1ms"))
                        .apply(scaleUp(0, new ScaleInfoAsWritten(-7, null, null)).apply(b)))),
                arguments("all levels equal", scaleDown(0, level(0))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedEdges")
    void acceptsEdgesTheRulesAllow(String name, UnaryOperator<ProberConfigAsWrittenBuilder> change) {
        assertThat(ProberConfigs.validate(change.apply(ProberConfigAsWrittenBuilder.from(gardenerProberConfig())).build()).problems()).isEmpty();
    }

    @Test
    void theOriginalsProblemsComeFirstInItsOrderThenDwdsOwnInFileOrder() {
        ProberConfigAsWritten written = ProberConfigAsWrittenBuilder.from(gardenerProberConfig())
                .kubeConfigSecretName("")
                .probeInterval("0s")
                .kcmNodeMonitorGraceDuration("0s")
                .nodeLeaseFailureFraction(2.0)
                .resource(0, r -> new DependentResourceInfoAsWritten(new ResourceRefAsWritten("apps/v1", "", "kcm"), null, r.scaleUp(), r.scaleDown()))
                .resource(1, r -> new DependentResourceInfoAsWritten(r.ref(), null, null, new ScaleInfoAsWritten(0, "-1s", null)))
                .build();

        assertThat(paths(ProberConfigs.validate(written))).containsExactly(
                "kubeConfigSecretName",
                "kcmNodeMonitorGraceDuration",
                "dependentResourceInfos[1].scaleUp",
                "probeInterval",
                "dependentResourceInfos[0].ref.kind",
                "dependentResourceInfos[1].scaleDown.initialDelay",
                "nodeLeaseFailureFraction");
    }

    @Test
    void namesThatNoObjectCouldHaveAreRefusedWhereTheyAreUsedAsNames() {
        ProberConfigAsWritten written = ProberConfigAsWrittenBuilder.from(gardenerProberConfig())
                .kubeConfigSecretName("shoot_access/probe")
                .resource(0, r -> new DependentResourceInfoAsWritten(
                        new ResourceRefAsWritten("apps/v1", "Deploy ment", "Kube-Controller-Manager"), null, r.scaleUp(), r.scaleDown()))
                .resource(1, r -> new DependentResourceInfoAsWritten(
                        new ResourceRefAsWritten("Machine.SapCloud.io/v1alpha1", "MachineDeployment", "mcm"), null, r.scaleUp(), r.scaleDown()))
                .build();
        assertThat(ProberConfigs.validate(written).problems()).extracting(ConfigProblem::toString).containsExactly(
                "kubeConfigSecretName: \"shoot_access/probe\" is not a Secret name, so no Secret could have it; Secret names"
                        + " are a lowercase DNS subdomain (a-z, 0-9, '-' and '.', starting and ending with a letter or digit,"
                        + " at most 253 characters), e.g. shoot-access-dependency-watchdog-probe",
                "dependentResourceInfos[0].ref.kind: \"Deploy ment\" is not a kind; kinds are letters and digits starting"
                        + " with a letter, e.g. Deployment",
                "dependentResourceInfos[0].ref.name: \"Kube-Controller-Manager\" is not a name such a resource can have, so"
                        + " none would be found; names of Deployments, StatefulSets and other built-in kinds are a lowercase"
                        + " DNS subdomain (a-z, 0-9, '-' and '.', starting and ending with a letter or digit, at most 253"
                        + " characters), e.g. kube-controller-manager",
                "dependentResourceInfos[1].ref.apiVersion: \"Machine.SapCloud.io/v1alpha1\" has a group that is not a"
                        + " lowercase DNS subdomain (a-z, 0-9, '-' and '.', starting and ending with a letter or digit, at"
                        + " most 253 characters); write group/version, e.g. apps/v1, or only the version, e.g. v1, for the"
                        + " core group");
    }

    @Test
    void customResourcesMayHaveNamesThatAreNotDnsSubdomains() {
        ProberConfig config = valid(ProberConfigAsWrittenBuilder.from(gardenerProberConfig())
                .resource(0, r -> new DependentResourceInfoAsWritten(
                        new ResourceRefAsWritten("example.com/v1", "Widget", "Widget_A"), null, r.scaleUp(), r.scaleDown()))
                .build());
        assertThat(config.dependentResourceInfos().getFirst().ref().name()).isEqualTo("Widget_A");
    }

    @Test
    void scaleInfoDefaultsApplyOnlyToBlocksThatArePresent() {
        ProberConfigAsWritten written = ProberConfigAsWrittenBuilder.from(gardenerProberConfig())
                .resource(0, r -> new DependentResourceInfoAsWritten(r.ref(), null, new ScaleInfoAsWritten(null, null, null), null))
                .build();

        Validated<ProberConfig> outcome = ProberConfigs.validate(written);
        assertThat(paths(outcome)).containsExactly("dependentResourceInfos[0].scaleDown");

        ProberConfig config = valid(ProberConfigAsWrittenBuilder.from(written)
                .resource(0, r -> new DependentResourceInfoAsWritten(r.ref(), null, r.scaleUp(), new ScaleInfoAsWritten(4, null, "1m")))
                .build());
        assertThat(config.dependentResourceInfos().getFirst().scaleUp()).isEqualTo(new ScaleInfo(0, Duration.ZERO, SECONDS_30));
        assertThat(config.dependentResourceInfos().getFirst().scaleDown()).isEqualTo(new ScaleInfo(4, Duration.ZERO, Duration.ofMinutes(1)));
        assertThat(config.dependentResourceInfos().getFirst().optional()).isFalse();
    }

    @Test
    void aResourceWithNothingButARefReportsBothScaleBlocks() {
        ProberConfigAsWritten written = ProberConfigAsWrittenBuilder.from(gardenerProberConfig())
                .dependentResourceInfos(List.of(new DependentResourceInfoAsWritten(deployment("kcm"), null, null, null)))
                .build();

        assertThat(paths(ProberConfigs.validate(written)))
                .containsExactly("dependentResourceInfos[0].scaleUp", "dependentResourceInfos[0].scaleDown");
    }

    @Test
    void everyProblemOfAnEntryIsReportedNotJustTheFirst() {
        ProberConfigAsWritten written = ProberConfigAsWrittenBuilder.from(gardenerProberConfig())
                .dependentResourceInfos(List.of(new DependentResourceInfoAsWritten(new ResourceRefAsWritten("apps//v1", null, ""), null,
                        new ScaleInfoAsWritten(0, "x", "y"), new ScaleInfoAsWritten(0, "-1ms", "-1ms"))))
                .build();

        assertThat(paths(ProberConfigs.validate(written))).containsExactly(
                "dependentResourceInfos[0].ref.apiVersion",
                "dependentResourceInfos[0].ref.kind",
                "dependentResourceInfos[0].ref.name",
                "dependentResourceInfos[0].scaleUp.initialDelay",
                "dependentResourceInfos[0].scaleUp.timeout",
                "dependentResourceInfos[0].scaleDown.initialDelay",
                "dependentResourceInfos[0].scaleDown.timeout");
    }

    @Test
    void eachDuplicateIsReportedAgainstTheFirstOccurrence() {
        ProberConfigAsWritten written = ProberConfigAsWrittenBuilder.from(gardenerProberConfig())
                .dependentResourceInfos(new ArrayList<>(List.of(
                        ConfigFixtures.resource("a", false, level(0), level(0)),
                        ConfigFixtures.resource("a", false, level(1), level(1)),
                        ConfigFixtures.resource("a", false, level(2), level(2)))))
                .build();

        assertThat(ProberConfigs.validate(written).problems()).extracting(ConfigProblem::toString).containsExactly(
                "dependentResourceInfos[1].ref: names the same resource as dependentResourceInfos[0].ref (apps/v1 Deployment a); list each resource once",
                "dependentResourceInfos[2].ref: names the same resource as dependentResourceInfos[0].ref (apps/v1 Deployment a); list each resource once");
    }

    @Test
    void theConfigAsWrittenIsCopiedSoLaterChangesDoNotLeakIn() {
        List<DependentResourceInfoAsWritten> resources = new ArrayList<>(ConfigFixtures.controlPlaneControllers());
        ProberConfigAsWritten written = ProberConfigAsWrittenBuilder.from(gardenerProberConfig()).dependentResourceInfos(resources).build();
        resources.clear();

        assertThat(valid(written).dependentResourceInfos()).hasSize(3);
    }

    private static UnaryOperator<ProberConfigAsWrittenBuilder> change(UnaryOperator<ProberConfigAsWrittenBuilder> change) {
        return change;
    }

    private static UnaryOperator<ProberConfigAsWrittenBuilder> ref(int index, ResourceRefAsWritten ref) {
        return b -> b.resource(index, r -> new DependentResourceInfoAsWritten(ref, r.optional(), r.scaleUp(), r.scaleDown()));
    }

    private static UnaryOperator<ProberConfigAsWrittenBuilder> scaleUp(int index, ScaleInfoAsWritten scaleUp) {
        return b -> b.resource(index, r -> new DependentResourceInfoAsWritten(r.ref(), r.optional(), scaleUp, r.scaleDown()));
    }

    private static UnaryOperator<ProberConfigAsWrittenBuilder> scaleDown(int index, ScaleInfoAsWritten scaleDown) {
        return b -> b.resource(index, r -> new DependentResourceInfoAsWritten(r.ref(), r.optional(), r.scaleUp(), scaleDown));
    }
}
