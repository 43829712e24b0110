package dwd.bootstrap.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.ShootApiStub;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Must-show 5: bad input about one shoot never kills {@code ./dwd prober}. Three shoots, one of
 * them broken: the problem is logged once (at the default level; repeats only at debug level)
 * with the broken shoot's namespace, and the two others keep being probed. And a problem that a
 * dependent shows (a garbage replicas annotation) is logged once, and once more when it clears.
 */
@WithLocalControlPlane
class ProberBadInputIT {

    private static final Path REPOSITORY = ProberMeltdownIT.REPOSITORY;
    private static final String SECRET = "dwd-bad-input-it-probe";
    private static final String CONFIG = """
            kubeConfigSecretName: %s
            probeInterval: 1s
            initialDelay: 0s
            probeTimeout: 2s
            backoffJitterFactor: 0
            kcmNodeMonitorGraceDuration: 1h
            dependentResourceInfos:
              - ref: {kind: Deployment, name: kube-controller-manager, apiVersion: apps/v1}
                optional: true
                scaleUp: {level: 0}
                scaleDown: {level: 0}
            """.formatted(SECRET);
    private static final Duration AT_MOST = Duration.ofSeconds(60);
    private static final String REPLICAS = "dependency-watchdog.gardener.cloud/replicas";
    private static final String MELTDOWN_PROTECTION = "dependency-watchdog.gardener.cloud/meltdown-protection-active";
    /** Gardener's three dependents, all scaled up at once (no delays). */
    private static final String CONFIG_OF_THREE = """
            kubeConfigSecretName: %s
            probeInterval: 1s
            initialDelay: 0s
            probeTimeout: 2s
            backoffJitterFactor: 0
            kcmNodeMonitorGraceDuration: 1h
            dependentResourceInfos:
              - ref: {kind: Deployment, name: kube-controller-manager, apiVersion: apps/v1}
                scaleUp: {level: 0}
                scaleDown: {level: 1}
              - ref: {kind: Deployment, name: machine-controller-manager, apiVersion: apps/v1}
                scaleUp: {level: 0}
                scaleDown: {level: 0}
              - ref: {kind: Deployment, name: cluster-autoscaler, apiVersion: apps/v1}
                optional: true
                scaleUp: {level: 0}
                scaleDown: {level: 0}
            """.formatted(SECRET);

    /** The ways a shoot can be broken, each with what its log line says. */
    enum BadInput {
        CLUSTER_WITHOUT_SHOOT("Cluster has no spec.shoot", false),
        MALFORMED_SHOOT("spec.shoot cannot be decoded: spec.shoot.apiVersion: expected a string", false),
        SECRET_WITHOUT_KUBECONFIG("has no data key 'kubeconfig'", true),
        KUBECONFIG_THAT_DOES_NOT_PARSE("the kubeconfig is not valid YAML", true),
        LEASE_WITHOUT_RENEW_TIME("1 node lease has no spec.renewTime", true),
        /** Fresh leases counted as expired would scale the healthy shoot down: the configured grace applies instead. */
        GRACE_PERIOD_NOT_POSITIVE("nodeMonitorGracePeriod is -1h0m0s, not positive: the prober uses its"
                + " kcmNodeMonitorGraceDuration instead", true),
        /** A zero grace would count every lease as expired: the configured grace applies, as for a negative one. */
        GRACE_PERIOD_ZERO("nodeMonitorGracePeriod is 0s, not positive: the prober uses its"
                + " kcmNodeMonitorGraceDuration instead", true),
        KUBECONFIG_WITH_TOO_MANY_ALIASES("the kubeconfig is not valid YAML (line 5, column", true),
        SHOOT_API_THAT_REDIRECTS("302 (a redirect, which dwd does not follow", true),
        LEASE_LIST_THAT_NEVER_ENDS("refused: more than 25 pages of leases in kube-node-lease", true);

        final String logged;
        /** Whether the shoot is probed at all (and so again and again). */
        final boolean probed;

        BadInput(String logged, boolean probed) {
            this.logged = logged;
            this.probed = probed;
        }
    }

    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private Process prober;
    private Path log;
    private SeedFixture brokenShoot;

    @AfterEach
    void stopEverything() throws Exception {
        if (prober != null && prober.isAlive()) {
            prober.destroy();
            prober.waitFor(30, TimeUnit.SECONDS);
            prober.destroyForcibly();
        }
        for (AutoCloseable closeable : cleanup.reversed()) {
            closeable.close();
        }
    }

