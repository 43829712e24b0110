package dwd.bootstrap.bench;

import static dwd.bootstrap.bench.ScaleBenchIT.pause;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.bench.VersusTable.Figure;
import dwd.bootstrap.prober.PrometheusText;
import io.kubernetes.client.openapi.ApiClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * One implementation's prober against N simulated shoots, observed only from outside: a fresh seed (etcd +
 * kube-apiserver with an audit log of the dependents' writes), the shoot-API simulator (what each shoot saw of its
 * probes), {@code /proc} (CPU, memory, threads) and the seed's own metrics (requests). Start-up, warm-up, a window,
 * a meltdown of every tenth shoot, then their recovery; the figures go to {@link VersusTable}.
 */
final class ProberVersusRun {

    static final String REPLICAS_ANNOTATION = "dependency-watchdog.gardener.cloud/replicas";
    static final String MELTDOWN_ANNOTATION = "dependency-watchdog.gardener.cloud/meltdown-protection-active";
    private static final String KCM = "kube-controller-manager";
    private static final String MCM = "machine-controller-manager";
    private static final String CA = "cluster-autoscaler";
    private static final Duration START_LIMIT = Duration.ofMinutes(10);
    /**
     * Resources of seed requests that are not the probers' work: leases (leader election, the API server's own
     * identity lease) and the endpoints of the {@code kubernetes} Service, which the API server reconciles itself.
     */
    private static final Set<String> SEED_OWN = Set.of("leases", "endpoints", "endpointslices");

    private final Implementation implementation;
    private final VersusSettings settings;
    private final Path out;
    private final List<Figure> figures = new ArrayList<>();

    private ProberVersusRun(Implementation implementation, VersusSettings settings, Path out) {
        this.implementation = implementation;
        this.settings = settings;
        this.out = out;
    }

    /** Runs the prober of {@code implementation}; its logs and the seed's audit log go to {@code out}. */
    static List<Figure> run(Implementation implementation, VersusSettings settings, Path out) throws Exception {
        var run = new ProberVersusRun(implementation, settings, Files.createDirectories(out));
        run.run();
        return run.figures;
    }

    private void run() throws Exception {
        int n = settings.shoots();
        String load = ProcFs.loadAverage();
        System.out.printf("bench-versus: %s prober, %d shoots: load average %s at the start%n", implementation.label(),
                n, load);
        figures.add(Figure.text("Load average (1, 5, 15 min) at the run's start", load));
        Path policy = Files.writeString(out.resolve("seed-audit-policy.yaml"), AuditedScaleWrites.POLICY);
        Path auditLog = out.resolve("seed-audit.log").toAbsolutePath();
        List<Long> beforeSeed = ProcFs.descendants();
        try (var seed = LocalControlPlane.start(AuditedScaleWrites.apiServerFlags(policy.toAbsolutePath(), auditLog),
                SeedUser.users());
             var shoots = new ShootApiSimulator(n, settings.nodes(), Duration.ZERO)) {
            Map<String, List<Long>> seedProcesses = ScaleBenchIT.seedProcesses(beforeSeed, List.of());
            ApiClient client = seed.newApiClient(Duration.ofSeconds(60));
            var loader = new SeedLoader(client.getHttpClient(), client.getBasePath(), 32);
            loader.createNamespace("garden");
            long seeding = System.nanoTime();
            loader.load(n, shoots::kubeconfig, shoots::nodes);
            figures.add(Figure.text("Seeding (harness, not measured)", String.format(Locale.ROOT,
                    "%,d shoots in %.0f s", n, (System.nanoTime() - seeding) / 1e9)));
            try (var dependents = new DependentsWatch(seed.newApiClient(Duration.ZERO).getHttpClient(),
                    client.getHttpClient(), client.getBasePath())) {
                probe(seed, shoots, dependents, seedProcesses, auditLog);
            }
            if (!shoots.unknownPaths().isEmpty()) {
                System.out.println("bench-versus: " + implementation.label() + " asked the shoots for paths the simulator "
                        + "does not serve: " + new TreeMap<>(shoots.unknownPaths()));
            }
        }
    }

