package dwd.bootstrap.demo;

import dwd.application.prober.ProberTuning;
import dwd.application.runtime.SystemScheduler;
import dwd.bootstrap.demo.DemoTimeline.Event;
import dwd.bootstrap.demo.DemoTimeline.Kind;
import dwd.bootstrap.logging.LogLevels;
import dwd.bootstrap.run.Readiness;
import dwd.bootstrap.shadow.DryRunOption;
import dwd.domain.dryrun.DryRunMode;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.Level;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dwd demo}: starts a local control plane, builds a seed with two shoots, starts the real
 * {@code dwd prober} and {@code dwd weeder} as processes of their own against it (Gardener's flags
 * and configs, delays shortened), and plays a meltdown, a recovery and an etcd outage, narrated.
 * It observes dwd from outside, as an operator would: by watching the seed and reading the roles'
 * status pages (and, in shadow mode, their reports of would-be actions). Exit 0 only if every step
 * was observed.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Play a meltdown and a recovery on a local control plane, narrated.",
            "Starts etcd + kube-apiserver on loopback (binaries of scripts/control-plane, built if missing),",
            "starts `dwd prober` and `dwd weeder` as processes against a demo seed, with the flags Gardener passes",
            "and its configs (delays shortened), watches what they do and ends with a summary table.",
            "With --dry-run=client|server the same story plays in shadow mode: dwd reports what it would do",
            "(\"would scale …\", \"would delete …\") and the checks expect that nothing changed.",
            "Exit status: 0 every step observed, 1 otherwise, 2 usage error."})
public final class DemoCommand implements Callable<Integer> {

    static final String ALPHA = "shoot--demo--alpha";
    static final String BETA = "shoot--demo--beta";
    /** Where the roles keep their leader-election Leases (the original's default, as in a seed). */
    static final String LEASE_NAMESPACE = "garden";
    static final Duration KUBELET_PERIOD = Duration.ofSeconds(2);
    static final String GRACE_PERIOD = "8s";
    static final Duration GRACE = Duration.ofSeconds(8);
    static final Duration MCM_DELAY = Duration.ofSeconds(5);
    /** No pod ever becomes ready on a control plane without kubelets: do not wait the default 5 s for each. */
    static final Duration READINESS_WAIT = Duration.ofMillis(500);
    static final Duration STEP_TIMEOUT = Duration.ofSeconds(40);
    static final Duration ROLES_READY_TIMEOUT = Duration.ofSeconds(90);
    /** The flags Gardener's seed reconciler passes to each role, besides the config file. */
    static final List<String> GARDENER_PROBER_FLAGS = List.of("--kube-api-qps=20.0", "--kube-api-burst=100",
            "--zap-log-level=INFO", "--enable-leader-election=true");
    static final List<String> GARDENER_WEEDER_FLAGS = List.of("--enable-leader-election=true");

    @Option(names = "--control-plane-dir", paramLabel = "DIR",
            description = "Where scripts/control-plane put etcd and kube-apiserver (default: $DWD_CONTROL_PLANE_DIR or ~/.cache/dwd/kube-api-test).")
    Path controlPlaneDirectory;

    @Option(names = "--verbose", description = "Also show the log lines of dwd prober and dwd weeder, prefixed by role.")
    boolean verbose;

    @Option(names = "--keep", description = {"After the story, leave the control plane and both roles running and print",
        "a kubeconfig, a kubectl command and the roles' URLs; Ctrl-C stops everything."})
    boolean keep;

    @Mixin
    DryRunOption dryRunOption;

    /** The mode the prober and the weeder run in. */
    private DryRunMode mode = DryRunMode.NONE;

    /** What to stop, newest first; each says what it stopped. */
    private final Deque<Stop> started = new ArrayDeque<>();
    private final Map<String, String> lastVerdictShown = new ConcurrentHashMap<>();
    private volatile boolean stopping;
    private Narrator narrator;

    /** Stops one thing the demo started; returns what it did, one line each (none for the demo's own helpers). */
    @FunctionalInterface
    private interface Stop {
        List<String> stop();
    }

