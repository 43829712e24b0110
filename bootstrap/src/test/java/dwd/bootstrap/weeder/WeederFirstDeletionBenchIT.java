package dwd.bootstrap.weeder;

import static dwd.bootstrap.weeder.WeederLaunchIT.REPOSITORY;
import static dwd.bootstrap.weeder.WeederLaunchIT.patch;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonParser;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.weeder.AuditedRequests.Request;
import dwd.bootstrap.weeder.WatchedArrivals.Arrival;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.DiscoveryV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Endpoint;
import io.kubernetes.client.openapi.models.V1EndpointConditions;
import io.kubernetes.client.openapi.models.V1EndpointSlice;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Benchmark, not a test (nothing is asserted): the weeder's first deletion after a service turns
 * ready, seen from outside a real {@code ./dwd weeder} process (module path, Gardener's config,
 * leader election). Each trial creates a crash-looping, unscheduled {@code kube-apiserver-0} (the
 * API server removes an unscheduled pod at once, so "deleted" is "gone"), writes the
 * {@code etcd-main-client} slice ready (PUT), waits until the pod is gone, writes the slice not
 * ready and waits until the weeder stopped. Times come from two outside observers: the API
 * server's audit log (when it received and finished each request, including the weeder's own pod
 * list, watch and DELETE) and a watch of this test (when each event arrived).
 *
 * <p>Two runs: a <b>warm</b> process, up and idle for a minute before its trials and idle while
 * its client-side rate limit refills after each; and
 * <b>fresh</b> processes, one per trial, measured right after {@code /readyz} turns 200. Runs only
 * with {@code -Ddwd.bench=true} ({@code make bench-weeder}); figures go to stdout and
 * {@code target/weeder-bench.txt}; see docs/weeder.md.
 */
@WithLocalControlPlane(apiServerFlags = {
    "--audit-policy-file=target/test-classes/dwd/it/weeder-audit-policy.yaml",
    "--audit-log-path=target/weeder-bench-audit.log",
    "--audit-log-mode=batch",
    "--audit-log-batch-max-wait=1s"})
@EnabledIfSystemProperty(named = "dwd.bench", matches = "true")
class WeederFirstDeletionBenchIT {

    static final Path AUDIT_LOG = Path.of("target/weeder-bench-audit.log");
    static final Path REPORT = Path.of("target/weeder-bench.txt");
    static final int WARM_TRIALS = Integer.getInteger("dwd.bench.trials", 60);
    static final int FRESH_TRIALS = Integer.getInteger("dwd.bench.freshTrials", 50);
    static final Duration IDLE_BEFORE_TRIALS = Duration.ofSeconds(Long.getLong("dwd.bench.idleSeconds", 60));
    /**
     * The warm process's pause after each trial: the time its client-side rate limit (the defaults Gardener
     * keeps for the weeder, 5 requests/s with a burst of 10) needs to refill. Back-to-back trials would
     * measure the limit, not a first deletion: a trial takes about 100 ms and costs the weeder a list, a
     * watch, a DELETE and its Events, so after a few trials every request would wait for its token.
     */
    static final Duration IDLE_BETWEEN_TRIALS = Duration.ofMillis(Long.getLong("dwd.bench.idleBetweenMillis", 2000));
    /** More flags for the weeder, e.g. {@code -Ddwd.bench.weederFlags=--zap-log-level=debug} to see its steps. */
    static final List<String> EXTRA_FLAGS = List.of(System.getProperty("dwd.bench.weederFlags", "").split(" ")).stream()
            .filter(flag -> !flag.isBlank()).toList();
    static final String SLICE = "etcd-main-client-x";
    static final String POD = "kube-apiserver-0";
    static final String BENCH_AGENT = "dwd-bench";
    static final String READY_AGENT = "dwd-bench/ready";
    static final String NOT_READY_AGENT = "dwd-bench/not-ready";

    /** What the test itself saw of one trial ({@link System#nanoTime()}). */
    record Seen(long putStarted, long putAnswered, long sliceEventArrived, long podGoneArrived) { }