    private void probe(LocalControlPlane seed, ShootApiSimulator shoots, DependentsWatch dependents,
            Map<String, List<Long>> seedProcesses, Path auditLog) throws Exception {
        int n = settings.shoots();
        Path config = Files.copy(DwdProcess.REPOSITORY.resolve("deploy/examples/prober-config.yaml"),
                out.resolve("prober-config.yaml"));
        Path kubeconfig = Files.writeString(out.resolve("seed-kubeconfig.yaml"), SeedUser.kubeconfig(seed));
        ScaleBenchIT.SeedMetrics seedMetrics = ScaleBenchIT.seedMetrics(seed, List.of());
        long launched = System.nanoTime();
        Instant launchedAt = Instant.now();
        try (DwdProcess prober = implementation.launch("prober", out, implementation.label() + "-prober", config,
                kubeconfig, ScaleBenchIT.GARDENER_FLAGS, settings.proberJvm());
             var sampler = ProcessSampler.start(prober.process.pid())) {
            long pid = prober.process.pid();

            // Start-up: until every shoot's lease list was asked for once.
            while (IntStream.range(0, n).anyMatch(shoot -> shoots.leaseListArrivals(shoot).isEmpty())) {
                if (!prober.process.isAlive()) {
                    throw new IllegalStateException(implementation.label() + "'s prober exited with "
                            + prober.process.exitValue() + " during start-up; see " + prober.log);
                }
                if (System.nanoTime() - launched > START_LIMIT.toNanos()) {
                    throw new IllegalStateException("after " + START_LIMIT + " not every shoot was probed; see " + prober.log);
                }
                pause(Duration.ofMillis(200));
            }
            long lastFirst = IntStream.range(0, n).mapToLong(shoot -> shoots.leaseListArrivals(shoot).getFirst()).max()
                    .orElseThrow();
            figures.add(Figure.of("Start → every shoot probed once (s, the shoots' first lease lists)",
                    (lastFirst - launchedAt.toEpochMilli()) / 1e3, "%.1f"));

            pause(settings.warmUp());
            window(pid, shoots, seedMetrics, seedProcesses);
            Instant expiredAt = meltdown(shoots, dependents, auditLog);
            recovery(shoots, dependents, auditLog, expiredAt);

            double wholeRun = (System.nanoTime() - launched) / 1e9;
            double cpu = ProcFs.cpuSeconds(pid);
            figures.add(Figure.of("CPU over the whole run, start-up included (cores)", cpu / wholeRun, "%.3f"));
            figures.add(Figure.of("CPU-s per shoot-hour, whole run", cpu / (n * wholeRun / 3600), "%.3f"));
            figures.add(Figure.of("RSS max over the whole run (MiB)", sampler.maxRss() / 1048576.0, "%.0f"));
            figures.add(Figure.of("OS threads, max", sampler.maxThreads(), "%.0f"));
            figures.add(Figure.text("Whole run (start → recovery settled)", String.format(Locale.ROOT,
                    "%.0f s, %.1f CPU-s", wholeRun, cpu)));
            int exit = prober.terminate();
            if (exit != 0 && exit != 143) {
                System.out.println("bench-versus: " + implementation.label() + "'s prober exited with " + exit);
            }
        }
    }

