package dwd.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigFilesTest {

    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();
    private final ConfigFiles files = new ConfigFiles(warnings::add);

    private Path file(String yaml) throws IOException {
        Path file = dir.resolve("config.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    static Path resource(String name) {
        return Path.of("src/test/resources/configs", name);
    }

    @Test
    void theOriginalsExampleLoadsWithItsSpellingAndOneWarningForItsUnknownKey() throws Exception {
        var config = files.prober(resource("original-example-prober.yaml"));
        assertThat(config.kubeConfigSecretName()).isEqualTo("dwd-api-server-probe-secret");
        assertThat(config.probeInterval()).isEqualTo(Duration.ofSeconds(20));
        assertThat(config.backoffJitterFactor()).isEqualTo(0.2);
        assertThat(config.dependentResourceInfos()).hasSize(3);
        assertThat(config.dependentResourceInfos().get(1).scaleUp().initialDelay()).isEqualTo(Duration.ofSeconds(30));
        assertThat(warnings).singleElement().asString()
                .endsWith("ignoring unknown key dependentResourceInfos[2].scaleUp.replicas");
    }

    @Test
    void gardenersConfigsLoadWithDefaults() throws Exception {
        var prober = files.prober(Path.of("../deploy/examples/prober-config.yaml"));
        assertThat(prober.probeInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(prober.initialDelay()).isEqualTo(Duration.ofSeconds(30));
        assertThat(prober.kcmNodeMonitorGraceDuration()).isEqualTo(Duration.ofSeconds(40));
        assertThat(prober.nodeLeaseFailureFraction()).isEqualTo(0.6);
        var weeder = files.weeder(Path.of("../deploy/examples/weeder-config.yaml"));
        assertThat(weeder.watchDuration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(weeder.servicesAndDependantSelectors()).containsOnlyKeys("etcd-main-client", "kube-apiserver");
        assertThat(warnings).isEmpty();
    }

    @Test
    void keysMatchInAnyCaseAndExplicitNullsMeanAbsent() throws Exception {
        var config = files.prober(file("""
                KUBECONFIGSECRETNAME: s
                ProbeInterval: 15s
                kcmNodeMonitorGraceDuration:
                dependentResourceInfos:
                  - Ref: {Kind: Deployment, NAME: a, apiversion: apps/v1}
                    scaleup: {level: 0}
                    scaleDOWN: {level: 0}
                """));
        assertThat(config.probeInterval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(config.kcmNodeMonitorGraceDuration()).isEqualTo(Duration.ofSeconds(40));
        assertThat(config.dependentResourceInfos().getFirst().ref().name()).isEqualTo("a");
    }

    @Test
    void allFiveProblemsOfTheOriginalsFixtureAreReportedWithTheirPaths() {
        assertThatThrownBy(() -> files.prober(resource("five-problems-prober.yaml")))
                .isInstanceOfSatisfying(ConfigFileException.class, e -> assertThat(e.problems())
                        .extracting(p -> p.substring(0, p.indexOf(':')))
                        .containsExactly("kubeConfigSecretName", "dependentResourceInfos[0].ref.apiVersion",
                                "dependentResourceInfos[0].scaleUp", "dependentResourceInfos[0].scaleDown",
                                "dependentResourceInfos[2].scaleDown"))
                .hasMessageStartingWith("5 problems in the prober config in ");
    }

    @Test
    void aBareNumberForADurationIsReportedAsMissingItsUnit() {
        assertThatThrownBy(() -> files.prober(file("""
                kubeConfigSecretName: s
                probeInterval: 10
                dependentResourceInfos:
                  - ref: {kind: Deployment, name: a, apiVersion: apps/v1}
                    scaleUp: {level: 0}
                    scaleDown: {level: 0}
                """)))
                .isInstanceOfSatisfying(ConfigFileException.class, e -> assertThat(e.problems())
                        .singleElement().asString().startsWith("probeInterval: ").contains("unit"));
    }

    @Test
    void aWrongShapeNamesTheLineThePathWhatWasExpectedAndWhatWasFound() {
        assertThatThrownBy(() -> files.prober(resource("wrong-shape-prober.yaml")))
                .isInstanceOfSatisfying(ConfigFileException.class, e -> assertThat(e.problems()).containsExactly(
                        "line 7, column 14: dependentResourceInfos[0].scaleUp: expected a mapping (key: value lines),"
                                + " found the string 'level:0'"));
    }

    @Test
    void brokenYamlEmptyAndMissingFilesAreReportedPlainly() throws Exception {
        assertThatThrownBy(() -> files.prober(file("a: [\n")))
                .hasMessageContaining("not valid YAML").hasMessageContaining("line 2, column 1: while parsing a flow node");
        assertThatThrownBy(() -> files.weeder(file("   \n")))
                .hasMessageContaining("the weeder config file is empty");
        assertThatThrownBy(() -> files.prober(dir.resolve("absent.yaml")))
                .hasMessageContaining("no such file").hasMessageContaining("--config-file");
    }

    @Test
    void weederSelectorProblemsCarryTheirPath() {
        assertThatThrownBy(() -> files.weeder(file("""
                servicesAndDependantSelectors:
                  etcd-main-client:
                    podSelectors:
                      - matchExpressions:
                          - {key: role, operator: In}
                """)))
                .isInstanceOfSatisfying(ConfigFileException.class, e -> assertThat(e.problems()).singleElement()
                        .asString().startsWith("servicesAndDependantSelectors[etcd-main-client].podSelectors[0]"));
    }

    @Test
    void unknownKeysHoldingListsOrMappingsAreNamedByTheirOwnPath() throws Exception {
        files.prober(file("""
                kubeConfigSecretName: s
                fooList: [a, b, c]
                fooMap: {x: 1, y: [2]}
                dependentResourceInfos:
                  - ref: {kind: Deployment, name: kcm, apiVersion: apps/v1}
                    extraList:
                      - {fooList: [1]}
                    extraMap: {nested: {deeper: 1}}
                    scaleUp: {level: 0, steps: [1, 2]}
                    scaleDown: {level: 0}
                afterAll: 1
                """));
        assertThat(warnings).singleElement().asString().endsWith("ignoring unknown keys fooList, fooMap,"
                + " dependentResourceInfos[0].extraList, dependentResourceInfos[0].extraMap,"
                + " dependentResourceInfos[0].scaleUp.steps, afterAll");
    }

    @Test
    void unknownKeysUnderAMappingOfNamesUseTheValidationsPathStyle() throws Exception {
        files.weeder(file("""
                servicesAndDependantSelectors:
                  etcd-main-client:
                    extra: [1, 2]
                    podSelectors:
                      - matchLabels: {role: main}
                        other: {a: b}
                """));
        assertThat(warnings).singleElement().asString().endsWith("ignoring unknown keys"
                + " servicesAndDependantSelectors[etcd-main-client].extra,"
                + " servicesAndDependantSelectors[etcd-main-client].podSelectors[0].other");
    }

    @Test
    void aliasesReadAsTheNodesTheirAnchorsMark() throws Exception {
        var config = files.prober(file("""
                kubeConfigSecretName: shoot-access-dependency-watchdog-probe
                x-defaults: {apiVersion: &v apps/v1, kind: &kind Deployment}
                dependentResourceInfos:
                  - ref: {apiVersion: *v, kind: *kind, name: kube-controller-manager}
                    scaleUp: &level0 {level: 0, timeout: 10s}
                    scaleDown: *level0
                """));
        var kcm = config.dependentResourceInfos().getFirst();
        assertThat(kcm.ref().apiVersion()).isEqualTo("apps/v1");
        assertThat(kcm.ref().kind()).isEqualTo("Deployment");
        assertThat(kcm.scaleDown().timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(warnings).singleElement().asString().endsWith("ignoring unknown key x-defaults");
    }

    @Test
    void aliasesBeyondTheBoundAndMergeKeysAreRefusedWithTheirLine() throws Exception {
        assertThatThrownBy(() -> files.prober(file("kubeConfigSecretName: s\nbase: &b {level: 0}\n"
                + "dependentResourceInfos: [{scaleUp: {<<: *b}}]\n")))
                .isInstanceOfSatisfying(ConfigFileException.class, e -> assertThat(e.problems()).containsExactly(
                        "line 3, column 37: dependentResourceInfos[0].scaleUp: merge keys (<<) are not supported; write"
                                + " the keys out (YAML 1.2 has no merge keys)"));
        var bomb = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for (int level = 1; level <= 8; level++) {
            bomb.append("a").append(level).append(": &a").append(level).append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(10, "*a" + (level - 1)))).append("]\n");
        }
        assertThatThrownBy(() -> files.prober(file(bomb.toString())))
                .hasMessageContaining("aliases expand to more than 100,000 values");
    }

    @Test
    void whatIsNotARegularUtf8FileOfAtMostAMebibyteIsRefusedInOneLine() throws Exception {
        Path pipe = dir.resolve("pipe");
        assertThat(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor()).isZero();
        assertThatThrownBy(() -> files.prober(pipe)).hasMessage("the prober config file " + pipe
                + ": is a named pipe (FIFO), not a regular file; dwd reads only regular files");
        assertThatThrownBy(() -> files.weeder(Path.of("/dev/zero"))).hasMessage("the weeder config file /dev/zero:"
                + " is a character device, not a regular file; dwd reads only regular files");
        Path binary = Files.write(dir.resolve("binary"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0});
        assertThatThrownBy(() -> files.prober(binary)).hasMessage("the prober config file " + binary
                + ": line 1, column 1: byte 0x89 is not UTF-8; dwd reads YAML and JSON as UTF-8 text (is this a binary file?)");
        Path large = Files.writeString(dir.resolve("large.yaml"), "# " + "x".repeat(2 << 20) + "\n");
        assertThatThrownBy(() -> files.prober(large)).hasMessage("the prober config file " + large
                + ": is 2 MiB; dwd reads at most 1 MiB from a config file");
    }

    @Test
    void valuesOfTheWrongTypeSayWhatWasFoundWithoutJacksonsWords() throws Exception {
        for (String[] example : new String[][] {
            {"failureThreshold: true", "line 1, column 19: failureThreshold: expected a whole number, found true"},
            {"failureThreshold: 1.5", "line 1, column 19: failureThreshold: expected a whole number, found the number 1.5"},
            {"failureThreshold: 99999999999", "failureThreshold: expected a whole number from -2147483648 to 2147483647,"
                    + " found 99999999999"},
            {"dependentResourceInfos: abc", "line 1, column 25: dependentResourceInfos: expected a list, found the string 'abc'"},
        }) {
            assertThatThrownBy(() -> files.prober(file(example[0] + "\n")))
                    .isInstanceOfSatisfying(ConfigFileException.class, e -> assertThat(e.problems()).singleElement()
                            .asString().endsWith(example[1]).doesNotContain("token", "JsonToken", "`"));
        }
        assertThatThrownBy(() -> files.weeder(file("servicesAndDependantSelectors: {svc: {podSelectors: abc}}\n")))
                .isInstanceOfSatisfying(ConfigFileException.class, e -> assertThat(e.problems()).singleElement()
                        .asString().endsWith("podSelectors: expected a list, found the string 'abc'"));
    }
}