    @ParameterizedTest
    @EnumSource(BadInput.class)
    void oneBrokenShootIsLoggedOnceAndTheOthersKeepBeingProbed(BadInput bad, LocalControlPlane controlPlane)
            throws Exception {
        String good1 = healthyShoot(controlPlane, "shoot--dev--good").namespace();
        String good2 = healthyShoot(controlPlane, "shoot--dev--good").namespace();
        brokenShoot = brokenShoot(controlPlane, bad);
        String broken = brokenShoot.namespace();
        Path dir = Files.createTempDirectory("dwd-bad-input");
        startProber(controlPlane, dir);

        await("the broken shoot's problem logged").atMost(AT_MOST).pollInterval(Duration.ofMillis(200))
                .until(() -> indexOfFirst(broken, bad.logged) >= 0);
        int problemLogged = indexOfFirst(broken, bad.logged);
        await("both other shoots probed twice more").atMost(AT_MOST).pollInterval(Duration.ofMillis(200))
                .until(() -> linesAfter(problemLogged, good1 + ": lease probe: ") >= 2
                        && linesAfter(problemLogged, good2 + ": lease probe: ") >= 2);
        if (bad.probed) {
            await("the broken shoot probed twice more").atMost(AT_MOST).pollInterval(Duration.ofMillis(200))
                    .until(() -> linesAfter(problemLogged, broken + ": ") >= 2);
        }

        if (bad == BadInput.GRACE_PERIOD_NOT_POSITIVE || bad == BadInput.GRACE_PERIOD_ZERO) {
            assertThat(logLines()).filteredOn(line -> line.text().contains(broken + ": lease probe: "))
                    .as("the broken shoot's verdicts").isNotEmpty()
                    .allSatisfy(line -> assertThat(line.text()).contains("0 expired").doesNotContain("SCALE_DOWN"));
            assertThat(brokenShoot.replicas("kube-controller-manager")).as("kube-controller-manager left up").isEqualTo(1);
        }
        assertThat(prober.isAlive()).as("the prober runs").isTrue();
        List<LogLine> lines = logLines();
        assertThat(lines).filteredOn(line -> !line.level().equals("DEBUG"))
                .filteredOn(line -> line.text().contains(broken) && line.text().contains(bad.logged))
                .as("the problem, logged once with the namespace").hasSize(1);
        assertThat(lines).filteredOn(line -> line.level().equals("ERROR") || line.level().isEmpty())
                .as("errors and stack traces").isEmpty();
        prober.destroy();
        assertThat(prober.waitFor(30, TimeUnit.SECONDS)).as("stops on SIGTERM").isTrue();
    }