    private void window(long pid, ShootApiSimulator shoots, ScaleBenchIT.SeedMetrics seedMetrics,
            Map<String, List<Long>> seedProcesses) throws Exception {
        int n = settings.shoots();
        long harness = ProcessHandle.current().pid();
        PrometheusText seedBefore = seedMetrics.scrape();
        Map<String, Double> seedCpuBefore = ScaleBenchIT.cpu(seedProcesses);
        double cpuBefore = ProcFs.cpuSeconds(pid);
        double harnessBefore = ProcFs.cpuSeconds(harness);
        long shootRequestsBefore = shoots.requests();
        long handshakesBefore = shoots.handshakes();
        Map<Long, ProcFs.ThreadCpu> threadsBefore = ProcFs.cpuByThread(pid);
        long from = System.currentTimeMillis();
        long started = System.nanoTime();
        pause(settings.window());
        double seconds = (System.nanoTime() - started) / 1e9;
        long to = System.currentTimeMillis();
        double cpu = ProcFs.cpuSeconds(pid) - cpuBefore;
        Map<String, Double> cpuByGroup = ProcFs.cpuByGroupBetween(threadsBefore, ProcFs.cpuByThread(pid));
        double harnessCpu = ProcFs.cpuSeconds(harness) - harnessBefore;
        Map<String, Double> seedCpu = ScaleBenchIT.minus(ScaleBenchIT.cpu(seedProcesses), seedCpuBefore);
        long shootRequests = shoots.requests() - shootRequestsBefore;
        long handshakes = shoots.handshakes() - handshakesBefore;
        Map<String, Double> seedRequests = seedRequests(seedMetrics.scrape(), seedBefore);

        var gaps = new ArrayList<Double>();
        long runs = 0;
        for (int shoot = 0; shoot < n; shoot++) {
            List<Long> inWindow = shoots.leaseListArrivals(shoot).stream().filter(at -> at >= from && at < to).toList();
            runs += inWindow.size();
            for (int i = 1; i < inWindow.size(); i++) {
                gaps.add((inWindow.get(i) - inWindow.get(i - 1)) / 1e3);
            }
        }
        double perRun = runs == 0 ? Double.NaN : runs;
        figures.add(Figure.of("CPU in the window (cores)", cpu / seconds, "%.3f"));
        figures.add(Figure.of("CPU-s per shoot-hour, window", cpu / (n * seconds / 3600), "%.3f"));
        figures.add(Figure.of("Probe runs per shoot per minute (window, the shoots' lease lists)",
                runs / (double) n / (seconds / 60), "%.2f"));
        figures.add(Figure.of("Gap between a shoot's probes, p50 (s; interval 30 s, jitter 0.2)", percentile(gaps, 50), "%.1f"));
        figures.add(Figure.of("Gap between a shoot's probes, p99 (s)", percentile(gaps, 99), "%.1f"));
        figures.add(Figure.of("Gap between a shoot's probes, max (s)", percentile(gaps, 100), "%.1f"));
        double seedTotal = seedRequests.values().stream().mapToDouble(Double::doubleValue).sum();
        figures.add(Figure.of("Seed requests per probe run (leader election and the seed's own aside)", seedTotal / perRun,
                "%.2f"));
        figures.add(Figure.text("  of which (per run)", describe(seedRequests, perRun)));
        figures.add(Figure.of("Shoot requests per probe run", shootRequests / perRun, "%.2f"));
        figures.add(Figure.of("TLS handshakes per probe run (the simulator's accepted connections)", handshakes / perRun,
                "%.2f"));
        figures.add(Figure.of("Seed kube-apiserver CPU in the window (cores)",
                seedCpu.getOrDefault(ScaleBenchIT.SEED_API_SERVER, Double.NaN) / seconds, "%.3f"));
        figures.add(Figure.of("Harness JVM CPU in the window (cores: simulator, its TLS)", harnessCpu / seconds, "%.3f"));
        figures.add(Figure.text("  the prober's CPU in the window by thread", Footprint.cpuByGroup(cpuByGroup)));
        figures.add(Figure.text("At the window's end: RSS (MiB)", Footprint.residentSplit(pid)));
        figures.add(Figure.text("At the window's end: threads by name", Footprint.threadsByName(pid)));
        if (implementation == Implementation.DWD) {
            figures.add(Figure.text("At the window's end: committed memory by NMT category (MiB)",
                    Footprint.nativeMemory(pid, out)));
        }
    }

    /**
     * The seed's requests between two scrapes by verb and resource; non-resource requests and {@link #SEED_OWN} aside.
     */
    private static Map<String, Double> seedRequests(PrometheusText after, PrometheusText before) {
        Map<String, Double> counts = new TreeMap<>();
        after.find("apiserver_request_total", Map.of()).forEach(s -> counts.merge(requestKind(s), s.value(), Double::sum));
        before.find("apiserver_request_total", Map.of()).forEach(s -> counts.merge(requestKind(s), -s.value(), Double::sum));
        counts.keySet().removeIf(kind -> kind.isEmpty());
        counts.values().removeIf(count -> count < 0.5);
        return counts;
    }

