package dwd.bootstrap.bench;

import dwd.adapters.k8s.testing.LocalControlPlane;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

/**
 * Real shoot API servers: two local kube-apiservers (each with its etcd), one for the shoots that
 * stay healthy and one for those the meltdown hits. The shoots of each share its nodes and node
 * leases (nodes and leases are not namespaced), and the benchmark renews every lease every 10 s, at
 * a phase of its own, like a kubelet. Shoots authenticate with the server's admin client certificate.
 */
final class RealShootApis implements ShootApis {

    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);

    private final Server healthy;
    private final Server melting;
    private final IntPredicate melts;
    private final List<Long> pids;

    private RealShootApis(Server healthy, Server melting, IntPredicate melts, List<Long> pids) {
        this.healthy = healthy;
        this.melting = melting;
        this.melts = melts;
        this.pids = pids;
    }

    /** Starts both servers with {@code nodes} nodes each; {@code melts} says which shoots the meltdown hits. */
    static RealShootApis start(int nodes, IntPredicate melts) throws ApiException {
        List<Long> before = ProcFs.descendants();
        Server healthy = null;
        try {
            healthy = new Server("healthy", LocalControlPlane.start(List.of()), nodes);
            Server melting = new Server("meltdown", LocalControlPlane.start(List.of()), nodes);
            List<Long> pids = ProcFs.descendants();
            pids.removeAll(before);
            return new RealShootApis(healthy, melting, melts, pids);
        } catch (RuntimeException | ApiException e) {
            if (healthy != null) {
                healthy.close();
            }
            throw e;
        }
    }

    @Override
    public String kubeconfig(int shoot) {
        return server(shoot).kubeconfig;
    }

    @Override
    public List<String> nodes(int shoot) {
        return server(shoot).nodes;
    }

    @Override
    public Map<Integer, List<Instant>> expire(List<Integer> shoots, Instant at) throws InterruptedException {
        List<Instant> kept = melting.stopKubelets();
        var renewTimes = new HashMap<Integer, List<Instant>>();
        for (int shoot : shoots) {
            if (!melts.test(shoot)) {
                throw new IllegalArgumentException("shoot " + shoot + " is served by the healthy server");
            }
            renewTimes.put(shoot, kept);
        }
        return renewTimes;
    }

    @Override
    public long handshakes() {
        return -1;
    }

    @Override
    public List<Long> pids() {
        return pids;
    }

    @Override
    public String describe() {
        return "real (2 local kube-apiservers + etcd, " + healthy.nodes.size()
                + " nodes each; the shoots of each share its nodes and leases)";
    }

    /** Lease renewals that failed (the server's answer was an error); a run with failures says so. */
    long renewalFailures() {
        return healthy.failures.get() + melting.failures.get();
    }

    private Server server(int shoot) {
        return melts.test(shoot) ? melting : healthy;
    }

    @Override
    public void close() throws InterruptedException {
        try {
            healthy.close();
        } finally {
            melting.close();
        }
    }

    /** One kube-apiserver with its nodes and their kubelets. */
    private static final class Server implements AutoCloseable {
        final LocalControlPlane plane;
        final String kubeconfig;
        final List<String> nodes = new ArrayList<>();
        final Map<String, Instant> lastRenewal = new ConcurrentHashMap<>();
        final ScheduledExecutorService kubelets = Executors.newSingleThreadScheduledExecutor();
        final AtomicLong failures = new AtomicLong();

        Server(String name, LocalControlPlane plane, int count) throws ApiException {
            this.plane = plane;
            this.kubeconfig = plane.selfContainedKubeconfig();
            ApiClient client = plane.apiClient();
            var random = new SplittableRandom(name.hashCode());
            for (int i = 0; i < count; i++) {
                String node = name + "-node-" + i;
                new CoreV1Api(client).createNode(new V1Node().metadata(new V1ObjectMeta().name(node)
                        .labels(Map.of("worker.gardener.cloud/pool", "pool-a")))).execute();
                new CoordinationV1Api(client).createNamespacedLease("kube-node-lease", new V1Lease()
                        .metadata(new V1ObjectMeta().name(node))
                        .spec(new V1LeaseSpec().holderIdentity(node).leaseDurationSeconds(40))).execute();
                nodes.add(node);
                renew(node);
                long phase = random.nextLong(ShootApiSimulator.RENEW_INTERVAL.toMillis());
                kubelets.scheduleAtFixedRate(() -> renew(node), phase, ShootApiSimulator.RENEW_INTERVAL.toMillis(),
                        TimeUnit.MILLISECONDS);
            }
        }

        private void renew(String node) {
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
            try {
                PatchUtils.patch(V1Lease.class, () -> new CoordinationV1Api(plane.apiClient()).patchNamespacedLease(node,
                                "kube-node-lease", new V1Patch("{\"spec\":{\"renewTime\":\"" + MICRO_TIME.format(now) + "\"}}"))
                        .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, plane.apiClient());
                lastRenewal.put(node, now);
            } catch (ApiException | RuntimeException e) {
                failures.incrementAndGet();
            }
        }

        /** Stops renewing; returns the renew time each lease keeps, in node order. */
        List<Instant> stopKubelets() throws InterruptedException {
            kubelets.shutdownNow();
            if (!kubelets.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the kubelets of the meltdown server did not stop");
            }
            return nodes.stream().map(lastRenewal::get).toList();
        }

        @Override
        public void close() {
            kubelets.shutdownNow();
            plane.close();
        }
    }
}