    /** One trial, in nanoseconds, from both observers. */
    record Trial(long recordedSliceToDeletion, long receivedPutToDeletion, long sliceToDeleteSent, long sliceToWeederList,
                 long listToDelete, long deleteTook, long watchedSliceToGone, long clientPutToGone) { }

    @BeforeAll
    static void newReport() throws IOException {
        Files.deleteIfExists(REPORT);
    }

    @Test
    void warmProcess(LocalControlPlane controlPlane) throws Exception {
        try (var bench = new Bench(controlPlane, "bench-warm")) {
            String load = loadAverage();
            var seen = new ArrayList<Seen>();
            double throttled;
            try (WeederProcess weeder = bench.startWeeder("weeder-warm")) {
                await("up and idle for " + IDLE_BEFORE_TRIALS).during(IDLE_BEFORE_TRIALS)
                        .atMost(IDLE_BEFORE_TRIALS.plusSeconds(10)).pollInterval(Duration.ofSeconds(1))
                        .until(() -> weeder.healthz() == 200);
                for (int i = 0; i < WARM_TRIALS; i++) {
                    seen.add(bench.trial(weeder));
                    await("idle while the rate limit refills").during(IDLE_BETWEEN_TRIALS)
                            .atMost(IDLE_BETWEEN_TRIALS.plusSeconds(10)).pollInterval(Duration.ofMillis(500))
                            .until(() -> weeder.healthz() == 200);
                }
                throttled = throttledRequests(weeder);
            }
            report("warm process (up and idle " + IDLE_BEFORE_TRIALS.toSeconds() + " s before the first trial, "
                    + IDLE_BETWEEN_TRIALS.toMillis() + " ms after each)", bench.trials(seen), load, throttled);
        }
    }

    @Test
    void freshProcesses(LocalControlPlane controlPlane) throws Exception {
        try (var bench = new Bench(controlPlane, "bench-fresh")) {
            String load = loadAverage();
            var seen = new ArrayList<Seen>();
            double throttled = 0;
            for (int i = 0; i < FRESH_TRIALS; i++) {
                try (WeederProcess weeder = bench.startWeeder("weeder-fresh-" + i)) {
                    seen.add(bench.trial(weeder));
                    throttled += throttledRequests(weeder);
                    weeder.terminate();
                }
            }
            report("fresh processes (one per trial, right after /readyz turned 200)", bench.trials(seen), load, throttled);
        }
    }

    /** One namespace with the slice, the observers and the clients. */
    private static final class Bench implements AutoCloseable {

        private final LocalControlPlane controlPlane;
        private final String namespace;
        private final Path dir;
        private final ApiClient client;
        private final ApiClient readyClient;
        private final ApiClient notReadyClient;
        private final WatchedArrivals arrivals;

        Bench(LocalControlPlane controlPlane, String prefix) throws Exception {
            this.controlPlane = controlPlane;
            this.namespace = controlPlane.createNamespace(prefix);
            this.dir = Files.createDirectories(Path.of("target", "weeder-bench", namespace));
            this.client = agent(controlPlane, BENCH_AGENT);
            this.readyClient = agent(controlPlane, READY_AGENT);
            this.notReadyClient = agent(controlPlane, NOT_READY_AGENT);
            new DiscoveryV1Api(client).createNamespacedEndpointSlice(namespace, new V1EndpointSlice()
                    .metadata(new V1ObjectMeta().name(SLICE).labels(Map.of("kubernetes.io/service-name", "etcd-main-client")))
                    .addressType("IPv4")
                    .endpoints(endpoints(false))).execute();
            this.arrivals = new WatchedArrivals(controlPlane.newApiClient(Duration.ZERO), namespace);
            arrivals.await("the test's slice watch is open", Duration.ofSeconds(10),
                    arrival -> arrival.kind().equals("EndpointSlice"));
        }

        private static ApiClient agent(LocalControlPlane controlPlane, String userAgent) {
            ApiClient client = controlPlane.newApiClient(Duration.ofSeconds(30));
            client.setUserAgent(userAgent);
            return client;
        }

