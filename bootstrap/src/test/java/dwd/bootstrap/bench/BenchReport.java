package dwd.bootstrap.bench;

import dwd.bootstrap.bench.ScaleBenchIT.Snapshot;
import dwd.bootstrap.prober.PrometheusText;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/** The scale benchmark's figures as a Markdown table, each row saying what it measured. */
final class BenchReport {

    private static final String REQUESTS = "dwd_api_requests_total";
    private static final String LATENCY = "dwd_api_request_duration_seconds";
    private static final String RESULTS = "dwd_probe_results_total";

    private final BenchSettings settings;
    private final Instant started;
    private final String loadAtStart;
    private final List<String[]> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private String shootApis = "";
    /** The seed kube-apiserver's CPU per write with nothing else at work; NaN until measured. */
    private double seedApiServerMillisPerWrite = Double.NaN;

    BenchReport(BenchSettings settings, Instant started, String loadAtStart) {
        this.settings = settings;
        this.started = started;
        this.loadAtStart = loadAtStart;
    }

    void shootApis(String description) {
        shootApis = description;
    }

    void seeding(long objects, long requests, long retries, Duration took, Map<String, Double> cpu, long apiServerRss,
            long etcdRss) {
        row("Seeding (harness cost)", String.format(Locale.ROOT,
                "%,d objects (%,d requests, %,d retried) in %.0f s = %,.0f requests/s; CPU-s meanwhile: %s; "
                        + "then seed kube-apiserver RSS %s, etcd RSS %s",
                objects, requests, retries, seconds(took), requests / seconds(took), cpuList(cpu, 1),
                mib(apiServerRss), mib(etcdRss)));
    }

    /**
     * The seed's own pace: {@code writes} in {@code took}, the processes' CPU meanwhile ({@code cpu}) beyond
     * their idle rate ({@code idleCpu} over {@code idle}), per write.
     */
    void seedPace(int writes, Duration took, Map<String, Double> cpu, Map<String, Double> idleCpu, Duration idle) {
        var perWrite = new StringBuilder();
        cpu.forEach((role, spent) -> {
            double beyondIdle = spent - idleCpu.getOrDefault(role, 0.0) / seconds(idle) * seconds(took);
            double millis = 1000 * beyondIdle / writes;
            if (role.equals(ScaleBenchIT.SEED_API_SERVER)) {
                seedApiServerMillisPerWrite = millis;
            }
            perWrite.append(perWrite.isEmpty() ? "" : ", ")
                    .append(String.format(Locale.ROOT, "%s %.2f ms", role, millis));
        });
        row("The seed's own pace per write (before the prober starts: each melting shoot's Deployments written "
                + "twice with a merge patch like a scale-down's, " + settings.seedConcurrency() + " at a time)",
                String.format(Locale.ROOT, "%,d writes in %.1f s = %,.0f writes/s; CPU per write beyond the idle "
                        + "rate: %s", writes, seconds(took), writes / seconds(took), perWrite));
    }

    void startup(Duration allProbed, double dwdCpu) {
        row("Start until every shoot had its first probe", String.format(Locale.ROOT,
                "%.1f s (of which the configured initialDelay is 30 s); dwd used %.1f CPU-s until then",
                seconds(allProbed), dwdCpu));
    }