    @Override
    public Integer call() {
        var dryRun = dryRunOption.resolve("dwd demo", new PrintWriter(System.err, true));
        if (dryRun.isEmpty()) {
            return DryRunOption.INVALID;
        }
        mode = dryRun.get();
        narrator = Narrator.forThisProcess();
        LogLevels.apply(Level.ERROR); // the demo's own lines; the roles log for themselves
        Thread stopper = new Thread(() -> {
            stopping = true;
            narrator.mute();
            stopAll("dwd demo: asked to stop; stopping everything it started:");
        }, "dwd-demo-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            return play();
        } catch (DemoFailure | RuntimeException e) {
            if (!stopping) {
                narrator.notice("dwd demo: " + e.getMessage());
            }
            return 1;
        } finally {
            stopAll("Stopping everything the demo started:");
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C came first: the hook stops everything.
            }
        }
    }

    private int play() throws DemoFailure {
        narrator.title("dwd demo: a meltdown and a recovery on a local control plane"
                + (mode.isShadow() ? ", in shadow mode (--dry-run=" + mode.flagValue() + ")" : ""));
        if (mode.isShadow()) {
            narrator.info(mode == DryRunMode.SERVER
                    ? "shadow mode: dwd sends every change with dryRun=All; the API server checks it and persists nothing"
                    : "shadow mode: dwd sends no change at all; it reports what it would change");
        }
        Path binaries = binaries();
        var scheduler = new SystemScheduler();
        own(quietly(scheduler::close));
        every(scheduler, Duration.ofMillis(100), narrator::release);

        LocalKubernetes kubernetes = startControlPlane(binaries, scheduler);
        ApiClient admin = kubernetes.client(LocalKubernetes.ADMIN, Duration.ofSeconds(30));
        var seed = new DemoSeed(admin, scheduler);
        own(quietly(seed::close));
        Path kubeconfig = kubernetes.writeKubeconfig(LocalKubernetes.ADMIN);
        var timeline = new DemoTimeline(this::show);
        var reports = new RoleReports(timeline, scheduler);
        own(quietly(reports::close));

        // The roles' JVMs start while the seed is built (their first request comes seconds later, when the CRDs
        // are served); they find its shoots as they appear.
        List<RoleProcess> roles = startRoles(kubernetes, kubeconfig, seed, reports, timeline);
        RoleProcess prober = roles.get(0);
        RoleProcess weeder = roles.get(1);
        seed.installCrds();
        List<String> alphaNodes = createSeed(seed, kubernetes);
        Map<String, String> versionsBefore = resourceVersions(seed);
        var seedWatch = new SeedWatch(kubernetes.client(LocalKubernetes.ADMIN, Duration.ZERO), timeline);
        own(quietly(seedWatch::close));
        seedWatch.start();
        awaitReady(scheduler, "the demo's watch on the seed", seedWatch::hasSynced);

        narrator.step(1, "Normal operation");
        awaitReady(scheduler, "dwd prober and dwd weeder (/readyz)", () -> prober.ready() & weeder.ready());
        narrator.info("dwd prober and dwd weeder ready " + seconds(prober.uptime()) + " after they were started"
                + " (leader election won, caches synced: /readyz answers 200)");
        reports.start(prober, weeder);
        normalOperation(timeline, prober.startedAt());
        goesOn(timeline);
        Instant cut = networkCut(seed, alphaNodes, timeline);
        goesOn(timeline);
        recovery(seed, alphaNodes, timeline);
        goesOn(timeline);
        otherShootUntouched(timeline, cut);
        etcdOutage(seed, timeline);
        goesOn(timeline);
        if (mode.isShadow()) {
            nothingChanged(seed, versionsBefore);
        }
        boolean passed = narrator.summary();
        if (!keep) {
            narrator.endTimeline(); // what the roles do while they are stopped is not part of the story
        }
        if (keep) {
            return keepRunning(kubernetes, kubeconfig, prober, weeder, timeline);
        }
        return passed ? 0 : 1;
    }

    private LocalKubernetes startControlPlane(Path binaries, SystemScheduler scheduler) {
        Instant starting = Instant.now();
        LocalKubernetes kubernetes = LocalKubernetes.create(binaries);
        Stop stop = own(kubernetes::stop);
        try {
            kubernetes.launch(scheduler, List.of());
        } catch (IllegalStateException firstTry) {
            if (stopping) {
                throw firstTry;
            }
            // A free port can be taken between choosing it and binding it: one more try, with new ports.
            narrator.info("control plane did not start (" + firstTry.getMessage().lines().findFirst().orElse("")
                    + "); trying again");
            disown(stop);
            kubernetes.stop();
            kubernetes = LocalKubernetes.create(binaries);
            own(kubernetes::stop);
            kubernetes.launch(scheduler, List.of());
        }
        narrator.info("control plane: etcd + kube-apiserver " + binaries.getFileName() + " on " + kubernetes.server()
                + " (up in " + seconds(Duration.between(starting, Instant.now())) + "; files in " + kubernetes.workDirectory() + ")");
        return kubernetes;
    }

    /** The shoots, their nodes' leases renewed from now on; returns alpha's nodes. */
    private List<String> createSeed(DemoSeed seed, LocalKubernetes kubernetes) throws DemoFailure {
        String shootKubeconfig = kubernetes.kubeconfig(LocalKubernetes.ADMIN);
        List<String> alphaNodes;
        try {
            alphaNodes = seed.createShoot(ALPHA, shootKubeconfig, GRACE_PERIOD);
            seed.createShoot(BETA, shootKubeconfig, GRACE_PERIOD);
            seed.createControlPlaneServices(ALPHA);
        } catch (ApiException e) {
            throw new DemoFailure("cannot create the demo seed: " + e.getResponseBody(), e);
        }
        seed.startKubelets(KUBELET_PERIOD);
        narrator.info("seed: shoots " + ALPHA + " and " + BETA + ", " + DemoSeed.NODES_PER_SHOOT + " nodes each (Node,"
                + " Machine and Lease objects),");
        narrator.info("    Deployments kube-controller-manager 3, machine-controller-manager 2, cluster-autoscaler 1 replicas;"
                + " both shoots' kubeconfig secrets point at this API server");
        narrator.info("no scheduler, controllers or kubelets run here, so no pod runs: the demo writes what they would,");
        narrator.info("    starting with the node leases, renewed every " + seconds(KUBELET_PERIOD) + "; node-monitor grace"
                + " period " + GRACE_PERIOD + " (a lease counts as expired 0.75 x 8s = 6s after its last renewal)");
        return alphaNodes;
    }

    /** Writes the roles' config files to the work directory and starts both roles (prober first). */
    private List<RoleProcess> startRoles(LocalKubernetes kubernetes, Path kubeconfig, DemoSeed seed, RoleReports reports,
            DemoTimeline timeline) throws DemoFailure {
        Path dir = kubernetes.workDirectory();
        Path proberConfig;
        Path weederConfig;
        try {
            seed.createNamespace(LEASE_NAMESPACE);
            proberConfig = Files.writeString(dir.resolve("prober-config.yaml"), DemoSeed.resourceText("examples/prober-config.yaml")
                    .replace("probeInterval: 30s", "probeInterval: 2s\ninitialDelay: 1s")
                    .replace("initialDelay: 30s", "initialDelay: " + seconds(MCM_DELAY)));
            weederConfig = Files.writeString(dir.resolve("weeder-config.yaml"), DemoSeed.resourceText("examples/weeder-config.yaml")
                    .replace("watchDuration: 5m0s", "watchDuration: 30s"));
        } catch (IOException e) {
            throw new DemoFailure("cannot write the roles' config files to " + dir + ": " + e.getMessage(), e);
        } catch (ApiException e) {
            throw new DemoFailure("cannot create the namespace " + LEASE_NAMESPACE + ": " + e.getResponseBody(), e);
        }
        var proberArguments = new ArrayList<>(List.of("--config-file=" + proberConfig, "--kubeconfig=" + kubeconfig));
        proberArguments.addAll(GARDENER_PROBER_FLAGS);
        proberArguments.add("--x-scale-readiness-timeout=" + READINESS_WAIT.toMillis() + "ms");
        var weederArguments = new ArrayList<>(List.of("--config-file=" + weederConfig, "--kubeconfig=" + kubeconfig));
        weederArguments.addAll(GARDENER_WEEDER_FLAGS);
        if (mode.isShadow()) {
            proberArguments.add("--dry-run=" + mode.flagValue());
            weederArguments.add("--dry-run=" + mode.flagValue());
        }
        // Started from this (the main) thread: the processes are tied to its life (see ChildProcesses).
        RoleProcess prober = RoleProcess.start("prober", proberArguments, line -> roleLine("prober", line, reports));
        RoleProcess weeder;
        try {
            weeder = RoleProcess.start("weeder", weederArguments, line -> roleLine("weeder", line, reports));
        } catch (RuntimeException e) {
            prober.terminate();
            own(() -> List.of(prober.awaitStopped()));
            throw e;
        }
        own(() -> {
            // Both at once: each takes a moment to shut down (it releases its Lease).
            weeder.terminate();
            prober.terminate();
            return List.of(weeder.awaitStopped(), prober.awaitStopped());
        });
        for (RoleProcess role : List.of(prober, weeder)) {
            role.onExit().thenRun(() -> {
                if (!stopping) {
                    timeline.abort(role.exitReport());
                }
            });
        }
        narrator.info("dwd prober (pid " + prober.pid() + "): the flags Gardener passes: " + String.join(" ", GARDENER_PROBER_FLAGS));
        narrator.info("    Gardener's config, delays shortened: probe interval 30s -> 2s, first probe after 30s -> 1s,"
                + " machine-controller-manager's scale-up delay 30s -> " + seconds(MCM_DELAY));
        narrator.info("    a scaled dependent is watched for ready replicas " + seconds(READINESS_WAIT) + " instead of "
                + seconds(ProberTuning.defaults().readinessTimeout()) + " (--x-scale-readiness-timeout: no pod runs here)");
        narrator.info("dwd weeder (pid " + weeder.pid() + "): the flags Gardener passes: " + String.join(" ", GARDENER_WEEDER_FLAGS));
        narrator.info("    Gardener's config (etcd-main-client -> kube-apiserver pods; kube-apiserver -> other control-plane"
                + " pods), watch duration 5m -> 30s");
        narrator.info("both: a JVM of their own, started like this demo (same java, JVM flags, module path and entrypoint),");
        narrator.info("    metrics and health on loopback ports, leader election on Leases in the namespace " + LEASE_NAMESPACE
                + ", config files and kubeconfig in the work directory");
        if (verbose) {
            narrator.info("$ " + String.join(" ", prober.command()));
            narrator.info("$ " + String.join(" ", weeder.command()));
        }
        return List.of(prober, weeder);
    }

    private void roleLine(String role, String line, RoleReports reports) {
        reports.logLine(line);
        if (verbose) {
            narrator.roleLine(role, line);
        }
    }

    private void awaitReady(SystemScheduler scheduler, String what, java.util.function.BooleanSupplier condition)
            throws DemoFailure {
        try {
            Readiness.await(scheduler, what, ROLES_READY_TIMEOUT, condition);
        } catch (IllegalStateException e) {
            throw new DemoFailure(e.getMessage(), e);
        }
    }

    /** Throws if a role exited: the story cannot go on. */
    private static void goesOn(DemoTimeline timeline) throws DemoFailure {
        Optional<String> aborted = timeline.aborted();
        if (aborted.isPresent()) {
            throw new DemoFailure(aborted.get());
        }
    }

    /** {@code --keep}: says where to look, then waits for Ctrl-C (the shutdown hook stops everything) or a role's exit. */
    private int keepRunning(LocalKubernetes kubernetes, Path kubeconfig, RoleProcess prober, RoleProcess weeder,
            DemoTimeline timeline) {
        String kubectl = kubernetes.kubectl().map(Path::toString).orElse("kubectl");
        narrator.info("");
        narrator.info("Still running (--keep): the control plane, dwd prober and dwd weeder. Ctrl-C stops everything.");
        narrator.info(String.format(Locale.ROOT, "  %-12s %s", "kubeconfig", kubeconfig));
        narrator.info(String.format(Locale.ROOT, "  %-12s %s --kubeconfig %s get deployments,pods,leases -A", "kubectl",
                kubectl, kubeconfig));
        for (RoleProcess role : List.of(prober, weeder)) {
            narrator.info(String.format(Locale.ROOT, "  %-12s pid %d", "dwd " + role.role(), role.pid()));
            var urls = new ArrayList<String>(List.of(role.metricsUrl("/metrics"),
                    role.metricsUrl(role == prober ? "/probes" : "/weeders"),
                    role.healthUrl("/healthz"), role.healthUrl("/readyz")));
            for (String url : urls) {
                narrator.info(String.format(Locale.ROOT, "    %-10s %s", url.substring(url.lastIndexOf('/')), url));
            }
        }
        timeline.await(events -> false, Duration.ofDays(365));
        Optional<String> aborted = timeline.aborted();
        if (aborted.isPresent() && !stopping) {
            narrator.notice("dwd demo: " + aborted.get());
            return 1;
        }
        return 0;
    }

    /** Since the roles started: the prober probes alpha (twice, to be sure) and scales nothing. */
    private void normalOperation(DemoTimeline timeline, Instant start) {
        boolean healthy = timeline.await(events -> count(events, start, Kind.VERDICT, ALPHA) >= 2, STEP_TIMEOUT);
        long scaled = timeline.since(start).stream().filter(e -> e.kind() == Kind.SCALED).count();
        narrator.check("1 normal operation", "leases fresh; nothing " + would() + "scaled",
                healthy ? scaled + " dependents " + would() + "scaled" : "no lease probe seen", healthy && scaled == 0);
    }

    private Instant networkCut(DemoSeed seed, List<String> alphaNodes, DemoTimeline timeline) {
        List<String> cutNodes = alphaNodes.subList(0, 3);
        Instant cut = Instant.now();
        narrator.setOrigin(cut);
        narrator.step(2, "Network cut: 3 of alpha's 5 nodes stop renewing their leases");
        seed.cut(cutNodes);
        narrator.at(cut, "alpha", "the demo stops renewing the leases of " + String.join(", ", cutNodes)
                + ", as their kubelets would when cut off from their control plane");
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
        narrator.at(healed, "alpha", "the demo renews those leases again");
        // The flow is done when /probes says so; in shadow mode it lists no would-be scalings, so the reports count.
        boolean scaledUp = timeline.await(events -> scaledTo(events, healed, ALPHA, 3)
                && (mode.isShadow() || events.stream().anyMatch(e -> !e.at().isBefore(healed) && e.is(Kind.FLOW_DONE, ALPHA)
                        && e.subject().equals("up"))), STEP_TIMEOUT);
        List<Event> scaled = timeline.since(healed).stream().filter(e -> e.is(Kind.SCALED, ALPHA)).toList();
        List<String> order = scaled.stream().map(Event::subject).toList();
        boolean inOrder = order.equals(List.of(DemoSeed.KCM, DemoSeed.MCM, DemoSeed.CA));
        boolean delayed = inOrder && !Duration.between(scaled.get(0).at(), scaled.get(1).at()).minus(MCM_DELAY).isNegative();
        boolean restored;
        try {
            restored = seed.replicas(ALPHA, DemoSeed.KCM) == 3 && seed.replicas(ALPHA, DemoSeed.MCM) == 2
                    && seed.replicas(ALPHA, DemoSeed.CA) == 1
                    && DemoSeed.DEPENDENTS.stream().allMatch(d -> annotationsOf(seed, d).isEmpty());
        } catch (ApiException e) {
            restored = false;
        }
        narrator.check("3 recovery", mode.isShadow() ? "would scale KCM 3, MCM 2 after its delay, CA 1; no annotations"
                        : "KCM 3, MCM 2 after its delay, CA 1; annotations removed",
                scaledUp ? String.join(", ", shortNames(order)) + (restored ? "; 3/2/1, no annotations" : "; counts differ")
                        : "not all " + would() + "scaled up", scaledUp && inOrder && delayed && restored);
    }

    private void otherShootUntouched(DemoTimeline timeline, Instant cut) {
        long betaScaled = timeline.since(cut).stream().filter(e -> e.is(Kind.SCALED, BETA)).count();
        narrator.check("  other shoot", "beta untouched (its leases kept being renewed)",
                betaScaled + " dependents " + would() + "scaled", betaScaled == 0);
    }

    private void etcdOutage(DemoSeed seed, DemoTimeline timeline) {
        narrator.step(4, "etcd outage, played by the demo: alpha's kube-apiserver pods get crash-loop statuses");
        Instant outage = Instant.now();
        seed.setServiceReady(ALPHA, "etcd-main-client", false);
        narrator.at(outage, "alpha", "the demo marks etcd-main-client's endpoint not ready, as the endpoints controller"
                + " would for a failed etcd");
        // The weeder stops its weeder for the service when it sees the service not ready; crash loops written before
        // that would be weeded by the old weeder, not in answer to etcd's return.
        timeline.await(events -> noWeederRunning(events, ALPHA, "etcd-main-client"), Duration.ofSeconds(10));
        seed.crashLoop(ALPHA, "kube-apiserver-0");
        seed.crashLoop(ALPHA, "kube-apiserver-1");
        narrator.at(Instant.now(), "alpha", "the demo writes CrashLoopBackOff statuses (back-off 40s) for kube-apiserver-0"
                + " and kube-apiserver-1, as their kubelet would; no container runs or crashes here");
        Instant back = Instant.now();
        seed.setServiceReady(ALPHA, "etcd-main-client", true);
        narrator.at(back, "alpha", "etcd comes back: the demo marks its endpoint ready again");
        boolean deleted = timeline.await(events -> events.stream()
                .filter(e -> !e.at().isBefore(back) && e.is(Kind.POD_DELETED, ALPHA)).count() >= 2
                && events.stream().anyMatch(e -> !e.at().isBefore(back) && e.is(Kind.WEEDER, ALPHA)), STEP_TIMEOUT);
        List<Event> deletions = timeline.since(back).stream().filter(e -> e.is(Kind.POD_DELETED, ALPHA)).toList();
        boolean podsKept = !mode.isShadow() || podsStillThere(seed);
        narrator.check("4 etcd recovers", mode.isShadow() ? "would delete both crash-looping kube-apiserver pods; both still there"
                        : "both crash-looping kube-apiserver pods deleted",
                deletions.size() + " " + would() + "deleted" + (deletions.isEmpty() ? ""
                        : ", first " + Duration.between(back, deletions.getFirst().at()).toMillis() + " ms after ready")
                        + (podsKept ? "" : "; pods gone!"),
                deleted && (!mode.isShadow() || deletions.size() == 2) && podsKept);
    }

    /** Whether {@code /weeders} last showed no weeder for the service (stopped, expired, or never started). */
    private static boolean noWeederRunning(List<Event> events, String namespace, String service) {
        return events.stream().filter(e -> e.namespace().equals(namespace) && e.subject().equals(service)
                        && (e.kind() == Kind.WEEDER || e.kind() == Kind.WEEDER_STOPPED))
                .reduce((first, second) -> second).map(last -> last.kind() == Kind.WEEDER_STOPPED).orElse(true);
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
        } catch (ApiException e) {
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
        } catch (ApiException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean podsStillThere(DemoSeed seed) {
        try {
            return seed.podNames(ALPHA).containsAll(List.of("kube-apiserver-0", "kube-apiserver-1"));
        } catch (ApiException e) {
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
                if (!event.subject().equals(lastVerdictShown.put(event.namespace(), event.subject()))) {
                    narrator.at(event.at(), who, event.text());
                }
            }
            case FLOW_DONE -> { }
            default -> narrator.at(event.at(), who, event.text());
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

    /**
     * Stops everything started, newest first (the roles, then the control plane and its work
     * directory), printing what it stopped under {@code header}; safe to call twice (Ctrl-C and the
     * normal end).
     */
    private void stopAll(String header) {
        synchronized (started) {
            if (started.isEmpty()) {
                return;
            }
            LogLevels.quietInformersForShutdown();
            var report = new ArrayList<String>();
            while (!started.isEmpty()) {
                Stop next = started.pop();
                try {
                    report.addAll(next.stop());
                } catch (RuntimeException e) {
                    report.add("stopping failed: " + e.getMessage());
                }
            }
            if (!report.isEmpty()) {
                narrator.notice("");
                narrator.notice(header);
                report.forEach(line -> narrator.notice("  " + line));
            }
        }
    }

    /**
     * Puts {@code stop} on the list of what to stop at the end. If the demo is being stopped
     * already (Ctrl-C came while this was starting), stops it at once and ends the story.
     */
    private Stop own(Stop stop) {
        synchronized (started) {
            if (!stopping) {
                started.push(stop);
                return stop;
            }
        }
        stop.stop().forEach(line -> narrator.notice("  " + line));
        throw new IllegalStateException("stopped while starting");
    }

    private void disown(Stop stop) {
        synchronized (started) {
            started.remove(stop);
        }
    }

    /** Something the demo uses itself and closes without a word. */
    private static Stop quietly(Runnable close) {
        return () -> {
            close.run();
            return List.of();
        };
    }

    /** Runs {@code task} every {@code period} until the scheduler closes. */
    private static void every(SystemScheduler scheduler, Duration period, Runnable task) {
        try {
            scheduler.schedule(period, () -> {
                task.run();
                every(scheduler, period, task);
            });
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // the demo is over
        }
    }

    private static Map<String, String> annotationsOf(DemoSeed seed, String deployment) {
        try {
            return seed.annotations(ALPHA, deployment);
        } catch (ApiException e) {
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

    static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s"
                : String.format(Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
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