        /** {@code ./dwd weeder} with Gardener's config and leader election (its Lease in the bench's namespace), ready. */
        WeederProcess startWeeder(String name) throws Exception {
            Path config = Files.writeString(dir.resolve("weeder-config.yaml"),
                    Files.readString(REPOSITORY.resolve("deploy/examples/weeder-config.yaml")));
            Path kubeconfig = Files.writeString(dir.resolve("seed.kubeconfig"), controlPlane.kubeconfig());
            var flags = new ArrayList<>(List.of("--enable-leader-election", "--leader-election-namespace=" + namespace));
            flags.addAll(EXTRA_FLAGS);
            var weeder = WeederProcess.start(dir, name, config, kubeconfig, flags.toArray(String[]::new));
            try {
                await("ready (leading, EndpointSlice cache synced)").atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(20)).until(() -> weeder.readyz() == 200);
            } catch (RuntimeException e) {
                weeder.close();
                throw e;
            }
            return weeder;
        }

        Seen trial(WeederProcess weeder) throws Exception {
            var core = new CoreV1Api(client);
            var spec = new V1PodSpec().containers(List.of(new V1Container().name("kube-apiserver").image("registry.invalid/kube-apiserver:1")));
            spec.setOverhead(null); // the model's empty map would need a RuntimeClass
            String uid = core.createNamespacedPod(namespace, new V1Pod()
                    .metadata(new V1ObjectMeta().name(POD)
                            .labels(Map.of("app", "kubernetes", "gardener.cloud/role", "controlplane", "role", "apiserver")))
                    .spec(spec)).execute().getMetadata().getUid();
            patch(client, () -> core.patchNamespacedPodStatus(POD, namespace, new V1Patch(
                    "{\"status\":{\"phase\":\"Running\",\"containerStatuses\":[{\"name\":\"kube-apiserver\","
                            + "\"image\":\"registry.invalid/kube-apiserver:1\",\"imageID\":\"\",\"ready\":false,"
                            + "\"restartCount\":4,\"started\":false,\"state\":{\"waiting\":{\"reason\":\"CrashLoopBackOff\"}}}]}}"))
                    .buildCall(null));
            arrivals.await("the crash-loop is visible", Duration.ofSeconds(10), arrival -> arrival.uid().equals(uid)
                    && arrival.type().equals("MODIFIED"));

            long putStarted = System.nanoTime();
            setSliceReady(readyClient, true);
            long putAnswered = System.nanoTime();
            Arrival ready = arrivals.await("the ready slice", Duration.ofSeconds(10), arrival -> arrival.nanos() >= putStarted
                    && arrival.kind().equals("EndpointSlice") && arrival.sliceReady());
            Arrival gone = arrivals.await("the crash-looping pod deleted", Duration.ofSeconds(30),
                    arrival -> arrival.uid().equals(uid) && arrival.type().equals("DELETED"));

            setSliceReady(notReadyClient, false);
            await("the weeder stopped").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                    .until(() -> JsonParser.parseString(weeder.weeders()).getAsJsonObject().get("count").getAsInt() == 0);
            return new Seen(putStarted, putAnswered, ready.nanos(), gone.nanos());
        }

        private void setSliceReady(ApiClient as, boolean ready) throws ApiException {
            var discovery = new DiscoveryV1Api(client);
            V1EndpointSlice slice = discovery.readNamespacedEndpointSlice(SLICE, namespace).execute();
            new DiscoveryV1Api(as).replaceNamespacedEndpointSlice(SLICE, namespace, slice.endpoints(endpoints(ready))).execute();
        }

