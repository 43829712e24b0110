package dwd.bootstrap.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.prober.ProberMeltdownIT;
import dwd.bootstrap.prober.SeedFixture;
import dwd.bootstrap.weeder.WeederOperabilityIT;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.DiscoveryV1Api;
import io.kubernetes.client.openapi.models.V1Endpoint;
import io.kubernetes.client.openapi.models.V1EndpointConditions;
import io.kubernetes.client.openapi.models.V1EndpointSlice;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/monitoring proven against a real Prometheus: it scrapes a real {@code dwd prober} and
 * {@code dwd weeder} (the packaged app, with leader election) through a meltdown, a recovery and a
 * weeding; then every query of every dashboard panel runs over that time with the dashboard's
 * variables set to what Prometheus lists for them, and each must return what the scenario implies.
 * The rules are dwd-rules.yaml with DwdShootScaledDownTooLong's 30 minutes cut to seconds: it goes
 * pending, fires and resolves, and nothing else fires.
 *
 * <p>With {@code -Ddwd.monitoring.picture=FILE} the key panels of this run are also drawn into a PNG
 * by headless Chromium ({@code make monitoring-picture}).
 */
@WithLocalControlPlane
class MonitoringIT {

    static final String MELTDOWN_ALERT = "DwdShootScaledDownTooLong";
    static final Duration MELTDOWN_ALERT_FOR = Duration.ofSeconds(4);
    static final Duration STEP = Duration.ofSeconds(1);
    /**
     * Grafana's {@code $__rate_interval} for a wider range than the test's: with 1 s scrapes on a loaded
     * machine some scrapes time out, and a counter that moves only at the meltdown and the recovery (the
     * prober's seed requests) would show no rate in a 4 s window around such a gap.
     */
    static final String RATE_INTERVAL = "10s";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    /** A value at a time (Unix seconds). */
    record Point(double time, double value) { }

    /** A series of a query's result: its labels and its points over the scenario (NaN dropped). */
    record Series(Map<String, String> labels, List<Point> points) {
        List<Double> values() {
            return points.stream().map(Point::value).toList();
        }

        double max() {
            return points.stream().mapToDouble(Point::value).max().orElse(Double.NaN);
        }

        double last() {
            return points.isEmpty() ? Double.NaN : points.getLast().value();
        }
    }

    /** What one panel's queries returned, by refId, and their legend formats. */
    record PanelData(String title, Map<String, List<Series>> byRef, Map<String, String> legends) {
        /** The series of query {@code refId} whose labels include {@code labels}; fails when none has a value. */
        Series series(String refId, Map<String, String> labels) {
            List<Series> found = byRef.getOrDefault(refId, List.of()).stream()
                    .filter(series -> series.labels().entrySet().containsAll(labels.entrySet()))
                    .filter(series -> !series.values().isEmpty())
                    .toList();
            assertThat(found).as("panel '%s', query %s: a series with %s; got %s", title, refId, labels, byRef.get(refId))
                    .isNotEmpty();
            return found.getFirst();
        }

        Series series(Map<String, String> labels) {
            return series("A", labels);
        }
    }