    private static String requestKind(PrometheusText.Sample sample) {
        String resource = sample.labels().getOrDefault("resource", "");
        if (resource.isEmpty() || SEED_OWN.contains(resource)) {
            return "";
        }
        String subresource = sample.labels().getOrDefault("subresource", "");
        return sample.labels().getOrDefault("verb", "?") + " " + resource + (subresource.isEmpty() ? "" : "/" + subresource);
    }

    private static String describe(Map<String, Double> counts, double runs) {
        if (counts.isEmpty() || Double.isNaN(runs)) {
            return counts.isEmpty() ? "none" : "no probe run in the window";
        }
        // The seed's own watches and the harness's restart now and then; below 0.005 per run they are not the prober's.
        List<String> parts = counts.entrySet().stream().filter(kindCount -> kindCount.getValue() / runs >= 0.005)
                .map(kindCount -> String.format(Locale.ROOT, "%s %.2f", kindCount.getKey(), kindCount.getValue() / runs))
                .toList();
        return parts.isEmpty() ? "none at 0.01 or more" : String.join(", ", parts);
    }

    /** The kubelets of every tenth shoot stop at once; until every dependent of theirs is at 0, or the limit. */
    private Instant meltdown(ShootApiSimulator shoots, DependentsWatch dependents, Path auditLog) throws Exception {
        List<Integer> melting = melting();
        Instant expiredAt = Instant.now();
        Map<Integer, Instant> crossings = new HashMap<>();
        shoots.expire(melting, expiredAt).forEach((shoot, renewTimes) -> crossings.put(shoot, ScaleBenchIT.crossing(renewTimes)));
        Instant lastCrossing = crossings.values().stream().max(Instant::compareTo).orElseThrow();
        Instant deadline = lastCrossing.plus(settings.meltdownLimit());
        awaitDependents(dependents, melting, replicas -> replicas == 0, deadline);
        AuditedScaleWrites writes = awaitAudit(auditLog, melting, expiredAt, w -> w.replicas() == 0);

        var firstWrite = new ArrayList<Double>();
        var everyDependent = new ArrayList<Double>();
        int allAtZero = 0;
        int inOrder = 0;
        for (int shoot : melting) {
            String ns = SeedLoader.namespace(shoot);
            Instant crossing = crossings.get(shoot);
            Predicate<AuditedScaleWrites.Write> down = w -> w.replicas() == 0;
            writes.first(ns, expiredAt, down).ifPresent(w -> firstWrite.add(seconds(crossing, w.done())));
            Optional<AuditedScaleWrites.Write> kcm = writes.first(ns, KCM, expiredAt, down);
            Optional<AuditedScaleWrites.Write> mcm = writes.first(ns, MCM, expiredAt, down);
            Optional<AuditedScaleWrites.Write> ca = writes.first(ns, CA, expiredAt, down);
            boolean atZero = SeedLoader.DEPENDENTS.stream()
                    .allMatch(name -> dependents.get(ns, name).map(d -> d.replicas() == 0).orElse(false));
            if (atZero && kcm.isPresent() && mcm.isPresent() && ca.isPresent()) {
                allAtZero++;
                everyDependent.add(seconds(crossing, latest(kcm.get(), mcm.get(), ca.get())));
                // Gardener's scale-down levels: machine-controller-manager and cluster-autoscaler, then kube-controller-manager
                if (!kcm.get().received().isBefore(latest(mcm.get(), ca.get()))) {
                    inOrder++;
                }
            }
        }
        figures.add(Figure.of("Meltdown: crossing → first write scaling a dependent to 0, p50 (s)", percentile(firstWrite, 50), "%.3f"));
        figures.add(Figure.of("Meltdown: crossing → first write scaling a dependent to 0, p99 (s)", percentile(firstWrite, 99), "%.3f"));
        figures.add(Figure.of("Meltdown: crossing → first write scaling a dependent to 0, max (s)", percentile(firstWrite, 100), "%.3f"));
        figures.add(Figure.of("Meltdown: crossing → every dependent at 0, p99 (s)", percentile(everyDependent, 99), "%.3f"));
        figures.add(Figure.text("Meltdown: shoots with every dependent at 0 / in level order",
                allAtZero + " / " + inOrder + " of " + melting.size()));
        return expiredAt;
    }

