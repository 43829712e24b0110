package dwd.bootstrap.demo;

import dwd.adapters.k8s.weeder.EndpointSliceInformer;
import dwd.adapters.k8s.weeder.KubernetesPodWatches;
import dwd.adapters.k8s.weeder.KubernetesPods;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.WeederObserver;
import dwd.application.prober.ProberTuning;
import dwd.application.runtime.SystemScheduler;
import dwd.application.shadow.ShadowMode;
import dwd.application.weeder.WeederSupervisor;
import dwd.bootstrap.config.ConfigFileException;
import dwd.bootstrap.config.ConfigFiles;
import dwd.bootstrap.demo.DemoTimeline.Event;
import dwd.bootstrap.demo.DemoTimeline.Kind;
import dwd.bootstrap.logging.LogLevels;
import dwd.bootstrap.run.ProberRuntime;
import dwd.bootstrap.seed.SeedConnection;
import dwd.bootstrap.shadow.DryRunOption;
import dwd.bootstrap.wiring.ProberComponent;
import dwd.domain.config.ProberConfig;
import dwd.domain.config.WeederConfig;
import dwd.domain.dryrun.DryRunMode;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.Level;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dwd demo}: starts a local control plane, builds a seed with two shoots, runs the prober
 * and the weeder against it with Gardener's configs (delays shortened), and plays a meltdown, a
 * recovery and an etcd outage, narrated. Exit 0 only if every step was observed.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Play a meltdown and a recovery on a local control plane, narrated.",
            "Starts etcd + kube-apiserver on loopback (binaries of scripts/control-plane, built if missing),",
            "runs the prober and the weeder against a demo seed and ends with a summary table.",
            "With --dry-run=client|server the same story plays in shadow mode: dwd reports what it would do",
            "(\"would scale down …\", \"would delete …\") and the checks expect that nothing changed.",
            "Exit status: 0 every step observed, 1 otherwise, 2 usage error."})
public final class DemoCommand implements Callable<Integer> {

    static final String ALPHA = "shoot--demo--alpha";
    static final String BETA = "shoot--demo--beta";
    static final Duration KUBELET_PERIOD = Duration.ofSeconds(2);
    static final String GRACE_PERIOD = "8s";
    static final Duration GRACE = Duration.ofSeconds(8);
    static final Duration MCM_DELAY = Duration.ofSeconds(5);
    static final Duration STEP_TIMEOUT = Duration.ofSeconds(40);

    @Option(names = "--control-plane-dir", paramLabel = "DIR",
            description = "Where scripts/control-plane put etcd and kube-apiserver (default: $DWD_CONTROL_PLANE_DIR or ~/.cache/dwd/kube-api-test).")
    Path controlPlaneDirectory;

    @Option(names = "--verbose", description = "Also show dwd's own log lines.")
    boolean verbose;

    @Mixin
    DryRunOption dryRunOption;

    /** The mode the prober and the weeder run in. */
    private DryRunMode mode = DryRunMode.NONE;

    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private final Map<String, String> lastVerdictShown = new ConcurrentHashMap<>();
    private Narrator narrator;

    @Override
    public Integer call() {
        var dryRun = dryRunOption.resolve("dwd demo", new PrintWriter(System.err, true));
        if (dryRun.isEmpty()) {
            return DryRunOption.INVALID;
        }
        mode = dryRun.get();
        narrator = Narrator.forThisProcess();
        LogLevels.apply(verbose ? Level.INFO : Level.ERROR);
        Thread stopper = new Thread(this::stopAll, "dwd-demo-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            return play() ? 0 : 1;
        } catch (DemoFailure | RuntimeException e) {
            System.err.println("dwd demo: " + e.getMessage());
            return 1;
        } finally {
            stopAll();
            Runtime.getRuntime().removeShutdownHook(stopper);
        }
    }

