package dwd.bootstrap.demo;

import static dwd.bootstrap.demo.DemoSettings.ALPHA;
import static dwd.bootstrap.demo.DemoSettings.BETA;
import static dwd.bootstrap.demo.DemoSettings.COMPARISON_WINDOW;
import static dwd.bootstrap.demo.DemoSettings.GARDENER_PROBER_FLAGS;
import static dwd.bootstrap.demo.DemoSettings.GARDENER_WEEDER_FLAGS;
import static dwd.bootstrap.demo.DemoSettings.GRACE_PERIOD;
import static dwd.bootstrap.demo.DemoSettings.KUBELET_PERIOD;
import static dwd.bootstrap.demo.DemoSettings.LEASE_NAMESPACE;
import static dwd.bootstrap.demo.DemoSettings.MCM_DELAY;
import static dwd.bootstrap.demo.DemoSettings.READINESS_WAIT;
import static dwd.bootstrap.demo.DemoSettings.ROLES_READY_TIMEOUT;
import static dwd.bootstrap.demo.Narrator.seconds;

import dwd.application.runtime.SystemScheduler;
import dwd.bootstrap.run.Readiness;
import dwd.domain.config.ProberConfigs;
import dwd.domain.dryrun.DryRunMode;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Sets the demo's stage: the control plane's binaries (built when missing), etcd and
 * kube-apiserver, the seed with its two shoots, and {@code dwd prober} and {@code dwd weeder} as
 * processes of their own with Gardener's flags and configs (delays shortened). Says what it set up.
 */
final class DemoStage {

    private final Narrator narrator;
    private final Teardown teardown;
    private final DryRunMode mode;
    private final boolean verbose;
    private final boolean besideOriginal;
    private Path proberConfig;
    private Path weederConfig;

    DemoStage(Narrator narrator, Teardown teardown, DryRunMode mode, boolean verbose, boolean besideOriginal) {
        this.narrator = narrator;
        this.teardown = teardown;
        this.mode = mode;
        this.verbose = verbose;
        this.besideOriginal = besideOriginal;
    }

    /** etcd and kube-apiserver from {@code directory} (else the environment's or the default cache), built when missing. */
    Path binaries(Path directory) throws DemoFailure {
        Path cache = Optional.ofNullable(directory)
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

    LocalKubernetes startControlPlane(Path binaries, SystemScheduler scheduler) {
        Instant starting = Instant.now();
        LocalKubernetes kubernetes = LocalKubernetes.create(binaries);
        Teardown.Stop stop = teardown.own(kubernetes::stop);
        try {
            kubernetes.launch(scheduler, List.of());
        } catch (IllegalStateException firstTry) {
            if (teardown.stopping()) {
                throw firstTry;
            }
            // A free port can be taken between choosing it and binding it: one more try, with new ports.
            narrator.info("control plane did not start (" + firstTry.getMessage().lines().findFirst().orElse("")
                    + "); trying again");
            teardown.disown(stop);
            kubernetes.stop();
            kubernetes = LocalKubernetes.create(binaries);
            teardown.own(kubernetes::stop);
            kubernetes.launch(scheduler, List.of());
        }
        narrator.info("control plane: etcd + kube-apiserver " + binaries.getFileName() + " on " + kubernetes.server()
                + " (up in " + seconds(Duration.between(starting, Instant.now())) + "; files in " + kubernetes.workDirectory() + ")");
        return kubernetes;
    }

    /** The shoots, their nodes' leases renewed from now on; returns alpha's nodes. */
    List<String> createSeed(DemoSeed seed, LocalKubernetes kubernetes) throws DemoFailure {
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

    /**
     * Writes the roles' config files to the work directory and starts both roles (prober first); a
     * role that exits on its own aborts the timeline.
     */
    List<RoleProcess> startRoles(LocalKubernetes kubernetes, Path kubeconfig, DemoSeed seed, RoleReports reports,
            DemoTimeline timeline) throws DemoFailure {
        Path dir = kubernetes.workDirectory();
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
        if (besideOriginal) {
            for (List<String> arguments : List.of(proberArguments, weederArguments)) {
                arguments.addAll(List.of("--compare-with-original", "--comparison-window=" + seconds(COMPARISON_WINDOW)));
            }
        }
        // Started from this (the main) thread: the processes are tied to its life (see ChildProcesses).
        RoleProcess prober = RoleProcess.start("prober", proberArguments, line -> roleLine("prober", line, reports));
        RoleProcess weeder;
        try {
            weeder = RoleProcess.start("weeder", weederArguments, line -> roleLine("weeder", line, reports));
        } catch (RuntimeException e) {
            prober.terminate();
            teardown.own(() -> List.of(prober.awaitStopped()));
            throw e;
        }
        teardown.own(() -> {
            // Both at once: each takes a moment to shut down (it releases its Lease).
            weeder.terminate();
            prober.terminate();
            return List.of(weeder.awaitStopped(), prober.awaitStopped());
        });
        for (RoleProcess role : List.of(prober, weeder)) {
            role.onExit().thenRun(() -> {
                if (!teardown.stopping()) {
                    timeline.abort(role.exitReport());
                }
            });
        }
        narrator.info("dwd prober (pid " + prober.pid() + "): the flags Gardener passes: " + String.join(" ", GARDENER_PROBER_FLAGS));
        narrator.info("    Gardener's config, delays shortened: probe interval 30s -> 2s, first probe after 30s -> 1s,"
                + " machine-controller-manager's scale-up delay 30s -> " + seconds(MCM_DELAY));
        narrator.info("    a scaled dependent is watched for ready replicas " + seconds(READINESS_WAIT) + " instead of its timeout, "
                + seconds(ProberConfigs.DEFAULT_SCALE_TIMEOUT) + " (--x-scale-readiness-timeout: no pod runs here)");
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

    /**
     * {@code --beside-original}: the original dependency-watchdog's prober and weeder, with the flags Gardener
     * passes and the same config files as dwd's roles; built first if missing.
     */
    void startOriginal(Path kubeconfig, Path dir) throws DemoFailure {
        Path binary = OriginalRoles.binary(narrator);
        OriginalRoles original;
        try {
            original = OriginalRoles.start(binary, proberConfig, GARDENER_PROBER_FLAGS, weederConfig,
                    GARDENER_WEEDER_FLAGS, kubeconfig, dir);
        } catch (java.io.IOException e) {
            throw new DemoFailure("cannot start the original " + binary + ": " + e.getMessage(), e);
        }
        teardown.own(original::stop);
        narrator.info("the original dependency-watchdog v1.7.0 (" + binary + "), prober (pid " + original.pid(0)
                + ") and weeder (pid " + original.pid(1) + "): the same flags and config files; its logs in the work directory");
        narrator.info("    it acts for real; dwd runs beside it with --dry-run=" + mode.flagValue()
                + " --compare-with-original, on Leases of its own (" + LEASE_NAMESPACE + "/<lock>-dry-run)");
    }

    private void roleLine(String role, String line, RoleReports reports) {
        reports.logLine(line);
        if (verbose) {
            narrator.roleLine(role, line);
        }
    }

    void awaitReady(SystemScheduler scheduler, String what, BooleanSupplier condition) throws DemoFailure {
        try {
            Readiness.await(scheduler, what, ROLES_READY_TIMEOUT, condition);
        } catch (IllegalStateException e) {
            throw new DemoFailure(e.getMessage(), e);
        }
    }
}