        /** Joins what the test saw with the audit log, once the log has all of this namespace's trials. */
        List<Trial> trials(List<Seen> seen) throws IOException {
            AuditedRequests audit = await("the audit log has every trial").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> AuditedRequests.read(AUDIT_LOG, namespace),
                            log -> log.all().stream().filter(r -> r.userAgent().equals(NOT_READY_AGENT)).count() == seen.size());
            List<Request> readyPuts = audit.all().stream().filter(r -> r.userAgent().equals(READY_AGENT)).toList();
            List<Request> notReadyPuts = audit.all().stream().filter(r -> r.userAgent().equals(NOT_READY_AGENT)).toList();
            var trials = new ArrayList<Trial>();
            for (int i = 0; i < seen.size(); i++) {
                Request put = readyPuts.get(i);
                List<Request> weeder = audit.between(put.received(), notReadyPuts.get(i).received()).stream()
                        .filter(Request::byWeeder).toList();
                Request list = first(weeder, "list", "pods", i);
                Request delete = first(weeder, "delete", "pods", i);
                Seen s = seen.get(i);
                trials.add(new Trial(nanos(put.reached(), delete.reached()), nanos(put.received(), delete.reached()),
                        nanos(put.reached(), delete.received()), nanos(put.reached(), list.received()), nanos(list.received(), delete.received()),
                        delete.took().toNanos(), s.podGoneArrived() - s.sliceEventArrived(),
                        s.podGoneArrived() - s.putStarted()));
            }
            return trials;
        }

        private static Request first(List<Request> requests, String verb, String resource, int trial) {
            return requests.stream().filter(r -> r.is(verb, resource)).findFirst().orElseThrow(
                    () -> new IllegalStateException("trial " + trial + ": no " + verb + " of " + resource + " by the weeder"));
        }

        @Override
        public void close() {
            arrivals.close();
        }
    }

    private static List<V1Endpoint> endpoints(boolean ready) {
        return List.of(new V1Endpoint().addresses(List.of("10.0.0.1")).conditions(new V1EndpointConditions().ready(ready)));
    }

    private static long nanos(Instant from, Instant to) {
        return Duration.between(from, to).toNanos();
    }

    /** The weeder's requests that waited for a token of its client-side rate limit, all targets summed. */
    private static double throttledRequests(WeederProcess weeder) throws IOException {
        return weeder.metrics().lines().filter(line -> line.startsWith("dwd_client_throttled_requests_total"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    private static String loadAverage() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).trim();
    }

    private static void report(String title, List<Trial> trials, String loadBefore, double throttled) throws IOException {
        var out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%s — %s, %d trials, load average before %s, after %s%n", LocalDate.now(),
                title, trials.size(), loadBefore, loadAverage()));
        out.append(String.format(Locale.ROOT, "  %-62s %8s %8s %8s %8s%n", "milliseconds", "p50", "p99", "min", "max"));
        line(out, "API server: slice update done -> pod DELETE done", trials, Trial::recordedSliceToDeletion);
        line(out, "API server: slice update received -> pod DELETE done", trials, Trial::receivedPutToDeletion);
        line(out, "  slice update done -> weeder's DELETE received (the weeder's part)", trials, Trial::sliceToDeleteSent);
        line(out, "  slice update done -> weeder's pod LIST received", trials, Trial::sliceToWeederList);
        line(out, "  pod LIST received -> DELETE received", trials, Trial::listToDelete);
        line(out, "  DELETE received -> done", trials, Trial::deleteTook);
        line(out, "watch: slice event -> pod DELETED event", trials, Trial::watchedSliceToGone);
        line(out, "client: start of the ready PUT -> pod DELETED event", trials, Trial::clientPutToGone);
        out.append(String.format(Locale.ROOT, "  first trial: API server: slice update done -> pod DELETE done %.1f ms%n",
                millis(trials.getFirst().recordedSliceToDeletion())));
        out.append(String.format(Locale.ROOT, "  the weeder's requests that waited for the client-side rate limit: %.0f%n", throttled));
        System.out.print(out);
        Files.writeString(REPORT, out, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static void line(StringBuilder out, String label, List<Trial> trials, ToLongFunction<Trial> value) {
        long[] sorted = trials.stream().mapToLong(value).sorted().toArray();
        out.append(String.format(Locale.ROOT, "  %-62s %8.1f %8.1f %8.1f %8.1f%n", label, millis(percentile(sorted, 50)),
                millis(percentile(sorted, 99)), millis(sorted[0]), millis(sorted[sorted.length - 1])));
    }

    /** Nearest-rank percentile. */
    private static long percentile(long[] sorted, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private static double millis(long nanos) {
        return nanos / 1_000_000.0;
    }
}