    /** The kubelets of the melted shoots start again; until every dependent is back, then the annotations left. */
    private void recovery(ShootApiSimulator shoots, DependentsWatch dependents, Path auditLog, Instant expiredAt)
            throws Exception {
        List<Integer> melting = melting();
        Instant resumedAt = Instant.now();
        Map<Integer, Instant> crossingsBack = new HashMap<>();
        shoots.resume(melting, resumedAt).forEach((shoot, renewals) -> crossingsBack.put(shoot, crossingBack(renewals)));
        Instant last = crossingsBack.values().stream().max(Instant::compareTo).orElseThrow();
        awaitDependents(dependents, melting, replicas -> replicas > 0, last.plus(settings.meltdownLimit()));
        AuditedScaleWrites writes = awaitAudit(auditLog, melting, resumedAt, w -> w.replicas() > 0);

        var firstWrite = new ArrayList<Double>();
        var nextProbe = new ArrayList<Double>();
        var probeToWrite = new ArrayList<Double>();
        var restored = new ArrayList<Double>();
        int inOrder = 0;
        Predicate<AuditedScaleWrites.Write> up = w -> w.replicas() > 0;
        for (int shoot : melting) {
            String ns = SeedLoader.namespace(shoot);
            Instant crossing = crossingsBack.get(shoot);
            // The first write waits for the next probe, whose phase the interval sets; the rest is the reaction.
            Optional<Instant> probe = shoots.leaseListArrivals(shoot).stream().map(Instant::ofEpochMilli)
                    .filter(at -> !at.isBefore(crossing)).findFirst();
            probe.ifPresent(at -> nextProbe.add(seconds(crossing, at)));
            writes.first(ns, resumedAt, up).ifPresent(w -> {
                firstWrite.add(seconds(crossing, w.done()));
                probe.ifPresent(at -> probeToWrite.add(seconds(at, w.done())));
            });
            Optional<AuditedScaleWrites.Write> kcm = writes.first(ns, KCM, resumedAt, up);
            Optional<AuditedScaleWrites.Write> mcm = writes.first(ns, MCM, resumedAt, up);
            Optional<AuditedScaleWrites.Write> ca = writes.first(ns, CA, resumedAt, up);
            if (kcm.isPresent() && mcm.isPresent() && ca.isPresent()) {
                restored.add(seconds(crossing, latest(kcm.get(), mcm.get(), ca.get())));
                // Gardener's scale-up levels: kube-controller-manager, machine-controller-manager, cluster-autoscaler
                if (!mcm.get().received().isBefore(kcm.get().done()) && !ca.get().received().isBefore(mcm.get().done())) {
                    inOrder++;
                }
            }
        }
        figures.add(Figure.of("Recovery: crossing back → first write restoring a dependent, p50 (s)", percentile(firstWrite, 50), "%.3f"));
        figures.add(Figure.of("Recovery: crossing back → first write restoring a dependent, p99 (s)", percentile(firstWrite, 99), "%.3f"));
        figures.add(Figure.of("Recovery: crossing back → first write restoring a dependent, max (s)", percentile(firstWrite, 100), "%.3f"));
        figures.add(Figure.of("  of which: crossing back → the shoot's next lease list (the next probe), p50 (s)",
                percentile(nextProbe, 50), "%.3f"));
        figures.add(Figure.of("  of which: that probe → the first write, p50 (s)", percentile(probeToWrite, 50), "%.3f"));
        figures.add(Figure.of("Recovery: crossing back → every dependent restored, p50 (s)", percentile(restored, 50), "%.3f"));
        figures.add(Figure.of("Recovery: crossing back → every dependent restored, p99 (s)", percentile(restored, 99), "%.3f"));
        figures.add(Figure.text("Recovery: shoots restored / in level order", restored.size() + " / " + inOrder + " of "
                + melting.size()));
        // What the melted shoots saw from their kubelets' stop to their restoration: lease watches and probe runs.
        long until = System.currentTimeMillis();
        long from = expiredAt.toEpochMilli();
        long watches = melting.stream().mapToLong(shoot -> shoots.leaseWatchArrivals(shoot).stream()
                .filter(at -> at >= from && at <= until).count()).sum();
        long runs = melting.stream().mapToLong(shoot -> shoots.leaseListArrivals(shoot).stream()
                .filter(at -> at >= from && at <= until).count()).sum();
        double minutes = (until - from) / 60_000.0;
        figures.add(Figure.of("Melted shoots, kubelets stopped → restored: lease watches per shoot",
                watches / (double) melting.size(), "%.2f"));
        // dwd lists a melted shoot's leases every 500 ms besides its probe runs: every list counts here.
        figures.add(Figure.of("Melted shoots, kubelets stopped → restored: lease lists per shoot per minute",
                runs / (double) melting.size() / minutes, "%.2f"));

        pause(settings.settle());
        int dependentsOfMelted = melting.size() * SeedLoader.DEPENDENTS.size();
        long withReplicas = countAnnotated(dependents, melting, REPLICAS_ANNOTATION);
        long withMeltdown = countAnnotated(dependents, melting, MELTDOWN_ANNOTATION);
        figures.add(Figure.text("Annotations left " + settings.settle().toSeconds() + " s after recovery (of "
                + dependentsOfMelted + " dependents): replicas / meltdown-protection-active", withReplicas + " / " + withMeltdown));
        figures.add(Figure.text("Writes of replicas in the audit log (meltdown and recovery)", Integer.toString(
                AuditedScaleWrites.read(auditLog).size())));
    }