    private boolean play() throws DemoFailure {
        narrator.title("dwd demo: a meltdown and a recovery on a local control plane"
                + (mode.isShadow() ? ", in shadow mode (--dry-run=" + mode.flagValue() + ")" : ""));
        if (mode.isShadow()) {
            narrator.info(mode == DryRunMode.SERVER
                    ? "shadow mode: dwd sends every change with dryRun=All; the API server checks it and persists nothing"
                    : "shadow mode: dwd sends no change at all; it reports what it would change");
        }
        Path binaries = binaries();
        var scheduler = new SystemScheduler();
        started.push(scheduler);

        Instant starting = Instant.now();
        LocalKubernetes kubernetes;
        try {
            kubernetes = LocalKubernetes.start(binaries, scheduler, List.of());
        } catch (IllegalStateException firstTry) {
            // A free port can be taken between choosing it and binding it: one more try, with new ports.
            narrator.info("control plane did not start (" + firstTry.getMessage().lines().findFirst().orElse("")
                    + "); trying again");
            kubernetes = LocalKubernetes.start(binaries, scheduler, List.of());
        }
        started.push(kubernetes);
        narrator.info("control plane: etcd + kube-apiserver " + binaries.getFileName() + " on " + kubernetes.server()
                + " (up in " + seconds(Duration.between(starting, Instant.now())) + "; files in " + kubernetes.workDirectory() + ")");
        ApiClient admin = kubernetes.client(LocalKubernetes.ADMIN, Duration.ofSeconds(30));

        var seed = new DemoSeed(admin, scheduler);
        started.push(seed);
        seed.installCrds();
        String shootKubeconfig = kubernetes.kubeconfig(LocalKubernetes.ADMIN);
        List<String> alphaNodes;
        try {
            alphaNodes = seed.createShoot(ALPHA, shootKubeconfig, GRACE_PERIOD);
            seed.createShoot(BETA, shootKubeconfig, GRACE_PERIOD);
            seed.createControlPlaneServices(ALPHA);
        } catch (io.kubernetes.client.openapi.ApiException e) {
            throw new DemoFailure("cannot create the demo seed: " + e.getResponseBody(), e);
        }
        seed.startKubelets(KUBELET_PERIOD);
        narrator.info("seed: shoots " + ALPHA + " and " + BETA + ", " + DemoSeed.NODES_PER_SHOOT + " nodes each,"
                + " kube-controller-manager 3, machine-controller-manager 2, cluster-autoscaler 1 replicas");
        narrator.info("kubelets renew their leases every " + seconds(KUBELET_PERIOD) + "; node-monitor grace period "
                + GRACE_PERIOD + " (a lease counts as expired 0.75 x 8s = 6s after its last renewal)");

        var timeline = new DemoTimeline(this::show);
        Map<String, String> versionsBefore = resourceVersions(seed);
        startProber(kubernetes, timeline);
        startWeeder(kubernetes, scheduler, timeline);

        normalOperation(timeline);
        Instant cut = networkCut(seed, alphaNodes, timeline);
        recovery(seed, alphaNodes, timeline);
        otherShootUntouched(timeline, cut);
        etcdOutage(seed, timeline);
        if (mode.isShadow()) {
            nothingChanged(seed, versionsBefore);
        }
        return narrator.summary();
    }