    /**
     * A healthy shoot whose three held-down dependents carry a garbage replicas annotation: every probe's
     * scale-up fails on them (rightly: nothing is written), and each is warned about once, not once a probe;
     * once the annotations are mended and the dependents scaled up, each is said to work again, once.
     */
    @Test
    void aGarbageReplicasAnnotationOnAHeldDownDependentIsLoggedOnceAndOnceMoreWhenItClears(LocalControlPlane controlPlane)
            throws Exception {
        var shoot = shoot(controlPlane, "shoot--dev--garbage", 2);
        shoot.createSecret(SECRET, Map.of("kubeconfig", controlPlane.selfContainedKubeconfig()));
        Map<String, String> garbage = Map.of("kube-controller-manager", "abc", "machine-controller-manager", "-5",
                "cluster-autoscaler", "99999999999");
        garbage.forEach((dependent, value) -> {
            try {
                shoot.createDeployment(dependent, 0, Map.of(REPLICAS, value, MELTDOWN_PROTECTION, ""));
            } catch (io.kubernetes.client.openapi.ApiException e) {
                throw new IllegalStateException(e);
            }
        });
        shoot.createCluster(ShootDocument.reconciled().gracePeriod("1h").toMap());
        String ns = shoot.namespace();
        Path dir = Files.createTempDirectory("dwd-garbage");
        startProber(controlPlane, dir, CONFIG_OF_THREE);

        await("ten probes of the shoot, each with its failed scale-up").atMost(AT_MOST).pollInterval(Duration.ofMillis(200))
                .until(() -> logLines().stream().filter(line -> line.text().contains(ns + ": scale-up failed")).count() >= 10);
        List<LogLine> lines = logLines();
        garbage.forEach((dependent, value) -> assertThat(lines).filteredOn(line -> line.level().equals("WARN"))
                .filteredOn(line -> line.text().contains(ns + ": scale-up could not scale apps/v1 Deployment " + dependent))
                .as("%s, annotated %s: one warning", dependent, value).singleElement().extracting(LogLine::text).asString()
                .contains("has the value \"" + value + "\""));
        assertThat(lines).filteredOn(line -> line.level().equals("WARN") || line.level().equals("ERROR"))
                .as("nothing else warned").hasSize(3);
        garbage.keySet().forEach(dependent -> {
            try {
                assertThat(shoot.replicas(dependent)).as("%s never written", dependent).isZero();
            } catch (io.kubernetes.client.openapi.ApiException e) {
                throw new IllegalStateException(e);
            }
        });

        for (String dependent : garbage.keySet()) {
            shoot.annotate(dependent, REPLICAS, "2");
        }
        await("the dependents scaled up").atMost(AT_MOST).pollInterval(Duration.ofMillis(200))
                .until(() -> garbage.keySet().stream().allMatch(dependent -> replicasOf(shoot, dependent) == 2));
        await("each said to work again").atMost(AT_MOST).pollInterval(Duration.ofMillis(200))
                .until(() -> logLines().stream().filter(line -> line.level().equals("INFO"))
                        .filter(line -> line.text().contains(" works again, after ")).count() >= 3);
        List<LogLine> after = logLines();
        garbage.keySet().forEach(dependent -> assertThat(after).filteredOn(line -> line.level().equals("INFO"))
                .filteredOn(line -> line.text().contains(ns + ": scale-up of apps/v1 Deployment " + dependent
                        + " works again, after ")).as("%s cleared", dependent).hasSize(1));
        assertThat(after).filteredOn(line -> line.level().equals("WARN")).as("no new warning").hasSize(3);
    }

    private static int replicasOf(SeedFixture shoot, String dependent) {
        try {
            return shoot.replicas(dependent);
        } catch (io.kubernetes.client.openapi.ApiException e) {
            return -1;
        }
    }

    private SeedFixture healthyShoot(LocalControlPlane controlPlane, String prefix) throws Exception {
        SeedFixture shoot = shoot(controlPlane, prefix, 2);
        shoot.createSecret(SECRET, Map.of("kubeconfig", controlPlane.selfContainedKubeconfig()));
        shoot.createCluster(ShootDocument.reconciled().gracePeriod("1h").toMap());
        return shoot;
    }

    private SeedFixture brokenShoot(LocalControlPlane controlPlane, BadInput bad) throws Exception {
        SeedFixture shoot = shoot(controlPlane, "shoot--dev--broken", bad == BadInput.LEASE_WITHOUT_RENEW_TIME ? 3 : 2);
        String kubeconfig = controlPlane.selfContainedKubeconfig();
        switch (bad) {
            case CLUSTER_WITHOUT_SHOOT -> shoot.createClusterWithSpec(Map.<String, Object>of("seed", Map.of(), "cloudProfile", Map.of()));
            case MALFORMED_SHOOT -> shoot.createCluster(Map.of("apiVersion", 8));
            case SECRET_WITHOUT_KUBECONFIG -> shoot.createSecret(SECRET, Map.of("config", kubeconfig));
            case KUBECONFIG_THAT_DOES_NOT_PARSE -> shoot.createSecret(SECRET, Map.of("kubeconfig", "clusters: [unclosed"));
            case KUBECONFIG_WITH_TOO_MANY_ALIASES -> shoot.createSecret(SECRET, Map.of("kubeconfig", aliasBomb()));
            case GRACE_PERIOD_NOT_POSITIVE, GRACE_PERIOD_ZERO -> {
                shoot.createSecret(SECRET, Map.of("kubeconfig", kubeconfig));
                shoot.createDeployment("kube-controller-manager", 1);
                shoot.createCluster(ShootDocument.reconciled()
                        .gracePeriod(bad == BadInput.GRACE_PERIOD_ZERO ? "0s" : "-1h").toMap());
            }
            case SHOOT_API_THAT_REDIRECTS -> {
                var elsewhere = stub(path -> ShootApiStub.version());
                shoot.createSecret(SECRET, Map.of("kubeconfig",
                        stub(path -> ShootApiStub.redirect(elsewhere.url() + path)).kubeconfig()));
            }
            case LEASE_LIST_THAT_NEVER_ENDS -> shoot.createSecret(SECRET, Map.of("kubeconfig", stub(path -> switch (path) {
                case "/version" -> ShootApiStub.version();
                case "/api/v1/nodes" -> ShootApiStub.nodes(List.of());
                default -> ShootApiStub.endlessPages();
            }).kubeconfig()));
            case LEASE_WITHOUT_RENEW_TIME -> {
                shoot.createSecret(SECRET, Map.of("kubeconfig", kubeconfig));
                String node = shoot.namespace() + "-never-renewed";
                shoot.createNode(node, Map.of("worker.gardener.cloud/pool", "pool-a"), Map.of(), List.of());
                shoot.createMachine(node, "Running");
                shoot.createLease(node, null);
            }
        }
        boolean hasItsCluster = bad == BadInput.GRACE_PERIOD_NOT_POSITIVE || bad == BadInput.GRACE_PERIOD_ZERO;
        if (bad.probed && !hasItsCluster) {
            shoot.createCluster(ShootDocument.reconciled().gracePeriod("1h").toMap());
        }
        return shoot;
    }

