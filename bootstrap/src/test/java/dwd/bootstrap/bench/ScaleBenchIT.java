package dwd.bootstrap.bench;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.prober.PrometheusText;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The scale benchmark ({@code make bench-scale N=…}; a benchmark, not a test: nothing is asserted).
 * Seeds N shoots into a real local seed (etcd + kube-apiserver), gives them shoot API servers (real
 * or simulated, see {@link BenchSettings}), runs {@code ./dwd prober} as its own process with
 * Gardener's config and flags, measures it over a window, then lets the leases of a tenth of the
 * shoots expire at once and measures how fast each is scaled down. Writes {@code result.md} (the
 * table) next to the prober's log and recordings in {@code bootstrap/target/bench-scale/…}.
 */
@EnabledIfSystemProperty(named = "dwd.bench.scale.shoots", matches = "\\d+")
class ScaleBenchIT {

    /** Gardener's prober flags (its ManagedResource for the seed). */
    static final List<String> GARDENER_FLAGS = List.of("--kube-api-qps=20.0", "--kube-api-burst=100",
            "--zap-log-level=INFO", "--enable-leader-election=true");
    /** The config's kcmNodeMonitorGraceDuration (the seeded shoots set none) and the lease expiry factor. */
    static final Duration LEASE_EXPIRY = Duration.ofSeconds(30); // 0.75 × 40 s
    static final double THRESHOLD = 0.6;
    private static final Duration SAMPLE_EVERY = Duration.ofSeconds(5);
    private static final Duration SCRAPE_EVERY = Duration.ofSeconds(30);
    /** The seed's kube-apiserver among the processes whose CPU the report shows. */
    static final String SEED_API_SERVER = "seed kube-apiserver";
    /** How long the seed's idle CPU is read before its pace is measured. */
    private static final Duration SEED_IDLE = Duration.ofSeconds(5);

    private final List<Long> dwdRss = new ArrayList<>();
    private long maxThreads;
    private CpuGauge gauge;
    private Instant windowStartedAt;
    private Instant windowEndedAt;

