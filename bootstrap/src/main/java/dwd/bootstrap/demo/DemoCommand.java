package dwd.bootstrap.demo;

import static dwd.bootstrap.demo.Narrator.seconds;

import dwd.application.runtime.SystemScheduler;
import dwd.bootstrap.logging.LogLevels;
import dwd.bootstrap.shadow.DryRunOption;
import dwd.domain.dryrun.DryRunMode;
import io.kubernetes.client.openapi.ApiClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
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
 * was observed. The stage is {@link DemoStage}'s, the story {@link DemoStory}'s; this class runs one
 * after the other and stops everything at the end or on Ctrl-C.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortSynopsis = false,
        description = {"Play a meltdown and a recovery on a local control plane, narrated.",
            "Starts etcd + kube-apiserver on loopback (binaries of scripts/control-plane, built if missing),",
            "starts `dwd prober` and `dwd weeder` as processes against a demo seed, with the flags Gardener passes",
            "and its configs (delays shortened), watches what they do and ends with a summary table.",
            "With --dry-run=client|server the same story plays in shadow mode: dwd reports what it would do",
            "(\"would scale …\", \"would delete …\") and the checks expect that nothing changed.",
            "With --beside-original the original dependency-watchdog acts and dwd runs beside it in shadow mode,",
            "comparing itself with it; the demo ends with the comparison table.",
            "Exit status: 0 every step observed, 1 otherwise, 2 usage error."})
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--control-plane-dir", paramLabel = "DIR",
            description = "Where scripts/control-plane put etcd and kube-apiserver (default: $DWD_CONTROL_PLANE_DIR or ~/.cache/dwd/kube-api-test).")
    Path controlPlaneDirectory;

    @Option(names = "--verbose", description = "Also show the log lines of dwd prober and dwd weeder, prefixed by role.")
    boolean verbose;

    @Option(names = "--keep", description = {"After the story, leave the control plane and both roles running and print",
        "a kubeconfig, a kubectl command and the roles' URLs; Ctrl-C stops everything."})
    boolean keep;

    // Before --dry-run: the synopsis then wraps between options, not inside --dry-run[=MODE].
    @Option(names = "--beside-original", description = "The original dependency-watchdog v1.7.0 acts (built once by"
            + " scripts/original-dwd with Go); dwd runs beside it in shadow mode (--dry-run=server unless given) with"
            + " --compare-with-original; the demo ends with dwd's comparison table.")
    boolean besideOriginal;

    @Mixin
    DryRunOption dryRunOption;

    /** The mode the prober and the weeder run in. */
    private DryRunMode mode = DryRunMode.NONE;
    private Narrator narrator;
    private Teardown teardown;

    @Override
    public Integer call() {
        var dryRun = dryRunOption.resolve("dwd demo", new PrintWriter(System.err, true));
        if (dryRun.isEmpty()) {
            return DryRunOption.INVALID;
        }
        mode = dryRun.get();
        if (besideOriginal) {
            if (mode == DryRunMode.NONE && dryRunOption.given()) {
                System.err.println("dwd demo: --beside-original runs dwd in shadow mode: leave out --dry-run, or use"
                        + " --dry-run=server or client");
                return DryRunOption.INVALID;
            }
            mode = mode.isShadow() ? mode : DryRunMode.SERVER;
        }
        narrator = Narrator.forThisProcess();
        teardown = new Teardown(narrator);
        LogLevels.apply(Level.ERROR); // the demo's own lines; the roles log for themselves
        Thread stopper = new Thread(teardown::stopFromOutside, "dwd-demo-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            return play();
        } catch (DemoFailure | RuntimeException e) {
            if (!teardown.stopping()) {
                narrator.notice("dwd demo: " + e.getMessage());
            }
            return 1;
        } finally {
            teardown.stopAll("Stopping everything the demo started:");
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C came first: the hook stops everything.
            }
        }
    }

    private int play() throws DemoFailure {
        narrator.title("dwd demo: a meltdown and a recovery on a local control plane"
                + (besideOriginal ? ", dwd beside the original dependency-watchdog"
                        : mode.isShadow() ? ", in shadow mode (--dry-run=" + mode.flagValue() + ")" : ""));
        if (mode.isShadow()) {
            narrator.info(mode == DryRunMode.SERVER
                    ? "shadow mode: dwd sends every change with dryRun=All; the API server checks it and persists nothing"
                    : "shadow mode: dwd sends no change at all; it reports what it would change");
        }
        var stage = new DemoStage(narrator, teardown, mode, verbose, besideOriginal);
        var story = new DemoStory(narrator, mode);
        var beside = new BesideOriginalStory(narrator, story);
        Path binaries = stage.binaries(controlPlaneDirectory);
        var scheduler = new SystemScheduler();
        teardown.own(Teardown.quietly(scheduler::close));
        every(scheduler, Duration.ofMillis(100), narrator::release);

        LocalKubernetes kubernetes = stage.startControlPlane(binaries, scheduler);
        ApiClient admin = kubernetes.client(LocalKubernetes.ADMIN, Duration.ofSeconds(30));
        var seed = new DemoSeed(admin, scheduler);
        teardown.own(Teardown.quietly(seed::close));
        Path kubeconfig = kubernetes.writeKubeconfig(LocalKubernetes.ADMIN);
        var timeline = new DemoTimeline(story::show);
        var reports = new RoleReports(timeline, scheduler);
        teardown.own(Teardown.quietly(reports::close));

        // The roles' JVMs start while the seed is built (their first request comes seconds later, when the CRDs
        // are served); they find its shoots as they appear.
        List<RoleProcess> roles = stage.startRoles(kubernetes, kubeconfig, seed, reports, timeline);
        RoleProcess prober = roles.get(0);
        RoleProcess weeder = roles.get(1);
        seed.installCrds();
        List<String> alphaNodes = stage.createSeed(seed, kubernetes);
        if (besideOriginal) {
            // After the seed: the original's manager needs the Cluster and Machine CRDs when it starts.
            stage.startOriginal(kubeconfig, kubernetes.workDirectory());
        }
        Map<String, String> versionsBefore = DemoStory.resourceVersions(seed);
        var seedWatch = new SeedWatch(kubernetes.client(LocalKubernetes.ADMIN, Duration.ZERO), timeline);
        teardown.own(Teardown.quietly(seedWatch::close));
        seedWatch.start();
        stage.awaitReady(scheduler, "the demo's watch on the seed", seedWatch::hasSynced);

        narrator.step(1, "Normal operation");
        stage.awaitReady(scheduler, "dwd prober and dwd weeder (/readyz)", () -> prober.ready() & weeder.ready());
        narrator.info("dwd prober and dwd weeder ready " + seconds(prober.uptime()) + " after they were started"
                + " (leader election won, caches synced: /readyz answers 200)");
        reports.start(prober, weeder);
        story.normalOperation(timeline, prober.startedAt());
        goesOn(timeline);
        Instant cut = Instant.now();
        String comparison = null;
        if (besideOriginal) {
            beside.networkCut(seed, alphaNodes, timeline);
            goesOn(timeline);
            beside.recovery(seed, alphaNodes, timeline);
            goesOn(timeline);
            story.otherShootUntouched(timeline, cut);
            beside.etcdOutage(seed, timeline);
            goesOn(timeline);
            comparison = beside.comparison(prober, weeder, timeline);
        } else {
            cut = story.networkCut(seed, alphaNodes, timeline);
            goesOn(timeline);
            story.recovery(seed, alphaNodes, timeline);
            goesOn(timeline);
            story.otherShootUntouched(timeline, cut);
            story.etcdOutage(seed, timeline);
            goesOn(timeline);
            if (mode.isShadow()) {
                story.nothingChanged(seed, versionsBefore);
            }
        }
        boolean passed = narrator.summary();
        if (comparison != null) {
            narrator.info("");
            comparison.lines().forEach(narrator::info);
        }
        if (!keep) {
            narrator.endTimeline(); // what the roles do while they are stopped is not part of the story
        }
        if (keep) {
            return keepRunning(kubernetes, kubeconfig, prober, weeder, timeline);
        }
        return passed ? 0 : 1;
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
        if (aborted.isPresent() && !teardown.stopping()) {
            narrator.notice("dwd demo: " + aborted.get());
            return 1;
        }
        return 0;
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
}