    /** A kubeconfig whose aliases expand to 10^6 values ("billion laughs", smaller): refused, not expanded. */
    private static String aliasBomb() {
        var yaml = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for (int level = 1; level <= 6; level++) {
            yaml.append("a").append(level).append(": &a").append(level).append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(10, "*a" + (level - 1)))).append("]\n");
        }
        return yaml.toString();
    }

    /** A shoot's API server answering as {@code answers} say, closed after the test. */
    private ShootApiStub stub(ShootApiStub.Answers answers) throws IOException {
        var stub = new ShootApiStub().answering(answers);
        cleanup.add(stub);
        return stub;
    }

    /** A shoot namespace with {@code nodes} nodes whose leases are fresh for the test's duration (grace period 1 h). */
    private SeedFixture shoot(LocalControlPlane controlPlane, String prefix, int nodes) throws Exception {
        var shoot = new SeedFixture(controlPlane.apiClient(), controlPlane.createNamespace(prefix));
        cleanup.add(shoot);
        for (int i = 0; i < nodes; i++) {
            shoot.createNodeRenewedAt(shoot.namespace() + "-node-" + i, SeedFixture.now());
        }
        return shoot;
    }

    private void startProber(LocalControlPlane controlPlane, Path dir) throws IOException {
        startProber(controlPlane, dir, CONFIG);
    }

    private void startProber(LocalControlPlane controlPlane, Path dir, String configText) throws IOException {
        Path config = Files.writeString(dir.resolve("prober-config.yaml"), configText);
        Path kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), controlPlane.kubeconfig());
        log = dir.resolve("prober.log");
        prober = new ProcessBuilder(REPOSITORY.resolve("dwd").toString(), "prober",
                "--config-file", config.toString(), "--kubeconfig", kubeconfig.toString(),
                "--metrics-bind-addr=0", "--health-bind-addr=0", "--zap-log-level=debug",
                "--log-format=text") // LogLine reads the text layout
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** A line of the log: {@code <time> <LEVEL> <logger> - <message>}; lines of a stack trace have no level. */
    private record LogLine(String level, String text) {
        static LogLine of(String line) {
            String[] fields = line.split("\\s+", 3);
            boolean hasLevel = fields.length == 3 && List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL")
                    .contains(fields[1]);
            return new LogLine(hasLevel ? fields[1] : "", line);
        }
    }

    private List<LogLine> logLines() throws IOException {
        return Files.readAllLines(log).stream().filter(line -> !line.isBlank()).map(LogLine::of).toList();
    }

    private int indexOfFirst(String namespace, String text) throws IOException {
        List<LogLine> lines = logLines();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).text().contains(namespace) && lines.get(i).text().contains(text)) {
                return i;
            }
        }
        return -1;
    }

    private long linesAfter(int index, String text) throws IOException {
        List<LogLine> lines = logLines();
        return lines.subList(index + 1, lines.size()).stream().filter(line -> line.text().contains(text)).count();
    }
}