    @Test
    void oneProberReplicaAgainstManyShoots() throws Exception {
        var settings = BenchSettings.fromSystemProperties(DwdProcess.REPOSITORY.resolve("bootstrap/target"));
        int n = settings.shoots();
        long needed = (2L << 30) + n * 300_000L;
        if (ProcFs.memAvailable() < needed) {
            throw new IllegalStateException("the benchmark with " + n + " shoots needs about " + (needed >> 20)
                    + " MiB of free memory; only " + (ProcFs.memAvailable() >> 20) + " MiB are available");
        }
        String started = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        Path out = Files.createDirectories(settings.out().resolve(n + "-" + started));
        var report = new BenchReport(settings, Instant.now(), ProcFs.loadAverage());
        Thread killChildren = new Thread(() -> ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly));
        Runtime.getRuntime().addShutdownHook(killChildren);
        List<Long> beforeSeed = ProcFs.descendants();
        try (var seed = LocalControlPlane.start(List.of());
             var shootApis = startShootApis(settings)) {
            Map<String, List<Long>> others = seedProcesses(beforeSeed, shootApis.pids());
            if (!shootApis.pids().isEmpty()) {
                others.put("shoot kube-apiservers + etcds", shootApis.pids());
            }
            others.put(settings.realShootApis() ? "benchmark JVM (kubelets, scrapes)"
                    : "benchmark JVM (simulator, scrapes)", List.of(ProcessHandle.current().pid()));
            report.shootApis(shootApis.describe());
            seed(settings, seed, shootApis, others, report);
            if (settings.seedNice() != 0) {
                ProcFs.renice(settings.seedNice(), others.getOrDefault(SEED_API_SERVER, List.of()));
                ProcFs.renice(settings.seedNice(), others.getOrDefault("seed etcd", List.of()));
            }
            try (var pace = CpuGauge.start()) {
                gauge = pace;
                runProber(settings, seed, shootApis, others, out, report);
            }
        } finally {
            Runtime.getRuntime().removeShutdownHook(killChildren);
        }
        String table = report.render();
        Files.writeString(out.resolve("result.md"), table);
        Files.writeString(settings.out().resolve("result-" + n + ".md"), table);
        System.out.println("\n" + table + "\n(also in " + out.resolve("result.md") + ")");
    }

    private static ShootApis startShootApis(BenchSettings settings) throws Exception {
        return settings.realShootApis() ? RealShootApis.start(settings.nodes(), settings::melts)
                : new ShootApiSimulator(settings.shoots(), settings.nodes(), settings.latency());
    }

    /** The seed's kube-apiserver and etcd, by what they run (the real shoot API servers' excluded). */
    static Map<String, List<Long>> seedProcesses(List<Long> before, List<Long> shootApiProcesses) {
        var processes = new LinkedHashMap<String, List<Long>>();
        for (long pid : ProcFs.descendants()) {
            if (before.contains(pid) || shootApiProcesses.contains(pid)) {
                continue;
            }
            String command = ProcessHandle.of(pid).flatMap(p -> p.info().command()).orElse("");
            if (command.endsWith("kube-apiserver.real") || command.endsWith("kube-apiserver")) {
                processes.put(SEED_API_SERVER, List.of(pid));
            } else if (command.endsWith("etcd.real") || command.endsWith("etcd")) {
                processes.put("seed etcd", List.of(pid));
            }
        }
        return processes;
    }

    private static void seed(BenchSettings settings, LocalControlPlane seed, ShootApis shootApis,
            Map<String, List<Long>> others, BenchReport report) throws Exception {
        ApiClient client = seed.newApiClient(Duration.ofSeconds(60));
        var loader = new SeedLoader(client.getHttpClient(), client.getBasePath(), settings.seedConcurrency());
        loader.createNamespace("garden");
        Map<String, Double> cpuBefore = cpu(others);
        long start = System.nanoTime();
        loader.load(settings.shoots(), shootApis::kubeconfig, shootApis::nodes);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        report.seeding(settings.shoots() * (6L + settings.nodes()), loader.requests(), loader.retries(), took,
                minus(cpu(others), cpuBefore), rss(others.get(SEED_API_SERVER)), rss(others.get("seed etcd")));
        measureSeedPace(settings, loader, others, report);
    }

    /**
     * What a write like a scale-down's costs the seed with nothing else at work: its idle rate first, then the
     * melting shoots' Deployments written twice. The meltdown's writes are set against it.
     */
    private static void measureSeedPace(BenchSettings settings, SeedLoader loader, Map<String, List<Long>> others,
            BenchReport report) throws Exception {
        List<Integer> melting = IntStream.range(0, settings.shoots()).filter(settings::melts).boxed().toList();
        if (melting.isEmpty()) {
            return;
        }
        Map<String, Double> idleFrom = cpu(others);
        long idleStart = System.nanoTime();
        pause(SEED_IDLE);
        Duration idle = Duration.ofNanos(System.nanoTime() - idleStart);
        Map<String, Double> idleCpu = minus(cpu(others), idleFrom);
        Map<String, Double> writesFrom = cpu(others);
        long writesStart = System.nanoTime();
        int writes = loader.writeDependentsTwice(melting);
        report.seedPace(writes, Duration.ofNanos(System.nanoTime() - writesStart), minus(cpu(others), writesFrom),
                idleCpu, idle);
    }

    private void runProber(BenchSettings settings, LocalControlPlane seed, ShootApis shootApis,
            Map<String, List<Long>> others, Path out, BenchReport report) throws Exception {
        Path config = Files.copy(DwdProcess.REPOSITORY.resolve("deploy/examples/prober-config.yaml"),
                out.resolve("prober-config.yaml"));
        Path kubeconfig = Files.writeString(out.resolve("seed-kubeconfig.yaml"), seed.kubeconfig());
        Map<String, String> environment = settings.dwdJvmOptions().isEmpty() ? Map.of()
                : Map.of("JAVA_TOOL_OPTIONS", settings.dwdJvmOptions());
        long launchedNanos = System.nanoTime();
        try (var prober = DwdProcess.launch("prober", out, "prober", config, kubeconfig, GARDENER_FLAGS, environment)) {
            long pid = prober.process.pid();
            var log = new LogTail(prober.log);

            // Start-up: until every shoot has had a probe (its per-shoot gauge appears with the first verdict).
            Duration startupLimit = Duration.ofMinutes(10);
            int probed = 0;
            while (probed < settings.shoots()) {
                if (!prober.process.isAlive()) {
                    throw new IllegalStateException("the prober exited with " + prober.process.exitValue()
                            + " during start-up; see " + prober.log);
                }
                if (Duration.ofNanos(System.nanoTime() - launchedNanos).compareTo(startupLimit) > 0) {
                    throw new IllegalStateException("after " + startupLimit + " only " + probed + " of "
                            + settings.shoots() + " shoots had their first probe; see " + prober.log);
                }
                sample(pid);
                pause(Duration.ofSeconds(2));
                PrometheusText metrics = scrape(prober);
                probed = metrics.find("dwd_shoot_lease_candidates", Map.of()).size();
                double failed = metrics.sum("dwd_probe_results_total", Map.of("outcome", "failed_api_server"))
                        + metrics.sum("dwd_probe_results_total", Map.of("outcome", "failed_leases"));
                if (failed > 2L * settings.shoots()) {
                    throw new IllegalStateException(failed + " probe runs failed during start-up; see " + prober.log);
                }
            }
            Duration allProbed = Duration.ofNanos(System.nanoTime() - launchedNanos);
            report.startup(allProbed, ProcFs.cpuSeconds(pid));

            pause(settings.warmUp());
            Path recording = out.resolve(settings.profile() ? "profile.jfr" : "handshakes.jfr");
            Jfr.start(pid, recording, settings.profile());
            windowStartedAt = Instant.now();
            Snapshot before = Snapshot.take(pid, prober, others, shootApis);
            dwdRss.clear();
            maxThreads = 0;
            double latenessMax = 0;
            long windowEnd = System.nanoTime() + settings.window().toNanos();
            long nextScrape = System.nanoTime() + SCRAPE_EVERY.toNanos();
            while (System.nanoTime() < windowEnd) {
                sample(pid);
                if (System.nanoTime() >= nextScrape) {
                    latenessMax = Math.max(latenessMax, PrometheusText.parse(prober.metrics())
                            .sum("dwd_probe_lateness_seconds_max", Map.of()));
                    nextScrape += SCRAPE_EVERY.toNanos();
                }
                pause(Duration.ofNanos(Math.min(SAMPLE_EVERY.toNanos(), Math.max(0, windowEnd - System.nanoTime()))));
            }
            Snapshot after = Snapshot.take(pid, prober, others, shootApis);
            windowEndedAt = Instant.now();
            latenessMax = Math.max(latenessMax, after.metrics().sum("dwd_probe_lateness_seconds_max", Map.of()));
            Jfr.stop(pid);
            long heapAfterGc = Jfr.heapAfterFullGc(pid);
            Files.writeString(out.resolve("class-histogram.txt"), Jfr.classHistogram(pid, 40));
            report.window(before, after, latenessMax, dwdRss, maxThreads, heapAfterGc, Jfr.read(recording, 15),
                    settings.profile());

            warmUpMeltdown(settings, shootApis, log, report);
            meltdown(settings, prober, pid, others, shootApis, log, before, after, report,
                    seedMetrics(seed, others.getOrDefault("seed etcd", List.of())), out);

            long stopping = System.nanoTime();
            int exit = prober.terminate();
            report.shutdown(exit, Duration.ofNanos(System.nanoTime() - stopping));
            report.falseScaleDowns(falseScaleDowns(log, settings));
        }
    }

    /**
     * The warm-up meltdown: the leases of the {@link BenchSettings#meltsInWarmUp} shoots expire and stay expired.
     * Waits until each one's scale-down flow has finished, so that the measured meltdown meets a prober that has
     * run its scale-down path before; these shoots stay scaled down through it.
     */
    private static void warmUpMeltdown(BenchSettings settings, ShootApis shootApis, LogTail log, BenchReport report)
            throws Exception {
        List<Integer> shoots = IntStream.range(0, settings.shoots()).filter(settings::meltsInWarmUp).boxed().toList();
        if (shoots.isEmpty()) {
            return;
        }
        Instant expiredAt = Instant.now();
        Map<String, Instant> crossings = crossings(shootApis.expire(shoots, expiredAt));
        Instant deadline = crossings.values().stream().max(Instant::compareTo).orElseThrow().plus(Duration.ofMinutes(3));
        var writes = new ScaleDowns();
        while (writes.finishedFlows() < shoots.size() && Instant.now().isBefore(deadline)) {
            pause(Duration.ofSeconds(1));
            log.newLines().forEach(writes::add);
        }
        report.warmUpMeltdown(shoots.size(), expiredAt, crossings, writes, Duration.between(expiredAt, Instant.now()));
    }

    /** Per melting shoot's namespace, when its leases cross the threshold. */
    private static Map<String, Instant> crossings(Map<Integer, List<Instant>> renewTimes) {
        Map<String, Instant> crossings = new HashMap<>();
        renewTimes.forEach((shoot, times) -> crossings.put(SeedLoader.namespace(shoot), crossing(times)));
        return crossings;
    }

    private void meltdown(BenchSettings settings, DwdProcess prober, long pid, Map<String, List<Long>> others,
            ShootApis shootApis, LogTail log, Snapshot windowStart, Snapshot windowEnd, BenchReport report,
            SeedMetrics seedMetrics, Path out) throws Exception {
        List<Integer> melting = IntStream.range(0, settings.shoots()).filter(settings::melts).boxed().toList();
        if (melting.isEmpty()) {
            return;
        }
        Snapshot before = Snapshot.take(pid, prober, others, shootApis);
        PrometheusText seedBefore = seedMetrics.scrape();
        Instant expiredAt = Instant.now();
        Map<String, Instant> crossings = crossings(shootApis.expire(melting, expiredAt));
        Instant firstCrossing = crossings.values().stream().min(Instant::compareTo).orElseThrow();
        Instant lastCrossing = crossings.values().stream().max(Instant::compareTo).orElseThrow();
        Thread seedProfile = settings.seedProfile() ? profileSeed(seedMetrics, firstCrossing, lastCrossing, out) : null;

        var writes = new ScaleDowns();
        var seconds = new ArrayList<BenchReport.BurstSecond>();
        ProcFs.MachineCpu machine = ProcFs.machineCpu();
        double dwdCpu = ProcFs.cpuSeconds(pid);
        Instant deadline = lastCrossing.plus(Duration.ofMinutes(3));
        Map<Long, ProcFs.ThreadCpu> threadsAtFirstCrossing = null;
        long firstCrossingNanos = 0;
        while (writes.shoots() < melting.size() && Instant.now().isBefore(deadline)) {
            if (threadsAtFirstCrossing == null && !Instant.now().isBefore(firstCrossing)) {
                threadsAtFirstCrossing = ProcFs.cpuByThread(pid);
                firstCrossingNanos = System.nanoTime();
            }
            sample(pid);
            pause(Duration.ofSeconds(1));
            log.newLines().forEach(writes::add);
            ProcFs.MachineCpu machineNow = ProcFs.machineCpu();
            double dwdNow = ProcFs.cpuSeconds(pid);
            ProcFs.MachineCpu second = machineNow.minus(machine);
            seconds.add(new BenchReport.BurstSecond(Instant.now(), second.busy() / second.total() * ProcFs.cores(),
                    second.steal() / second.total() * ProcFs.cores(),
                    (dwdNow - dwdCpu) / second.total() * ProcFs.cores()));
            machine = machineNow;
            dwdCpu = dwdNow;
        }
        Map<String, Double> threadsInCrossings = Map.of();
        Duration crossingsToLastFirstWrite = Duration.ZERO;
        if (threadsAtFirstCrossing != null) {
            threadsInCrossings = ProcFs.cpuByGroupBetween(threadsAtFirstCrossing, ProcFs.cpuByThread(pid));
            crossingsToLastFirstWrite = Duration.ofNanos(System.nanoTime() - firstCrossingNanos);
        }
        // Then until every melted shoot's flow has finished (all three dependents), for the burst's request count.
        while (Instant.now().isBefore(deadline) && writes.finishedFlows() < melting.size()) {
            pause(Duration.ofSeconds(1));
            log.newLines().forEach(writes::add);
        }
        Snapshot after = Snapshot.take(pid, prober, others, shootApis);
        report.meltdown(melting.size(), expiredAt, crossings, writes, before, after, windowStart, windowEnd);
        if (!threadsInCrossings.isEmpty()) {
            report.dwdThreadsInCrossings(threadsInCrossings, crossingsToLastFirstWrite);
        }
        report.burstBySecond(seconds, crossings, writes);
        Instant lastFirstWrite = crossings.keySet().stream().map(writes::first).flatMap(java.util.Optional::stream)
                .max(Instant::compareTo).orElse(lastCrossing);
        report.machinePace(gauge.between(windowStartedAt, windowEndedAt),
                gauge.between(firstCrossing, lastFirstWrite.plusSeconds(1)));
        report.seedInBurst(seedBefore, seedMetrics.scrape());
        if (seedProfile != null) {
            seedProfile.join();
        }
    }

    /**
     * Records the seed kube-apiserver's CPU profile from a second before the first crossing to a
     * second after the last, into {@code seed-burst.pprof} ({@code go tool pprof -top} reads it).
     */
    private static Thread profileSeed(SeedMetrics seedMetrics, Instant firstCrossing, Instant lastCrossing, Path out) {
        Instant first = firstCrossing.minusSeconds(1);
        Instant last = lastCrossing.plusSeconds(1);
        int seconds = (int) Math.max(1, Duration.between(first, last).toSeconds() + 1);
        return Thread.ofVirtual().name("seed-profile").start(() -> {
            try {
                Duration untilFirst = Duration.between(Instant.now(), first);
                if (untilFirst.isPositive()) {
                    pause(untilFirst);
                }
                Files.write(out.resolve("seed-burst.pprof"), seedMetrics.cpuProfile(seconds));
            } catch (IOException e) {
                System.err.println("the seed's CPU profile failed: " + e);
            }
        });
    }

    /** The instant the expired fraction of these leases reaches the threshold (none is renewed again). */
    static Instant crossing(List<Instant> renewTimes) {
        List<Instant> expiries = renewTimes.stream().map(renewed -> renewed.plus(LEASE_EXPIRY)).sorted().toList();
        for (int expired = 1; expired <= expiries.size(); expired++) {
            if ((double) expired / expiries.size() >= THRESHOLD) {
                return expiries.get(expired - 1);
            }
        }
        throw new IllegalArgumentException("no leases");
    }

    /** Shoots scaled down that were not meant to melt down, in the warm-up or after it (from the whole log). */
    private static long falseScaleDowns(LogTail log, BenchSettings settings) throws IOException {
        return log.all().stream().map(ScaleDowns::parse).flatMap(java.util.Optional::stream)
                .map(ScaleDowns.Write::namespace).distinct()
                .map(ns -> Integer.parseInt(ns.substring(ns.lastIndexOf('s') + 1)))
                .filter(shoot -> !settings.melts(shoot) && !settings.meltsInWarmUp(shoot))
                .count();
    }

    /** The seed kube-apiserver's own metrics and CPU profile, read as its administrator. */
    interface SeedMetrics {
        PrometheusText scrape() throws IOException;

        /** The kube-apiserver's CPU profile over the next {@code seconds} (Go's pprof format). */
        byte[] cpuProfile(int seconds) throws IOException;
    }

    static SeedMetrics seedMetrics(LocalControlPlane seed, List<Long> etcd) {
        ApiClient client = seed.newApiClient(Duration.ofSeconds(30));
        String etcdMetrics = etcd.stream().map(ScaleBenchIT::etcdClientUrl).flatMap(java.util.Optional::stream)
                .findFirst().map(url -> url + "/metrics").orElse(null);
        return new SeedMetrics() {
            @Override
            public PrometheusText scrape() throws IOException {
                var samples = new ArrayList<>(get(client.getHttpClient(), client.getBasePath() + "/metrics").samples());
                if (etcdMetrics != null) {
                    samples.addAll(get(new okhttp3.OkHttpClient(), etcdMetrics).samples());
                }
                return new PrometheusText(samples);
            }

            @Override
            public byte[] cpuProfile(int seconds) throws IOException {
                var http = client.getHttpClient().newBuilder().readTimeout(Duration.ofSeconds(seconds + 30))
                        .callTimeout(Duration.ZERO).build();
                String url = client.getBasePath() + "/debug/pprof/profile?seconds=" + seconds;
                try (var response = http.newCall(new okhttp3.Request.Builder().url(url).build()).execute()) {
                    if (!response.isSuccessful()) {
                        throw new IOException(url + " answered " + response.code());
                    }
                    return response.body().bytes();
                }
            }
        };
    }

    private static PrometheusText get(okhttp3.OkHttpClient http, String url) throws IOException {
        try (var response = http.newCall(new okhttp3.Request.Builder().url(url).build()).execute()) {
            if (!response.isSuccessful()) {
                throw new IOException(url + " answered " + response.code());
            }
            return PrometheusText.parse(response.body().string());
        }
    }

    /** The plain-HTTP client URL the seed's etcd listens on, from its command line. */
    private static java.util.Optional<String> etcdClientUrl(long pid) {
        List<String> arguments = ProcessHandle.of(pid).flatMap(p -> p.info().arguments()).map(List::of).orElse(List.of());
        int flag = arguments.indexOf("--listen-client-urls");
        return flag < 0 || flag + 1 >= arguments.size() ? java.util.Optional.empty()
                : java.util.Optional.of(arguments.get(flag + 1).split(",")[0]);
    }

    /** The prober's metrics; none while it does not serve them yet. */
    private static PrometheusText scrape(DwdProcess prober) {
        try {
            return PrometheusText.parse(prober.metrics());
        } catch (IOException notYet) {
            return new PrometheusText(List.of());
        }
    }

    private void sample(long pid) {
        long rss = ProcFs.rssBytes(pid);
        if (rss > 0) {
            dwdRss.add(rss);
        }
        maxThreads = Math.max(maxThreads, ProcFs.threads(pid));
    }

    static Map<String, Double> cpu(Map<String, List<Long>> processes) {
        var cpu = new LinkedHashMap<String, Double>();
        processes.forEach((role, pids) -> cpu.put(role, pids.stream().mapToDouble(ProcFs::cpuSeconds).sum()));
        return cpu;
    }

    private static long rss(List<Long> pids) {
        return pids == null ? -1 : pids.stream().mapToLong(ProcFs::rssBytes).sum();
    }

    static Map<String, Double> minus(Map<String, Double> later, Map<String, Double> earlier) {
        var delta = new LinkedHashMap<String, Double>();
        later.forEach((key, value) -> delta.put(key, value - earlier.getOrDefault(key, 0.0)));
        return delta;
    }

    /** The benchmark measures over fixed windows: this is the passing of one, not a wait for a condition. */
    static void pause(Duration duration) {
        LockSupport.parkNanos(duration.toNanos());
    }

    /** What the benchmark reads at one instant. */
    record Snapshot(long nanos, double dwdCpu, Map<Long, ProcFs.ThreadCpu> dwdThreads, Map<String, Double> othersCpu,
                    ProcFs.MachineCpu machine, PrometheusText metrics, long shootHandshakes, String load) {

        static Snapshot take(long pid, DwdProcess prober, Map<String, List<Long>> others, ShootApis shootApis)
                throws IOException {
            PrometheusText metrics = PrometheusText.parse(prober.metrics());
            return new Snapshot(System.nanoTime(), ProcFs.cpuSeconds(pid), ProcFs.cpuByThread(pid), cpu(others),
                    ProcFs.machineCpu(), metrics, shootApis.handshakes(), ProcFs.loadAverage());
        }

        double seconds(Snapshot earlier) {
            return (nanos - earlier.nanos) / 1e9;
        }
    }
}