    @Test
    void theDashboardsQueriesAndTheAlertsWorkOnARealPrometheusThroughAMeltdownARecoveryAndAWeeding(
            LocalControlPlane controlPlane, ApiClient client, @TempDir Path dir) throws Exception {
        Path prometheus = MonitoringFiles.tool("prometheus").orElse(null);
        Assumptions.assumeTrue(prometheus != null, "prometheus not found: install Debian's prometheus package");

        // A seed with two shoots: one whose nodes will lose their control plane, one whose API server is unreachable.
        String meltdown = controlPlane.createNamespace("shoot--dev--meltdown");
        var seed = new SeedFixture(controlPlane.apiClient(), meltdown);
        cleanup.add(seed);
        seed.createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        seed.createGardenerDependents();
        List<String> nodes = seed.createNodes(5);
        seed.startKubelets();
        seed.createCluster("8s"); // leases expire 6 s (0.75 × 8 s) after their last renewal
        String unreachable = controlPlane.createNamespace("shoot--dev--unreachable");
        var unreachableShoot = new SeedFixture(controlPlane.apiClient(), unreachable);
        cleanup.add(unreachableShoot);
        unreachableShoot.createKubeconfigSecret(withServer(controlPlane.selfContainedKubeconfig(),
                "https://127.0.0.1:" + DwdProcess.freePort())); // nothing listens there
        unreachableShoot.createGardenerDependents();
        unreachableShoot.createCluster("8s");
        // A crash-looping kube-apiserver pod in the first shoot, waiting for etcd-main-client to turn ready.
        String ownerUid = WeederOperabilityIT.createReplicaSet(client, meltdown);
        WeederOperabilityIT.createCrashLoopingPod(client, meltdown, ownerUid);
        var discovery = new DiscoveryV1Api(client);
        discovery.createNamespacedEndpointSlice(meltdown, new V1EndpointSlice()
                .metadata(new V1ObjectMeta().name("etcd-main-client-x")
                        .labels(Map.of("kubernetes.io/service-name", "etcd-main-client")))
                .addressType("IPv4")
                .endpoints(List.of(new V1Endpoint().addresses(List.of("10.0.0.1"))
                        .conditions(new V1EndpointConditions().ready(false))))).execute();

        Instant start = Instant.now();
        String leases = controlPlane.createNamespace("garden");
        List<String> election = List.of("--enable-leader-election", "--leader-election-namespace=" + leases,
                "--leader-elect-lease-duration=4s", "--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=1s");
        Path kubeconfig = Files.writeString(dir.resolve("seed.kubeconfig"), controlPlane.kubeconfig());
        var proberFlags = new ArrayList<>(List.of("--x-scale-readiness-timeout=500ms"));
        proberFlags.addAll(election);
        var prober = DwdProcess.launch("prober", dir, "prober",
                Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened()),
                kubeconfig, proberFlags);
        cleanup.add(prober);
        var weeder = DwdProcess.launch("weeder", dir, "weeder", Files.writeString(dir.resolve("weeder-config.yaml"),
                Files.readString(DwdProcess.REPOSITORY.resolve("deploy/examples/weeder-config.yaml"))), kubeconfig, election);
        cleanup.add(weeder);
        Path prometheusDir = Files.createDirectory(dir.resolve("prometheus"));
        var server = PrometheusServer.start(prometheus, prometheusDir, rulesWithShortMeltdownAlert(),
                Map.of("dwd-prober", prober.metricsPort, "dwd-weeder", weeder.metricsPort));
        cleanup.add(server);
        var alerts = new AlertWatch(server);
        cleanup.add(alerts);