    private List<Integer> melting() {
        return IntStream.range(0, settings.shoots()).filter(settings::melts).boxed().toList();
    }

    private static long countAnnotated(DependentsWatch dependents, List<Integer> shoots, String annotation) {
        return shoots.stream().flatMap(shoot -> SeedLoader.DEPENDENTS.stream()
                        .map(name -> dependents.get(SeedLoader.namespace(shoot), name)))
                .filter(d -> d.map(dependent -> dependent.annotations().containsKey(annotation)).orElse(false))
                .count();
    }

    /** Waits until every dependent of {@code shoots} shows replicas that match, or the deadline passes. */
    private static void awaitDependents(DependentsWatch dependents, List<Integer> shoots, IntPredicate replicas,
            Instant deadline) {
        while (Instant.now().isBefore(deadline) && !shoots.stream().allMatch(shoot -> SeedLoader.DEPENDENTS.stream()
                .allMatch(name -> dependents.get(SeedLoader.namespace(shoot), name)
                        .map(d -> replicas.test(d.replicas())).orElse(false)))) {
            pause(Duration.ofMillis(200));
        }
    }

    /** The audit log once it holds a matching write for every dependent of {@code shoots} (it is written in batches). */
    private static AuditedScaleWrites awaitAudit(Path log, List<Integer> shoots, Instant from,
            Predicate<AuditedScaleWrites.Write> which) throws Exception {
        Instant deadline = Instant.now().plusSeconds(15);
        while (true) {
            AuditedScaleWrites writes = AuditedScaleWrites.read(log);
            boolean complete = shoots.stream().allMatch(shoot -> SeedLoader.DEPENDENTS.stream()
                    .allMatch(name -> writes.first(SeedLoader.namespace(shoot), name, from, which).isPresent()));
            if (complete || Instant.now().isAfter(deadline)) {
                return writes;
            }
            pause(Duration.ofMillis(500));
        }
    }

    /**
     * The instant the expired fraction of a shoot's leases falls below the threshold again: all of them expired when
     * the kubelets resumed, and each is renewed at its first beat after that.
     */
    static Instant crossingBack(List<Instant> firstRenewals) {
        List<Instant> sorted = firstRenewals.stream().sorted().toList();
        int n = sorted.size();
        for (int renewed = 1; renewed <= n; renewed++) {
            if ((double) (n - renewed) / n < ScaleBenchIT.THRESHOLD) {
                return sorted.get(renewed - 1);
            }
        }
        throw new IllegalArgumentException("no leases");
    }

    private static Instant latest(AuditedScaleWrites.Write... writes) {
        return Stream.of(writes).map(AuditedScaleWrites.Write::done).max(Instant::compareTo).orElse(Instant.MIN);
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }

    /** Nearest-rank percentile; NaN without values. */
    static double percentile(List<Double> values, double percent) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