    private void startProber(LocalKubernetes kubernetes, DemoTimeline timeline) throws DemoFailure {
        ProberConfig config;
        Path dir = kubernetes.workDirectory();
        try {
            String shortened = DemoSeed.resourceText("examples/prober-config.yaml")
                    .replace("probeInterval: 30s", "probeInterval: 2s\ninitialDelay: 1s")
                    .replace("initialDelay: 30s", "initialDelay: " + seconds(MCM_DELAY));
            config = new ConfigFiles(warning -> { }).prober(Files.writeString(dir.resolve("prober-config.yaml"), shortened));
        } catch (IOException | ConfigFileException e) {
            throw new DemoFailure("the prober config does not load: " + e.getMessage(), e);
        }
        narrator.info("dwd prober: Gardener's config with delays shortened: probe interval 30s -> 2s, first probe after 30s"
                + " -> 1s, machine-controller-manager's scale-up delay 30s -> " + seconds(MCM_DELAY));
        var seedConnection = SeedConnection.resolve(kubernetes.writeKubeconfig(LocalKubernetes.ADMIN).toString(),
                Map.of(), Path.of(System.getProperty("user.home")));
        // No pods ever become ready on a control plane without kubelets: do not wait 5 s for each.
        ProberRuntime prober = ProberComponent.create(config, seedConnection,
                ProberTuning.defaults().withReadinessTimeout(Duration.ofMillis(500)), ProberObserver.all(timeline),
                new ShadowMode(mode, timeline)).runtime();
        started.push(prober);
        prober.start();
    }

    private void startWeeder(LocalKubernetes kubernetes, SystemScheduler scheduler, DemoTimeline timeline)
            throws DemoFailure {
        WeederConfig config;
        try {
            String shortened = DemoSeed.resourceText("examples/weeder-config.yaml").replace("watchDuration: 5m0s",
                    "watchDuration: 30s");
            config = new ConfigFiles(warning -> { }).weeder(Files.writeString(
                    kubernetes.workDirectory().resolve("weeder-config.yaml"), shortened));
        } catch (IOException | ConfigFileException e) {
            throw new DemoFailure("the weeder config does not load: " + e.getMessage(), e);
        }
        narrator.info("dwd weeder: Gardener's config (etcd-main-client -> kube-apiserver pods; kube-apiserver -> other"
                + " control-plane pods), watch duration 5m -> 30s");
        ApiClient watchClient = kubernetes.client(LocalKubernetes.ADMIN, Duration.ZERO);
        ApiClient deleteClient = kubernetes.client(LocalKubernetes.ADMIN, Duration.ofSeconds(30));
        var ports = new ShadowMode(mode, timeline).weeder(new KubernetesPodWatches(watchClient),
                mode == DryRunMode.SERVER ? KubernetesPods.serverDryRun(deleteClient) : new KubernetesPods(deleteClient),
                WeederObserver.all(timeline));
        var supervisor = new WeederSupervisor(config, scheduler, ports.podWatches(), ports.pods(), ports.observer());
        started.push(supervisor);
        var informer = new EndpointSliceInformer(watchClient, config.servicesAndDependantSelectors().keySet(), supervisor);
        started.push(informer);
        informer.start();
    }

    private void normalOperation(DemoTimeline timeline) {
        narrator.step(1, "Normal operation");
        Instant start = Instant.now();
        boolean healthy = timeline.await(events -> count(events, start, Kind.VERDICT, ALPHA) >= 2, STEP_TIMEOUT);
        long scaled = timeline.since(start).stream().filter(e -> e.kind() == Kind.SCALED).count();
        narrator.check("1 normal operation", "leases fresh; nothing " + would() + "scaled",
                healthy ? scaled + " dependents " + would() + "scaled" : "no lease probe seen", healthy && scaled == 0);
    }