        await("Prometheus sees the healthy shoot and the unreachable one").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> !server.query("dwd_shoot_state{state=\"healthy\",shoot=\"" + meltdown + "\"} == 1").isEmpty()
                        && !server.query("dwd_shoot_state{state=\"probe-failing\",shoot=\"" + unreachable + "\"} == 1").isEmpty()
                        && !server.query("dwd_leader_status{role=\"weeder\"} == 1").isEmpty());

        // Meltdown: 3 of 5 leases stop being renewed; meanwhile etcd-main-client turns ready and the pod is weeded.
        seed.stopRenewing(nodes.subList(0, 3));
        PatchUtils.patch(Object.class, () -> discovery.patchNamespacedEndpointSlice("etcd-main-client-x", meltdown,
                        new V1Patch("{\"endpoints\":[{\"addresses\":[\"10.0.0.1\"],\"conditions\":{\"ready\":true}}]}"))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
        var core = new CoreV1Api(client);
        await("the crash-looping pod is weeded").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> core.listNamespacedPod(meltdown).execute().getItems().isEmpty());
        await(MELTDOWN_ALERT + " fires").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> alerts.states(MELTDOWN_ALERT, meltdown).contains("firing"));
        assertThat(seed.replicas("kube-controller-manager")).isZero();

        // Recovery: the leases are renewed again, dwd scales up, the alert resolves.
        seed.resumeRenewing(nodes.subList(0, 3));
        await(MELTDOWN_ALERT + " resolves").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> alerts.states(MELTDOWN_ALERT, meltdown).contains("resolved"));
        assertThat(alerts.states(MELTDOWN_ALERT, meltdown)).containsExactly("pending", "firing", "resolved");
        assertThat(seed.replicas("kube-controller-manager")).isEqualTo(3);
        assertThat(alerts.states("DwdShootProbeFailing", unreachable)).as("its 15 minutes are not over").contains("pending");
        assertThat(alerts.firing()).as("nothing else fires").containsExactly(MELTDOWN_ALERT);
        assertThat(seed.renewalFailures()).isZero();

        // Every JVM has collected garbage at least once, so that the GC panel has something to show.
        for (DwdProcess process : List.of(prober, weeder)) {
            collectGarbage(process.process.pid());
        }
        await("the last scrapes are in").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> server.query("dwd_pods_deleted_total").size() == 1
                        && server.query("jvm_gc_pause_seconds_count").asList().stream()
                                .map(s -> s.getAsJsonObject().getAsJsonObject("metric").get("role").getAsString())
                                .distinct().count() == 2);
        Instant end = Instant.now();

        Map<String, PanelData> panels = runEveryPanel(server, start, end);
        expectations(meltdown, unreachable, start).forEach((title, expectation) -> {
            assertThat(panels).as("the dashboard has a panel '%s'", title).containsKey(title);
            expectation.accept(panels.get(title));
        });
        assertThat(expectations(meltdown, unreachable, start).keySet()).as("every panel is checked")
                .containsExactlyInAnyOrderElementsOf(panels.keySet());
        assertEveryDwdSeriesIsDocumented(server);

        Optional.ofNullable(System.getProperty("dwd.monitoring.picture")).filter(file -> !file.isBlank())
                .ifPresent(file -> PanelPicture.draw(start, end, panels, alerts,
                        DwdProcess.REPOSITORY.resolve(file), dir));
        assertThat(prober.terminate()).isEqualTo(143);
        assertThat(weeder.terminate()).isEqualTo(143);
    }

    /** {@code kubeconfig} pointing at {@code server}. */
    @SuppressWarnings("unchecked")
    static String withServer(String kubeconfig, String server) {
        var yaml = new org.yaml.snakeyaml.Yaml();
        Map<String, Object> document = yaml.load(kubeconfig);
        for (Object entry : (List<Object>) document.get("clusters")) {
            ((Map<String, Object>) ((Map<String, Object>) entry).get("cluster")).put("server", server);
        }
        return yaml.dump(document);
    }

    /** dwd-rules.yaml with the meltdown alert's 30 minutes cut to seconds. */
    static String rulesWithShortMeltdownAlert() throws Exception {
        String rules = Files.readString(MonitoringFiles.RULES);
        String marker = "- alert: " + MELTDOWN_ALERT;
        int alert = rules.indexOf(marker);
        int forClause = rules.indexOf("for: 30m", alert);
        assertThat(alert).isNotNegative();
        assertThat(rules.indexOf("- alert:", alert + marker.length())).as("30m belongs to " + MELTDOWN_ALERT)
                .isGreaterThan(forClause);
        return rules.substring(0, forClause) + "for: " + MELTDOWN_ALERT_FOR.toSeconds() + "s"
                + rules.substring(forClause + "for: 30m".length());
    }

    /** Runs every query of every panel over the scenario, the variables set to every value Prometheus lists for them. */
    static Map<String, PanelData> runEveryPanel(PrometheusServer server, Instant start, Instant end) {
        var values = new LinkedHashMap<String, String>();
        MonitoringFiles.variables(MonitoringFiles.dashboard()).forEach((name, query) -> query.ifPresent(q -> {
            Matcher labelValues = Pattern.compile("label_values\\((\\w+),\\s*(\\w+)\\)").matcher(q);
            assertThat(labelValues.matches()).as("variable %s: %s", name, q).isTrue();
            List<String> found = server.labelValues(labelValues.group(2), labelValues.group(1));
            assertThat(found).as("values of $%s", name).isNotEmpty();
            values.put(name, String.join("|", found));
        }));
        values.put("__rate_interval", RATE_INTERVAL);
        values.put("__interval", STEP.toSeconds() + "s");
        values.put("__range", Duration.between(start, end).toSeconds() + "s");

        var panels = new LinkedHashMap<String, PanelData>();
        for (MonitoringFiles.Query query : MonitoringFiles.queries(MonitoringFiles.dashboard())) {
            String expr = MonitoringFiles.substitute(query.expr(), values);
            var series = new ArrayList<Series>();
            for (JsonElement element : server.queryRange(expr, start, end, STEP)) {
                JsonObject result = element.getAsJsonObject();
                var labels = new LinkedHashMap<String, String>();
                result.getAsJsonObject("metric").entrySet().forEach(e -> labels.put(e.getKey(), e.getValue().getAsString()));
                var points = new ArrayList<Point>();
                for (JsonElement point : result.getAsJsonArray("values")) {
                    double value = Double.parseDouble(point.getAsJsonArray().get(1).getAsString());
                    if (!Double.isNaN(value)) {
                        points.add(new Point(point.getAsJsonArray().get(0).getAsDouble(), value));
                    }
                }
                series.add(new Series(labels, points));
            }
            PanelData panel = panels.computeIfAbsent(query.panel(),
                    title -> new PanelData(title, new LinkedHashMap<>(), new LinkedHashMap<>()));
            panel.byRef().put(query.refId(), series);
            panel.legends().put(query.refId(), query.legend());
        }
        return panels;
    }

    /** What each panel must show for this scenario, by title. */
    static Map<String, Consumer<PanelData>> expectations(String meltdown, String unreachable, Instant start) {
        var shootA = Map.of("shoot", meltdown);
        var expect = new LinkedHashMap<String, Consumer<PanelData>>();
        expect.put("Shoots probed", p -> assertThat(p.series(Map.of()).max()).isEqualTo(2));
        expect.put("Shoots held scaled down", p -> {
            assertThat(p.series(Map.of()).max()).isEqualTo(1);
            assertThat(p.series(Map.of()).last()).isZero();
        });
        expect.put("Probed shoots held scaled down", p -> assertThat(p.series(Map.of()).max()).isEqualTo(0.5));
        expect.put("Leaders", p -> {
            assertThat(p.series(Map.of("role", "prober")).last()).isEqualTo(1);
            assertThat(p.series(Map.of("role", "weeder")).last()).isEqualTo(1);
        });
        expect.put("Firing dwd alerts", p -> assertThat(p.series(Map.of("alertname", MELTDOWN_ALERT)).max()).isEqualTo(1));
        expect.put("Scale-downs in effect", p -> {
            assertThat(p.series("A", shootA).max()).as("since, in ms").isGreaterThan(start.toEpochMilli());
            assertThat(p.series("B", shootA).max()).isGreaterThanOrEqualTo(MELTDOWN_ALERT_FOR.toSeconds());
        });
        expect.put("Shoot states", p -> {
            p.series("A", Map.of("shoot", meltdown, "state", "meltdown"));
            p.series("A", Map.of("shoot", meltdown, "state", "healthy"));
            p.series("A", Map.of("shoot", unreachable, "state", "probe-failing"));
            assertThat(p.series("B", shootA).max()).isGreaterThanOrEqualTo(0.6);
        });
        expect.put("Shoots by state", p -> {
            assertThat(p.series(Map.of("state", "meltdown")).max()).isEqualTo(1);
            assertThat(p.series(Map.of("state", "healthy")).max()).isEqualTo(1);
            assertThat(p.series(Map.of("state", "probe-failing")).max()).isEqualTo(1);
        });
        expect.put("Expired node lease fraction", p -> {
            assertThat(p.series(shootA).max()).isGreaterThanOrEqualTo(0.6);
            assertThat(p.series(shootA).last()).isZero();
        });
        expect.put("Probe runs by outcome", p -> {
            assertThat(p.series(Map.of("outcome", "scale_down")).max()).isPositive();
            assertThat(p.series(Map.of("outcome", "scale_up")).max()).isPositive();
            assertThat(p.series(Map.of("outcome", "failed_api_server")).max()).isPositive();
        });
        expect.put("Probe failures by stage and reason",
                p -> assertThat(p.series(Map.of("stage", "api-server", "reason", "unavailable")).max()).isPositive());
        expect.put("Scale operations by direction and result", p -> {
            assertThat(p.series(Map.of("direction", "down", "result", "scaled")).max()).isGreaterThanOrEqualTo(1);
            assertThat(p.series(Map.of("direction", "up", "result", "scaled")).max()).isGreaterThanOrEqualTo(1);
        });
        expect.put("Scale flow duration and decision latency", p -> {
            assertThat(p.series(Map.of("direction", "down", "outcome", "completed")).max()).isPositive();
            assertThat(p.series(Map.of("direction", "up", "outcome", "completed")).max()).isPositive();
            assertThat(p.series("B", Map.of()).max()).isPositive();
        });
        expect.put("API requests by target and code", p -> {
            for (String target : List.of("seed", "shoot", "leader-election")) {
                Series answered = p.series(Map.of("role", "prober", "target", target, "code", "200"));
                assertThat(answered.max()).as("the prober's %s requests answered 200: %s", target, answered).isPositive();
            }
            assertThat(p.series(Map.of("role", "prober", "target", "shoot", "code", "none")).max()).isPositive();
            assertThat(p.series(Map.of("role", "weeder", "target", "seed", "code", "200")).max()).isPositive();
        });
        expect.put("Throttled requests (429)", p -> {
            assertThat(p.series(Map.of("role", "prober", "target", "shoot")).max()).isZero();
            assertThat(p.series(Map.of("role", "weeder", "target", "seed")).max()).isZero();
        });
        expect.put("API request latency", p -> {
            for (String ref : List.of("A", "B")) {
                for (String target : List.of("seed", "shoot", "leader-election")) {
                    assertThat(p.series(ref, Map.of("role", "prober", "target", target)).max()).isPositive();
                }
                assertThat(p.series(ref, Map.of("role", "weeder", "target", "seed")).max()).isPositive();
            }
        });
        expect.put("Leader per role", p -> {
            assertThat(p.series(Map.of("role", "prober")).last()).isEqualTo(1);
            assertThat(p.series(Map.of("role", "weeder")).last()).isEqualTo(1);
        });
        expect.put("Leader changes", p -> {
            assertThat(p.series(Map.of("role", "prober")).max()).isEqualTo(1);
            assertThat(p.series(Map.of("role", "weeder")).max()).isEqualTo(1);
        });
        expect.put("Failing health checks", p -> {
            assertThat(p.series(Map.of("role", "prober", "endpoint", "healthz", "check", "probe-loops")).max()).isZero();
            assertThat(p.series(Map.of("role", "weeder", "endpoint", "healthz", "check", "weeders")).max()).isZero();
            assertThat(p.series(Map.of("role", "prober", "endpoint", "healthz", "check", "seed-watches")).max()).isZero();
            assertThat(p.series(Map.of("role", "prober", "endpoint", "readyz")).last()).isZero();
        });
        expect.put("Seed caches: seconds since last heard", p -> {
            for (var cache : List.of(Map.of("role", "prober", "cache", "clusters"), Map.of("role", "prober", "cache",
                    "machines"), Map.of("role", "prober", "cache", "deployments"), Map.of("role", "weeder", "cache",
                    "endpointslices"))) {
                assertThat(p.series(cache).max()).as("%s, a healthy watch", cache).isBetween(0.0, 90.0);
            }
        });
        expect.put("Weeders active", p -> assertThat(p.series(Map.of()).max()).isGreaterThanOrEqualTo(1));
        var owner = Map.of("shoot", meltdown, "owner", "ReplicaSet/" + WeederOperabilityIT.OWNER);
        expect.put("Pods deleted by shoot and owner", p -> assertThat(p.series(owner).max()).isEqualTo(1));
        expect.put("Pods deleted in the selected range", p -> assertThat(p.series(owner).last()).isEqualTo(1));
        expect.put("CPU", p -> {
            assertThat(p.series(Map.of("role", "prober")).max()).isPositive();
            assertThat(p.series(Map.of("role", "weeder")).max()).isPositive();
        });
        expect.put("JVM memory", p -> {
            assertThat(p.series(Map.of("role", "prober", "area", "heap")).max()).isPositive();
            assertThat(p.series(Map.of("role", "weeder", "area", "nonheap")).max()).isPositive();
        });
        expect.put("GC pauses", p -> {
            for (String ref : List.of("A", "B")) {
                p.series(ref, Map.of("role", "prober"));
                p.series(ref, Map.of("role", "weeder"));
            }
        });
        // These roles do not compare themselves with the original (no --compare-with-original): nothing to show.
        // The queries still ran: a query Prometheus rejects fails the scenario above.
        expect.put("Beside the original: episodes by outcome",
                p -> assertThat(p.byRef().values()).allSatisfy(series -> assertThat(series).isEmpty()));
        expect.put("Beside the original: dwd's lead",
                p -> assertThat(p.byRef().values()).allSatisfy(series -> assertThat(series).isEmpty()));
        return expect;
    }

    /** Every dwd series Prometheus scraped is in the metrics table of docs/operability.md. */
    private static void assertEveryDwdSeriesIsDocumented(PrometheusServer server) throws Exception {
        String documented = Files.readString(MonitoringFiles.OPERABILITY);
        Set<String> names = new TreeSet<>();
        for (String name : server.labelValues("__name__", "{__name__=~\"dwd_.+\"}")) {
            names.add(name.replaceAll("_(bucket|sum|count|max)$", ""));
        }
        assertThat(names).contains("dwd_shoot_state", "dwd_pods_deleted_total", "dwd_api_request_duration_seconds");
        for (String name : names) {
            assertThat(documented).as("%s is documented in docs/operability.md", name).contains("`" + name + "`");
        }
    }

    private static void collectGarbage(long pid) throws Exception {
        Path jcmd = Path.of(ProcessHandle.current().info().command().orElseThrow()).resolveSibling("jcmd");
        Process process = new ProcessBuilder(jcmd.toString(), "-J-XX:-UsePerfData", Long.toString(pid), "GC.run").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("jcmd GC.run: %s", output).isZero();
    }

    /**
     * Polls Prometheus' alerts every 250 ms and keeps, per alert and shoot, the states it went
     * through ({@code pending}, {@code firing}, then {@code resolved} when it disappears).
     */
    static final class AlertWatch implements AutoCloseable {

        /** One observed state change. */
        record Change(Instant at, String alert, String shoot, String state) { }

        private final PrometheusServer server;
        private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor();
        private final List<Change> changes = new CopyOnWriteArrayList<>();
        private final Map<String, String> current = new java.util.concurrent.ConcurrentHashMap<>();
        private final Set<String> firing = java.util.concurrent.ConcurrentHashMap.newKeySet();

        AlertWatch(PrometheusServer server) {
            this.server = server;
            poller.scheduleWithFixedDelay(this::poll, 0, 250, TimeUnit.MILLISECONDS);
        }

        private void poll() {
            try {
                JsonArray alerts = server.alerts();
                var seen = new java.util.HashSet<String>();
                for (JsonElement element : alerts) {
                    JsonObject alert = element.getAsJsonObject();
                    JsonObject labels = alert.getAsJsonObject("labels");
                    String name = labels.get("alertname").getAsString();
                    String shoot = labels.has("shoot") ? labels.get("shoot").getAsString() : "";
                    String state = alert.get("state").getAsString();
                    String key = name + "|" + shoot;
                    seen.add(key);
                    if ("firing".equals(state)) {
                        firing.add(name);
                    }
                    if (!state.equals(current.put(key, state))) {
                        changes.add(new Change(Instant.now(), name, shoot, state));
                    }
                }
                for (String key : List.copyOf(current.keySet())) {
                    if (!seen.contains(key)) {
                        current.remove(key);
                        String[] parts = key.split("\\|", -1);
                        changes.add(new Change(Instant.now(), parts[0], parts[1], "resolved"));
                    }
                }
            } catch (RuntimeException e) {
                // Prometheus is stopping, or a poll failed: the next one tries again.
            }
        }

        /** The states {@code alert} for {@code shoot} went through, in order. */
        List<String> states(String alert, String shoot) {
            return changes.stream().filter(c -> c.alert().equals(alert) && c.shoot().equals(shoot)).map(Change::state).toList();
        }

        List<Change> changes() {
            return List.copyOf(changes);
        }

        /** Every alert seen firing. */
        Set<String> firing() {
            return Set.copyOf(firing);
        }

        @Override
        public void close() {
            poller.shutdownNow();
        }
    }
}