    void window(Snapshot before, Snapshot after, double latenessMax, List<Long> rss, long maxThreads, long heapAfterGc,
            Jfr.Figures jfr, boolean profiled) {
        double seconds = after.seconds(before);
        double runs = delta(after, before, RESULTS, Map.of());
        double failed = delta(after, before, RESULTS, Map.of("outcome", "failed_api_server"))
                + delta(after, before, RESULTS, Map.of("outcome", "failed_leases"));
        double cpu = after.dwdCpu() - before.dwdCpu();
        int n = settings.shoots();
        row("Window", String.format(Locale.ROOT, "%.0f s; %,.0f probe runs (%.1f/s, %.2f per shoot per 30 s), %,.0f failed;"
                        + " load average %s at its start, %s at its end",
                seconds, runs, runs / seconds, runs / seconds * 30 / n, failed, before.load(), after.load()));
        row("**dwd CPU**", String.format(Locale.ROOT,
                "**%.1f CPU-s = %.2f cores**; %.2f ms per probe run; %.3f CPU-s per shoot-hour",
                cpu, cpu / seconds, 1000 * cpu / runs, cpu / (n * seconds / 3600)));
        long rssMax = rss.stream().mapToLong(Long::longValue).max().orElse(0);
        long rssEnd = rss.isEmpty() ? 0 : rss.getLast();
        row("**dwd memory**", String.format(Locale.ROOT,
                "**RSS max %s** (end %s); heap after full GC %s; threads (OS) max %d",
                mib(rssMax), mib(rssEnd), mib(heapAfterGc), maxThreads));
        row("**Probe lateness** (start vs scheduled, dwd_probe_lateness_seconds)", String.format(Locale.ROOT,
                "**p50 %s, p99 %s, max %.3f s** (percentiles as histogram bucket bounds)",
                quantile(after, before, 0.5), quantile(after, before, 0.99), latenessMax));
        row("API requests per probe run", String.format(Locale.ROOT, "seed %.2f (%s), shoot %.2f (%s)",
                delta(after, before, REQUESTS, Map.of("target", "seed")) / runs, byVerb(after, before, "seed", runs),
                delta(after, before, REQUESTS, Map.of("target", "shoot")) / runs, byVerb(after, before, "shoot", runs)));
        String serverSide = after.shootHandshakes() < 0 ? "" : String.format(Locale.ROOT,
                "; the simulator accepted %.2f connections per run", (after.shootHandshakes() - before.shootHandshakes()) / runs);
        row("TLS handshakes per probe run", String.format(Locale.ROOT, "%.2f (JFR jdk.TLSHandshake in dwd)%s",
                jfr.handshakes() / runs, serverSide));
        var others = ScaleBenchIT.minus(after.othersCpu(), before.othersCpu());
        double ours = cpu + others.values().stream().mapToDouble(Double::doubleValue).sum();
        ProcFs.MachineCpu machine = after.machine().minus(before.machine());
        row("CPU of the other processes (cores)", cpuList(others, seconds) + String.format(Locale.ROOT,
                "; the machine was busy %.2f of %d cores, %.2f of them outside the benchmark's processes",
                machine.busy() / seconds, ProcFs.cores(), Math.max(0, machine.busy() - ours) / seconds));
        var threads = ProcFs.cpuByGroupBetween(before.dwdThreads(), after.dwdThreads());
        var shares = new StringBuilder();
        threads.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())).limit(6)
                .forEach(entry -> shares.append(shares.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT,
                        "%s %.0f %%", entry.getKey(), 100 * entry.getValue() / cpu)));
        row("dwd CPU by thread (/proc)", shares.toString());
        if (profiled) {
            notes.add("CPU profile (JFR `profile` settings over the window, " + jfr.samples() + " execution samples):\n\n"
                    + frames("Top frames (self)", jfr.topSelf()) + "\n" + frames("Top dwd frames (the dwd method "
                    + "nearest the sample, i.e. which of dwd's operations the time went to)", jfr.topDwd()));
        }
    }

    void warmUpMeltdown(int shoots, Instant expiredAt, Map<String, Instant> crossings, ScaleDowns writes, Duration took) {
        List<Double> latencies = sinceCrossing(crossings, writes::first);
        row("Warm-up meltdown: leases of " + shoots + " other shoots stop being renewed, and stay so through the "
                + "measured meltdown", String.format(Locale.ROOT, "%d of %d scaled down; crossing → first scale write %s; "
                + "the measured meltdown began when every flow had finished, %.0f s after this expiry",
                latencies.size(), shoots, latencies.isEmpty() ? "none" : spread(latencies), seconds(took)));
    }

    void meltdown(int shoots, Instant expiredAt, Map<String, Instant> crossings, ScaleDowns writes,
            Snapshot before, Snapshot after, Snapshot windowStart, Snapshot windowEnd) {
        List<Double> latencies = sinceCrossing(crossings, writes::first);
        Instant first = crossings.values().stream().min(Instant::compareTo).orElseThrow();
        Instant last = crossings.values().stream().max(Instant::compareTo).orElseThrow();
        row("**Meltdown**: leases of " + shoots + " shoots stop being renewed at once", String.format(Locale.ROOT,
                "crossings %.1f–%.1f s later (each lease's last renewal + 30 s; renewals were spread over 10 s); "
                        + "%d of %d scaled down", seconds(Duration.between(expiredAt, first)),
                seconds(Duration.between(expiredAt, last)), latencies.size(), shoots));
        if (!latencies.isEmpty()) {
            row("**Crossing → first scale write** (per shoot, from dwd's log line after the write)",
                    "**" + spread(latencies) + "**");
            List<Double> firstLevel = sinceCrossing(crossings, ns -> writes.allOf(ns, ScaleDowns.FIRST_LEVEL));
            row("Crossing → the whole first level written (machine-controller-manager and cluster-autoscaler)",
                    spread(firstLevel) + String.format(Locale.ROOT, "; %d shoots", firstLevel.size()));
            List<Double> every = sinceCrossing(crossings, ns -> writes.allOf(ns, ScaleDowns.EVERY));
            row("Crossing → every dependent written (kube-controller-manager after the first level)",
                    spread(every) + String.format(Locale.ROOT, "; %d shoots", every.size()));
        }
        double burst = after.seconds(before);
        double window = windowEnd.seconds(windowStart);
        var verbs = new TreeSet<String>();
        after.metrics().find(REQUESTS, Map.of("target", "seed")).forEach(sample -> verbs.add(sample.labels().get("verb")));
        double total = 0;
        double extra = 0;
        var perVerb = new StringBuilder();
        for (String verb : verbs) {
            Map<String, String> labels = Map.of("target", "seed", "verb", verb);
            double inBurst = delta(after, before, REQUESTS, labels);
            double steady = delta(windowEnd, windowStart, REQUESTS, labels) / window * burst;
            total += inBurst;
            extra += inBurst - steady;
            perVerb.append(perVerb.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%s %,.0f", verb,
                    inBurst - steady));
        }
        row("Seed requests of the burst", String.format(Locale.ROOT,
                "%,.0f in the %.0f s from the expiry until every flow finished; %,.0f more than the steady state would "
                        + "have sent (%s), %.1f per melted shoot; Events: %s; dwd %.2f cores meanwhile",
                total, burst, extra, perVerb, extra / shoots, eventResults(after, before),
                (after.dwdCpu() - before.dwdCpu()) / burst));
        var others = ScaleBenchIT.minus(after.othersCpu(), before.othersCpu());
        ProcFs.MachineCpu machine = after.machine().minus(before.machine());
        double steadyApiServer = ScaleBenchIT.minus(windowEnd.othersCpu(), windowStart.othersCpu())
                .getOrDefault(ScaleBenchIT.SEED_API_SERVER, 0.0) / window * burst;
        double apiServerPerRequest =
                1000 * (others.getOrDefault(ScaleBenchIT.SEED_API_SERVER, 0.0) - steadyApiServer) / extra;
        row("CPU in the burst (cores)", cpuList(others, burst) + String.format(Locale.ROOT,
                "; the machine was busy %.2f of %d cores; the seed kube-apiserver's CPU beyond its steady state, per "
                        + "seed request of the burst: %.2f ms%s", machine.busy() / burst, ProcFs.cores(),
                apiServerPerRequest, Double.isNaN(seedApiServerMillisPerWrite) ? "" : String.format(Locale.ROOT,
                        " (%.2f ms per write before the prober started)", seedApiServerMillisPerWrite)));
        row("Seed write latency in the burst (mean, until the response headers)", writeLatency(after, before));
        double queued = delta(after, before, "dwd_scale_requests_queued_total", Map.of());
        row("Scale requests that waited for one of the places at the seed in the burst", queued <= 0 ? "none"
                : String.format(Locale.ROOT, "%,.0f, %.0f ms each on average",
                        queued, 1000 * delta(after, before, "dwd_scale_request_queue_wait_seconds_total", Map.of()) / queued));
        row("Client-side rate limit (--kube-api-qps) in the burst", clientThrottle(after, before)
                + " (the scale path is exempt; the window had " + clientThrottle(windowEnd, windowStart) + ")");
    }

    /** One second of the meltdown: the machine's busy cores, of them stolen, and the prober's, at its end. */
    record BurstSecond(Instant end, double machineCores, double stolenCores, double dwdCores) {
    }

    /** dwd's CPU per thread group from the first crossing until every melted shoot's first write. */
    void dwdThreadsInCrossings(Map<String, Double> threads, Duration over) {
        double seconds = over.toNanos() / 1e9;
        double total = threads.values().stream().mapToDouble(Double::doubleValue).sum();
        var groups = new StringBuilder();
        threads.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())).limit(8)
                .forEach(entry -> groups.append(", ").append(String.format(Locale.ROOT, "%s %.2f",
                        entry.getKey(), entry.getValue() / seconds)));
        row("dwd CPU by thread from the first crossing to the last first write (/proc, cores)", String.format(
                Locale.ROOT, "%.2f over %.1f s%s", total / seconds, seconds, groups));
    }

    /**
     * The meltdown second by second until every melted shoot had its first write: crossings, scale
     * writes (and how many were a shoot's first), the machine's busy cores (and how much of them the
     * hypervisor took) and the prober's. Shows whether the writes waited for the seed or for the machine.
     */
    void burstBySecond(List<BurstSecond> seconds, Map<String, Instant> crossings, ScaleDowns writes) {
        var table = new StringBuilder("The meltdown second by second (until every melted shoot's first write; cores "
                + "of " + ProcFs.cores() + ", from /proc/stat):\n\n| Second ending | Crossings | Scale writes | "
                + "of them a shoot's first | Machine busy (cores) | of it stolen by the hypervisor | dwd (cores) |\n"
                + "|---|---|---|---|---|---|---|\n");
        Instant start = seconds.isEmpty() ? Instant.MAX : seconds.getFirst().end().minusSeconds(1);
        for (BurstSecond second : seconds) {
            Instant from = start;
            Instant to = second.end();
            long crossed = crossings.values().stream().filter(at -> !at.isBefore(from) && at.isBefore(to)).count();
            table.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.2f | %.2f | %.2f |%n",
                    DateTimeFormatter.ISO_LOCAL_TIME.withZone(ZoneOffset.UTC).format(to.truncatedTo(ChronoUnit.MILLIS)),
                    crossed, writes.writesBetween(from, to), writes.firstWritesBetween(from, to),
                    second.machineCores(), second.stolenCores(), second.dwdCores()));
            start = to;
        }
        notes.add(table.toString());
    }

    /** The machine's pace in the window and in the crossings, from {@link CpuGauge}'s readings. */
    void machinePace(List<CpuGauge.Reading> window, List<CpuGauge.Reading> crossings) {
        if (window.isEmpty() || crossings.isEmpty()) {
            return;
        }
        row("The machine's pace (a fixed work's own CPU time, read once a second; lower is faster)", String.format(
                Locale.ROOT, "arithmetic %s ns a step in the window, %s in the crossings; a pointer chase through "
                        + "128 MiB %s ns a step in the window, %s in the crossings (median (min–max) of %d and %d readings)",
                pace(window, CpuGauge.Reading::arithmeticNanos), pace(crossings, CpuGauge.Reading::arithmeticNanos),
                pace(window, CpuGauge.Reading::memoryNanos), pace(crossings, CpuGauge.Reading::memoryNanos),
                window.size(), crossings.size()));
    }

    private static String pace(List<CpuGauge.Reading> readings, ToDoubleFunction<CpuGauge.Reading> nanos) {
        double[] sorted = readings.stream().mapToDouble(nanos).sorted().toArray();
        return String.format(Locale.ROOT, "%.2f (%.2f–%.2f)", sorted[sorted.length / 2], sorted[0],
                sorted[sorted.length - 1]);
    }

    /**
     * Where the seed spent the burst's writes, from its own metrics: the mean time the kube-apiserver
     * took per write (PATCH and PUT), of it the mean wait in API Priority and Fairness queues, and the
     * mean etcd update.
     */
    void seedInBurst(PrometheusText before, PrometheusText after) {
        var text = new StringBuilder();
        for (String verb : List.of("PATCH", "PUT", "UPDATE")) {
            Map<String, String> labels = Map.of("verb", verb, "resource", "deployments");
            if (after.sum("apiserver_request_duration_seconds_count", labels) > 0) {
                text.append(String.format(Locale.ROOT, "%s deployments %s; ", verb,
                        mean(before, after, "apiserver_request_duration_seconds", labels)));
            }
        }
        text.append("APF queue wait ");
        var levels = new TreeSet<String>();
        after.find("apiserver_flowcontrol_request_wait_duration_seconds_count", Map.of())
                .forEach(sample -> levels.add(sample.labels().get("priority_level")));
        for (String level : levels) {
            Map<String, String> labels = Map.of("priority_level", level);
            double count = growth(before, after, "apiserver_flowcontrol_request_wait_duration_seconds_count", labels);
            if (count > 0) {
                text.append(level).append(' ').append(mean(before, after,
                        "apiserver_flowcontrol_request_wait_duration_seconds", labels)).append(", ");
            }
        }
        text.append("etcd update (as the kube-apiserver saw it) ").append(mean(before, after,
                "etcd_request_duration_seconds", Map.of("operation", "update")));
        text.append("; in etcd: WAL fsync ").append(mean(before, after, "etcd_disk_wal_fsync_duration_seconds", Map.of()))
                .append(", backend commit ").append(mean(before, after, "etcd_disk_backend_commit_duration_seconds", Map.of()))
                .append(", proposals committed ").append(String.format(Locale.ROOT, "%,.0f",
                        growth(before, after, "etcd_server_proposals_committed_total", Map.of())))
                // A compaction or snapshot inside the burst holds etcd's backend: the writes of that second slow down.
                .append(String.format(Locale.ROOT, ", compactions %,.0f (%,.0f ms), snapshots %,.0f",
                        growth(before, after, "etcd_debugging_mvcc_db_compaction_total_duration_milliseconds_count", Map.of()),
                        growth(before, after, "etcd_debugging_mvcc_db_compaction_total_duration_milliseconds_sum", Map.of()),
                        growth(before, after, "etcd_debugging_snapshot_save_total_duration_seconds_count", Map.of())));
        row("The seed's view of the burst (kube-apiserver /metrics, mean per request and count)", text.toString());
    }

    /** How much a counter (or a histogram's count or sum) of the seed's grew from one scrape to the next. */
    private static double growth(PrometheusText before, PrometheusText after, String name, Map<String, String> labels) {
        return after.sum(name, labels) - before.sum(name, labels);
    }

    private static String mean(PrometheusText before, PrometheusText after, String histogram, Map<String, String> labels) {
        double count = growth(before, after, histogram + "_count", labels);
        double sum = growth(before, after, histogram + "_sum", labels);
        return count <= 0 ? "none" : String.format(Locale.ROOT, "%.0f ms × %,.0f", 1000 * sum / count, count);
    }

    /** The mean latency of the seed's write verbs between two snapshots. */
    private static String writeLatency(Snapshot after, Snapshot before) {
        var text = new StringBuilder();
        for (String verb : List.of("create", "patch", "update")) {
            Map<String, String> labels = Map.of("target", "seed", "verb", verb);
            double count = delta(after, before, LATENCY + "_count", labels);
            if (count > 0) {
                text.append(text.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%s %.0f ms",
                        verb, 1000 * delta(after, before, LATENCY + "_sum", labels) / count));
            }
        }
        return text.isEmpty() ? "no writes" : text.toString();
    }

    /** Seed requests that waited for the client-side rate limit between two snapshots, and how long in all. */
    private static String clientThrottle(Snapshot after, Snapshot before) {
        return String.format(Locale.ROOT, "%,.0f requests waited, %.1f s in all",
                delta(after, before, "dwd_client_throttled_requests_total", Map.of("target", "seed")),
                delta(after, before, "dwd_client_throttle_wait_seconds_total", Map.of("target", "seed")));
    }

    void shutdown(int exit, Duration took) {
        row("SIGTERM to exit", String.format(Locale.ROOT, "%.1f s, exit status %d", seconds(took), exit));
    }

    void falseScaleDowns(long count) {
        row("Shoots scaled down that were not melting", Long.toString(count));
    }

    String render() {
        var text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "### N = %,d shoots — %s UTC, load average %s at the start%n%n",
                settings.shoots(), DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC).format(started),
                loadAtStart));
        text.append("Shoot API servers: **").append(shootApis).append("**. Seed: local etcd + kube-apiserver. ")
                .append("`./dwd prober` with Gardener's config and flags (").append(String.join(" ", ScaleBenchIT.GARDENER_FLAGS))
                .append(")").append(settings.dwdJvmOptions().isEmpty() ? "" : ", JVM options " + settings.dwdJvmOptions())
                .append(settings.seedNice() == 0 ? "" : "; the seed's kube-apiserver and etcd at nice " + settings.seedNice()
                        + " (they get the CPU first)")
                .append(settings.seedGogc().isEmpty() ? "" : "; the seed's kube-apiserver and etcd with GOGC=" + settings.seedGogc())
                .append(String.format(Locale.ROOT, "; %d nodes per shoot; %d cores; transparent huge pages: %s.%n%n",
                        settings.nodes(), ProcFs.cores(), ProcFs.transparentHugePages()));
        text.append("| Figure | Value |\n|---|---|\n");
        for (String[] row : rows) {
            text.append("| ").append(row[0]).append(" | ").append(row[1]).append(" |\n");
        }
        for (String note : notes) {
            text.append('\n').append(note).append('\n');
        }
        return text.toString();
    }

    private void row(String figure, String value) {
        rows.add(new String[] {figure, value});
    }

    private static double delta(Snapshot after, Snapshot before, String name, Map<String, String> labels) {
        return after.metrics().sum(name, labels) - before.metrics().sum(name, labels);
    }

    private static String byVerb(Snapshot after, Snapshot before, String target, double runs) {
        var verbs = new TreeMap<String, Double>();
        for (PrometheusText.Sample sample : after.metrics().find(REQUESTS, Map.of("target", target))) {
            verbs.merge(sample.labels().get("verb"), 0.0, Double::sum);
        }
        var text = new StringBuilder();
        for (String verb : verbs.keySet()) {
            double perRun = delta(after, before, REQUESTS, Map.of("target", target, "verb", verb)) / runs;
            if (perRun >= 0.005) {
                text.append(text.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%s %.2f", verb, perRun));
            }
        }
        return text.isEmpty() ? "none" : text.toString();
    }

    private static String eventResults(Snapshot after, Snapshot before) {
        var text = new StringBuilder();
        for (String result : List.of("written", "failed", "dropped")) {
            text.append(text.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%s %,.0f", result,
                    delta(after, before, "dwd_events_total", Map.of("result", result))));
        }
        return text.toString();
    }

    /** The smallest bucket bound that holds at least {@code q} of the runs in the window. */
    private static String quantile(Snapshot after, Snapshot before, double q) {
        return Lateness.quantile(after.metrics(), before.metrics(), q);
    }

    /** Per shoot, the seconds from its crossing to the instant {@code written} gives it (shoots without one left out), sorted. */
    private static List<Double> sinceCrossing(Map<String, Instant> crossings,
            Function<String, Optional<Instant>> written) {
        var latencies = new ArrayList<Double>();
        crossings.forEach((ns, crossing) -> written.apply(ns)
                .ifPresent(at -> latencies.add(Duration.between(crossing, at).toNanos() / 1e9)));
        latencies.sort(null);
        return latencies;
    }

    private static String spread(List<Double> sorted) {
        return sorted.isEmpty() ? "none" : String.format(Locale.ROOT, "p50 %.3f s, p99 %.3f s, max %.3f s (min %.3f s)",
                nearestRank(sorted, 0.5), nearestRank(sorted, 0.99), sorted.getLast(), sorted.getFirst());
    }

    private static double nearestRank(List<Double> sorted, double q) {
        return sorted.get(Math.max(0, (int) Math.ceil(q * sorted.size()) - 1));
    }

    private static String cpuList(Map<String, Double> cpu, double seconds) {
        var text = new StringBuilder();
        cpu.forEach((role, value) -> text.append(text.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT,
                seconds == 1 ? "%s %.0f" : "%s %.2f", role, value / seconds)));
        return text.toString();
    }

    private static String frames(String title, List<Jfr.Frame> frames) {
        var text = new StringBuilder("| ").append(title).append(" | Samples | Share |\n|---|---|---|\n");
        for (Jfr.Frame frame : frames) {
            text.append(String.format(Locale.ROOT, "| `%s` | %,d | %.1f %% |%n", frame.method(), frame.samples(), frame.share()));
        }
        return text.toString();
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%,.0f MiB", bytes / 1048576.0);
    }
}