    private Instant networkCut(DemoSeed seed, List<String> alphaNodes, DemoTimeline timeline) {
        List<String> cutNodes = alphaNodes.subList(0, 3);
        Instant cut = Instant.now();
        narrator.setOrigin(cut);
        narrator.step(2, "Network cut: 3 of alpha's 5 kubelets lose their control plane");
        seed.cut(cutNodes);
        narrator.at(cut, "alpha", "kubelets of " + String.join(", ", cutNodes) + " stop renewing their leases");
        boolean scaledDown = timeline.await(events -> scaledTo(events, cut, ALPHA, 3), STEP_TIMEOUT);
        List<Event> scaled = timeline.since(cut).stream().filter(e -> e.is(Kind.SCALED, ALPHA)).toList();
        List<String> order = scaled.stream().map(Event::subject).toList();
        boolean levelOrder = order.size() == 3 && order.get(2).equals(DemoSeed.KCM);
        Instant lastRenewal = cutNodes.stream().map(seed::lastRenewal).max(Instant::compareTo).orElse(cut);
        Instant graceEnds = lastRenewal.plus(GRACE);
        boolean beforeGrace = !scaled.isEmpty() && scaled.getFirst().at().isBefore(graceEnds);
        boolean unchanged = !mode.isShadow() || replicasUnchanged(seed);
        narrator.check("2 network cut", (mode.isShadow() ? "would scale " : "")
                        + "MCM + CA to 0, then KCM; before the grace period ends" + (mode.isShadow() ? "; still 3/2/1" : ""),
                scaledDown ? String.join(", ", shortNames(order)) + " at " + narrator.relative(scaled.getFirst().at())
                        + " (grace ends " + narrator.relative(graceEnds) + ")" + (unchanged ? "" : "; replicas changed!")
                        : "not all " + would() + "scaled down",
                scaledDown && levelOrder && beforeGrace && unchanged);
        return cut;
    }

    private void recovery(DemoSeed seed, List<String> alphaNodes, DemoTimeline timeline) {
        narrator.step(3, "The cut heals");
        Instant healed = Instant.now();
        seed.heal(alphaNodes.subList(0, 3));
        narrator.at(healed, "alpha", "kubelets renew their leases again");
        boolean scaledUp = timeline.await(events -> scaledTo(events, healed, ALPHA, 3)
                && events.stream().anyMatch(e -> !e.at().isBefore(healed) && e.is(Kind.FLOW_DONE, ALPHA)
                        && e.subject().equals("UP")), STEP_TIMEOUT);
        List<Event> scaled = timeline.since(healed).stream().filter(e -> e.is(Kind.SCALED, ALPHA)).toList();
        List<String> order = scaled.stream().map(Event::subject).toList();
        boolean inOrder = order.equals(List.of(DemoSeed.KCM, DemoSeed.MCM, DemoSeed.CA));
        boolean delayed = inOrder && !Duration.between(scaled.get(0).at(), scaled.get(1).at()).minus(MCM_DELAY).isNegative();
        boolean restored;
        try {
            restored = seed.replicas(ALPHA, DemoSeed.KCM) == 3 && seed.replicas(ALPHA, DemoSeed.MCM) == 2
                    && seed.replicas(ALPHA, DemoSeed.CA) == 1
                    && DemoSeed.DEPENDENTS.stream().allMatch(d -> annotationsOf(seed, d).isEmpty());
        } catch (io.kubernetes.client.openapi.ApiException e) {
            restored = false;
        }
        narrator.check("3 recovery", mode.isShadow() ? "would scale KCM 3, MCM 2 after its delay, CA 1; no annotations"
                        : "KCM 3, MCM 2 after its delay, CA 1; annotations removed",
                scaledUp ? String.join(", ", shortNames(order)) + (restored ? "; 3/2/1, no annotations" : "; counts differ")
                        : "not all " + would() + "scaled up", scaledUp && inOrder && delayed && restored);
    }

    private void otherShootUntouched(DemoTimeline timeline, Instant cut) {
        long betaScaled = timeline.since(cut).stream().filter(e -> e.is(Kind.SCALED, BETA)).count();
        narrator.check("  other shoot", "beta untouched (its kubelets kept renewing)",
                betaScaled + " dependents " + would() + "scaled", betaScaled == 0);
    }

