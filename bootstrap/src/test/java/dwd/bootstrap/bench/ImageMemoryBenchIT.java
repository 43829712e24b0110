package dwd.bootstrap.bench;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.bootstrap.ContainerImage;
import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.prober.PrometheusText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The prober in the image under a container memory limit ({@code make bench-image-memory N=…}; a benchmark,
 * nothing is asserted): Gardener's limit (512Mi), Gardener's flags, the image's own JVM settings (no JVM flag
 * added), against the scale benchmark's seed of N shoots ({@link SeedLoader}) and its simulated shoot API
 * servers ({@link ShootApiSimulator}). After every shoot's first probe and a minute of warm-up it watches the
 * container for the window: its cgroup's memory (what the OOM killer compares with the limit) and OOM kills,
 * the JVM's heap and collections, and the probes' lateness. Writes {@code result-N.md} under
 * {@code bootstrap/target/bench-image-memory/}: N fits the limit when nothing was OOM-killed and the probes'
 * lateness stayed at p99 ≤ 1 s. {@code -Ddwd.bench.imageMemory.jvmOptions=…} adds JVM options for a
 * diagnosis (for instance {@code -XX:NativeMemoryTracking=summary -XX:+UnlockDiagnosticVMOptions
 * -XX:+PrintNMTStatistics}: the JVM's own accounting, printed to the log when the container stops).
 *
 * <p>The container runs on the host's network (the simulator and the seed listen on loopback) with
 * {@code --kubeconfig} and the metrics on free loopback ports: the memory, not the swap-in, is measured here
 * ({@code GardenerSwapInIT} runs the image exactly as gardenlet does).
 */
@EnabledIfSystemProperty(named = "dwd.bench.imageMemory.shoots", matches = "\\d+")
class ImageMemoryBenchIT {

    private static final String PREFIX = "dwd.bench.imageMemory.";
    private static final Duration SAMPLE_EVERY = Duration.ofSeconds(5);
    private static final Duration SCRAPE_EVERY = Duration.ofSeconds(30);
    private static final int NODES = 3;

    @Test
    void theProberInTheImageUnderAMemoryLimit() throws Exception {
        int shoots = Integer.getInteger(PREFIX + "shoots");
        Duration window = Duration.ofSeconds(Math.round(Double.parseDouble(System.getProperty(PREFIX + "minutes", "10")) * 60));
        Duration warmUp = Duration.ofSeconds(Integer.getInteger(PREFIX + "warmUpSeconds", 60));
        String memory = System.getProperty(PREFIX + "memory", "512m");
        String jvmOptions = System.getProperty(PREFIX + "jvmOptions", "").strip();
        String started = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        Path out = Files.createDirectories(DwdProcess.REPOSITORY.resolve("bootstrap/target/bench-image-memory")
                .resolve(shoots + "-" + started));
        var result = new StringBuilder();
        result.append("| | |\n|---|---|\n");
        row(result, "Date (UTC), load at start", Instant.now().toString().substring(0, 16).replace('T', ' ') + ", "
                + ProcFs.loadAverage());
        row(result, "Shoots, nodes each, shoot API", shoots + ", " + NODES + ", simulated (`ShootApiSimulator`)");
        row(result, "Container", "`--memory=" + memory + "`, the image's entrypoint and JVM settings, Gardener's prober"
                + " flags and config (probe every 30 s)");

        ContainerImage image = ContainerImage.get();
        try (var seed = LocalControlPlane.start(List.of());
             var shootApis = new ShootApiSimulator(shoots, NODES, Duration.ZERO)) {
            var client = seed.newApiClient(Duration.ofSeconds(60));
            var loader = new SeedLoader(client.getHttpClient(), client.getBasePath(), 32);
            loader.createNamespace("garden");
            long seeding = System.nanoTime();
            loader.load(shoots, shootApis::kubeconfig, shootApis::nodes);
            row(result, "Seeding", String.format(Locale.ROOT, "%.0f s", (System.nanoTime() - seeding) / 1e9));

            Path config = readable(Files.copy(DwdProcess.REPOSITORY.resolve("deploy/examples/prober-config.yaml"),
                    out.resolve("dep-config.yaml")));
            Path kubeconfig = readable(Files.writeString(out.resolve("seed.kubeconfig"), seed.selfContainedKubeconfig()));
            int metricsPort = DwdProcess.freePort();
            int healthPort = DwdProcess.freePort();
            String name = "dwd-bench-memory-" + ProcessHandle.current().pid();
            var flags = new java.util.ArrayList<>(List.of("--network=host", "--memory=" + memory, "--memory-swap=" + memory,
                    "-v", config + ":/etc/dependency-watchdog/config/dep-config.yaml:ro",
                    "-v", kubeconfig + ":/etc/dwd/kubeconfig:ro"));
            if (!jvmOptions.isEmpty()) { // for a diagnosis only: the measured setting adds none
                flags.addAll(List.of("-e", "JDK_JAVA_OPTIONS=" + jvmOptions));
                row(result, "JVM options added (JDK_JAVA_OPTIONS)", "`" + jvmOptions + "`");
            }
            var args = List.of("prober", "--config-file=/etc/dependency-watchdog/config/dep-config.yaml",
                    "--kube-api-qps=20.0", "--kube-api-burst=100", "--zap-log-level=INFO", "--enable-leader-election=true",
                    "--kubeconfig=/etc/dwd/kubeconfig", "--metrics-bind-addr=127.0.0.1:" + metricsPort,
                    "--health-bind-addr=127.0.0.1:" + healthPort);
            long launched = System.nanoTime();
            try (var prober = image.startWith(out, name, flags, args, metricsPort)) {
                var cgroup = ContainerMemory.of(containerPid(name));
                var watch = new Watch(cgroup);
                int probed = 0;
                while (probed < shoots) {
                    ensureRunning(prober, watch, "start-up");
                    if (System.nanoTime() - launched > Duration.ofMinutes(10).toNanos()) {
                        throw new IllegalStateException("after 10 minutes only " + probed + " of " + shoots
                                + " shoots had their first probe; see " + prober.log);
                    }
                    watch.sample();
                    pause(Duration.ofSeconds(2));
                    probed = scrape(prober).find("dwd_shoot_lease_candidates", Map.of()).size();
                }
                row(result, "All shoots' first probe", String.format(Locale.ROOT, "%.1f s after the container's start",
                        (System.nanoTime() - launched) / 1e9));
                watchFor(warmUp, prober, watch, "warm-up");
                PrometheusText before = scrape(prober);
                watch.restart();
                long windowStart = System.nanoTime();
                double latenessMax = 0;
                long lastScrape = System.nanoTime();
                while (System.nanoTime() - windowStart < window.toNanos()) {
                    ensureRunning(prober, watch, "the window");
                    watch.sample();
                    if (System.nanoTime() - lastScrape > SCRAPE_EVERY.toNanos()) {
                        PrometheusText now = scrape(prober);
                        latenessMax = Math.max(latenessMax, now.sum("dwd_probe_lateness_seconds_max", Map.of()));
                        watch.heap(now);
                        lastScrape = System.nanoTime();
                    }
                    pause(SAMPLE_EVERY);
                }
                PrometheusText after = scrape(prober);
                latenessMax = Math.max(latenessMax, after.sum("dwd_probe_lateness_seconds_max", Map.of()));
                watch.heap(after);
                report(result, window, cgroup, watch, before, after, latenessMax, shoots);
                row(result, "Exit on SIGTERM", prober.terminate() + " (log: `" + DwdProcess.REPOSITORY.relativize(prober.log) + "`)");
            }
        }
        String table = "#### The prober in the image under `--memory=" + memory + "`, N = " + shoots + "\n\n" + result;
        Files.writeString(out.resolve("result.md"), table);
        Files.writeString(out.getParent().resolve("result-" + shoots + ".md"), table);
        System.out.println("\n" + table + "\n(also in " + out.resolve("result.md") + ")");
    }

    /** What the window showed, and whether N fits: no OOM kill and probe lateness p99 ≤ 1 s. */
    private static void report(StringBuilder result, Duration window, ContainerMemory cgroup, Watch watch,
            PrometheusText before, PrometheusText after, double latenessMax, int shoots) throws IOException {
        double p99 = Lateness.bound(after, before, 0.99);
        long oomKills = cgroup.oomKills();
        double runs = after.sum("dwd_probe_lateness_seconds_count", Map.of())
                - before.sum("dwd_probe_lateness_seconds_count", Map.of());
        row(result, "Window", window.toMinutes() + " min after every shoot's first probe and the warm-up");
        row(result, "Memory limit (cgroup)", mib(cgroup.limit()));
        row(result, "Container memory (cgroup usage): max sampled / peak", mib(watch.usageMax) + " / "
                + cgroup.peak().map(ImageMemoryBenchIT::mib).orElse("n/a"));
        row(result, "Container anonymous memory (not reclaimable: heap, native, stacks) max sampled", mib(watch.anonymousMax));
        row(result, "JVM heap: max (its bound) / used max at the scrapes / committed max",
                mib(watch.heapMaxBytes) + " / " + mib(watch.heapUsedMax) + " / " + mib(watch.heapCommittedMax));
        row(result, "JVM non-heap used (metaspace, code cache, …) max", mib(watch.nonHeapUsedMax));
        row(result, "GC in the window (Serial/G1, as the JVM chose): collections, total pause", String.format(Locale.ROOT,
                "%.0f, %.2f s", delta(after, before, "jvm_gc_pause_seconds_count"), delta(after, before, "jvm_gc_pause_seconds_sum")));
        row(result, "Probe runs in the window, failed", String.format(Locale.ROOT, "%.0f, %.0f", runs,
                delta(after, before, "dwd_probe_results_total", "outcome", "failed_api_server")
                        + delta(after, before, "dwd_probe_results_total", "outcome", "failed_leases")));
        row(result, "Probe lateness p50 / p99 / max", Lateness.quantile(after, before, 0.5) + " / "
                + Lateness.quantile(after, before, 0.99) + " / " + String.format(Locale.ROOT, "%.3f s", latenessMax));
        row(result, "OOM kills", Long.toString(oomKills));
        boolean fits = oomKills == 0 && p99 <= 1;
        row(result, "**Fits**", "**" + (fits ? "yes" : "no") + "** (" + shoots + " shoots: no OOM kill and p99 ≤ 1 s)");
    }

    /** The memory the run watches: cgroup usage every sample, the JVM's heap at every scrape. */
    private static final class Watch {
        private final ContainerMemory cgroup;
        long usageMax;
        long anonymousMax;
        long heapUsedMax;
        long heapCommittedMax;
        long heapMaxBytes;
        long nonHeapUsedMax;
        long oomKills;

        Watch(ContainerMemory cgroup) {
            this.cgroup = cgroup;
        }

        void sample() throws IOException {
            usageMax = Math.max(usageMax, cgroup.usage());
            anonymousMax = Math.max(anonymousMax, cgroup.anonymous());
            oomKills = cgroup.oomKills();
        }

        void restart() {
            usageMax = 0;
            anonymousMax = 0;
            heapUsedMax = 0;
            heapCommittedMax = 0;
            nonHeapUsedMax = 0;
        }

        void heap(PrometheusText metrics) {
            heapUsedMax = Math.max(heapUsedMax, (long) metrics.sum("jvm_memory_used_bytes", Map.of("area", "heap")));
            heapCommittedMax = Math.max(heapCommittedMax, (long) metrics.sum("jvm_memory_committed_bytes", Map.of("area", "heap")));
            heapMaxBytes = (long) metrics.sum("jvm_memory_max_bytes", Map.of("area", "heap"));
            nonHeapUsedMax = Math.max(nonHeapUsedMax, (long) metrics.sum("jvm_memory_used_bytes", Map.of("area", "nonheap")));
        }
    }

    private static void watchFor(Duration duration, DwdProcess prober, Watch watch, String phase) throws IOException {
        long end = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < end) {
            ensureRunning(prober, watch, phase);
            watch.sample();
            pause(SAMPLE_EVERY);
        }
    }

    /** Stops the run, with what the container said last, when the prober is gone (an OOM kill: exit 137). */
    private static void ensureRunning(DwdProcess prober, Watch watch, String phase) throws IOException {
        if (!prober.process.isAlive()) {
            throw new IllegalStateException("the prober's container ended during " + phase + " with exit "
                    + prober.process.exitValue() + " (137: killed; OOM kills counted so far: " + watch.oomKills
                    + "); its log: " + prober.log);
        }
    }

    private static long containerPid(String name) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            var inspect = ContainerImage.podmanCommand("inspect", "--format", "{{.State.Pid}}", name);
            String pid = inspect.output().strip();
            if (inspect.exitCode() == 0 && pid.matches("[1-9]\\d*")) {
                return Long.parseLong(pid);
            }
            pause(Duration.ofMillis(200));
        }
        throw new IllegalStateException("container " + name + " did not start within 2 minutes");
    }

    private static PrometheusText scrape(DwdProcess prober) {
        try {
            return PrometheusText.parse(prober.metrics());
        } catch (IOException notUpYet) {
            return PrometheusText.parse("");
        }
    }

    private static double delta(PrometheusText after, PrometheusText before, String name, String... label) {
        Map<String, String> labels = label.length == 0 ? Map.of() : Map.of(label[0], label[1]);
        return after.sum(name, labels) - before.sum(name, labels);
    }

    private static Path readable(Path file) throws IOException {
        return Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private static String mib(long bytes) {
        return bytes == Long.MAX_VALUE ? "none" : String.format(Locale.ROOT, "%,.0f MiB", bytes / 1048576.0);
    }

    private static void row(StringBuilder result, String what, String value) {
        result.append("| ").append(what).append(" | ").append(value).append(" |\n");
    }

    private static void pause(Duration duration) {
        LockSupport.parkNanos(duration.toNanos());
    }
}