    private void etcdOutage(DemoSeed seed, DemoTimeline timeline) {
        narrator.step(4, "etcd outage: alpha's kube-apiservers crash-loop");
        Instant outage = Instant.now();
        narrator.at(outage, "alpha", "etcd-main-client loses its ready endpoint");
        seed.setServiceReady(ALPHA, "etcd-main-client", false);
        timeline.await(events -> events.stream().anyMatch(e -> !e.at().isBefore(outage) && e.is(Kind.NOT_READY, ALPHA)),
                Duration.ofSeconds(10));
        seed.crashLoop(ALPHA, "kube-apiserver-0");
        seed.crashLoop(ALPHA, "kube-apiserver-1");
        narrator.at(Instant.now(), "alpha", "kube-apiserver-0, kube-apiserver-1: CrashLoopBackOff (back-off 40s)");
        Instant back = Instant.now();
        narrator.at(back, "alpha", "etcd comes back: its endpoint is ready again");
        seed.setServiceReady(ALPHA, "etcd-main-client", true);
        boolean deleted = timeline.await(events -> events.stream()
                .filter(e -> !e.at().isBefore(back) && e.is(Kind.POD_DELETED, ALPHA)).count() >= 2, STEP_TIMEOUT);
        List<Event> deletions = timeline.since(back).stream().filter(e -> e.is(Kind.POD_DELETED, ALPHA)).toList();
        boolean podsKept = !mode.isShadow() || podsStillThere(seed);
        narrator.check("4 etcd recovers", mode.isShadow() ? "would delete both crash-looping kube-apiserver pods; both still there"
                        : "both crash-looping kube-apiserver pods deleted",
                deletions.size() + " " + would() + "deleted" + (deletions.isEmpty() ? ""
                        : ", first " + Duration.between(back, deletions.getFirst().at()).toMillis() + " ms after ready")
                        + (podsKept ? "" : "; pods gone!"),
                deleted && (!mode.isShadow() || deletions.size() == 2) && podsKept);
    }

    /** Shadow mode's checks: after the whole story, not one object of the seed changed. */
    private void nothingChanged(DemoSeed seed, Map<String, String> versionsBefore) {
        Map<String, String> versionsAfter = resourceVersions(seed);
        long changed = versionsBefore.keySet().stream()
                .filter(name -> !versionsBefore.get(name).equals(versionsAfter.get(name))).count();
        narrator.check("  nothing changed", "dependents: same resourceVersions; pods: same UIDs, not deleted",
                versionsBefore.size() + " objects, " + changed + " changed", changed == 0 && !versionsBefore.isEmpty());
    }

    /** What changes if dwd changes anything: alpha's dependents' resourceVersions, its pods' UIDs and deletion marks. */
    private static Map<String, String> resourceVersions(DemoSeed seed) {
        try {
            return seed.fingerprints(ALPHA);
        } catch (io.kubernetes.client.openapi.ApiException e) {
            return Map.of();
        }
    }

    private static boolean replicasUnchanged(DemoSeed seed) {
        try {
            return DemoSeed.DEPENDENTS.stream().allMatch(d -> replicasOf(seed, d) == DemoSeed.REPLICAS.get(d)
                    && annotationsOf(seed, d).isEmpty());
        } catch (IllegalStateException e) {
            return false;
        }
    }

    private static int replicasOf(DemoSeed seed, String deployment) {
        try {
            return seed.replicas(ALPHA, deployment);
        } catch (io.kubernetes.client.openapi.ApiException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean podsStillThere(DemoSeed seed) {
        try {
            return seed.podNames(ALPHA).containsAll(List.of("kube-apiserver-0", "kube-apiserver-1"));
        } catch (io.kubernetes.client.openapi.ApiException e) {
            return false;
        }
    }

    /** {@code "would be "} in shadow mode, so that the checks say what they count. */
    private String would() {
        return mode.isShadow() ? "would be " : "";
    }

    private void show(Event event) {
        String who = event.namespace().equals(ALPHA) ? "alpha" : event.namespace().equals(BETA) ? "beta" : event.namespace();
        switch (event.kind()) {
            case VERDICT -> {
                String decision = event.verdict().decision().name();
                if (!decision.equals(lastVerdictShown.put(event.namespace(), decision))) {
                    narrator.at(event.at(), who, "lease probe: " + event.text() + " -> "
                            + (decision.equals("SCALE_DOWN") ? "scale down" : "healthy (scale up if needed)"));
                }
            }
            case SCALED, ANNOTATED, FAILED, PROBE_FAILED, WEEDER, POD_DELETED, POD_LEFT, READY, NOT_READY ->
                    narrator.at(event.at(), who, event.text());
            default -> { }
        }
    }

    private Path binaries() throws DemoFailure {
        Path cache = Optional.ofNullable(controlPlaneDirectory)
                .or(() -> Optional.ofNullable(System.getenv("DWD_CONTROL_PLANE_DIR")).map(Path::of))
                .orElse(Path.of(System.getProperty("user.home"), ".cache", "dwd", "kube-api-test"));
        Optional<Path> found = LocalKubernetes.findBinaries(cache);
        if (found.isEmpty()) {
            buildBinaries(cache);
            found = LocalKubernetes.findBinaries(cache);
        }
        return found.orElseThrow(() -> new DemoFailure("no etcd/kube-apiserver under " + cache
                + "/k8s: run scripts/control-plane (or make demo, which runs it) to build them"));
    }

    /** Runs scripts/control-plane of the checkout this launcher belongs to, showing its progress. */
    private void buildBinaries(Path cache) throws DemoFailure {
        String home = System.getProperty("dwd.home");
        if (home == null || !Files.isExecutable(Path.of(home, "scripts", "control-plane"))) {
            return;
        }
        narrator.info("building the local control plane first (once; several minutes on 2 cores) ...");
        try {
            var builder = new ProcessBuilder(Path.of(home, "scripts", "control-plane").toString()).inheritIO();
            builder.environment().put("DWD_CONTROL_PLANE_DIR", cache.toString());
            builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            int exit = builder.start().waitFor();
            if (exit != 0) {
                throw new DemoFailure("scripts/control-plane failed with exit status " + exit, null);
            }
        } catch (IOException e) {
            throw new DemoFailure("cannot run scripts/control-plane: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DemoFailure("interrupted while building the control plane", e);
        }
    }

    /** Stops everything started, newest first; safe to call twice (Ctrl-C and the normal end). */
    private synchronized void stopAll() {
        if (!started.isEmpty()) {
            LogLevels.quietInformersForShutdown();
        }
        while (!started.isEmpty()) {
            AutoCloseable next = started.pop();
            try {
                next.close();
            } catch (Exception e) {
                System.err.println("dwd demo: stopping " + next.getClass().getSimpleName() + " failed: " + e.getMessage());
            }
        }
    }

    private static Map<String, String> annotationsOf(DemoSeed seed, String deployment) {
        try {
            return seed.annotations(ALPHA, deployment);
        } catch (io.kubernetes.client.openapi.ApiException e) {
            return Map.of("unreadable", e.getMessage());
        }
    }

    private static boolean scaledTo(List<Event> events, Instant since, String namespace, int count) {
        return events.stream().filter(e -> !e.at().isBefore(since) && e.is(Kind.SCALED, namespace)).count() >= count;
    }

    private static long count(List<Event> events, Instant since, Kind kind, String namespace) {
        return events.stream().filter(e -> !e.at().isBefore(since) && e.is(kind, namespace)).count();
    }

    private static List<String> shortNames(List<String> names) {
        return names.stream().map(name -> switch (name) {
            case DemoSeed.KCM -> "KCM";
            case DemoSeed.MCM -> "MCM";
            case DemoSeed.CA -> "CA";
            default -> name;
        }).toList();
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s"
                : String.format(java.util.Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
    }

    /** The demo could not be played (not: a step was not observed). */
    static final class DemoFailure extends Exception {
        private static final long serialVersionUID = 1L;

        DemoFailure(String message) {
            super(message);
        }

        DemoFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
