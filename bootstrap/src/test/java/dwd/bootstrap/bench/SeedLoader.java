package dwd.bootstrap.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * Loads N shoots into the seed as fast as its API server takes them: per shoot a namespace, the
 * Cluster, the access secret, three Deployments and a Running Machine per node. Plain JSON over the
 * admin client's HTTP/2 connection, many shoots at a time (each shoot's objects in order), with
 * retries on 429, 5xx and broken connections.
 */
final class SeedLoader {

    static final String SECRET = "shoot-access-dependency-watchdog-probe";
    static final List<String> DEPENDENTS = List.of("kube-controller-manager", "machine-controller-manager",
            "cluster-autoscaler");
    private static final MediaType JSON = MediaType.get("application/json");
    private static final MediaType MERGE_PATCH = MediaType.get("application/merge-patch+json");
    /** Set and removed again by {@link #writeDependentsTwice}; not one of dwd's, so its cache ignores it. */
    private static final String PACE_ANNOTATION = "bench.dwd.gardener.cloud/seed-pace";

    private final OkHttpClient http;
    private final String server;
    private final int concurrency;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();

    /**
     * @param http   an authenticated client for the seed (the admin client's)
     * @param server the seed's base URL
     */
    SeedLoader(OkHttpClient http, String server, int concurrency) {
        this.http = http;
        this.server = server;
        this.concurrency = concurrency;
    }

    static String namespace(int shoot) {
        return String.format(Locale.ROOT, "shoot--bench--s%05d", shoot);
    }

    long requests() {
        return requests.get();
    }

    long retries() {
        return retries.get();
    }

    /** Creates a namespace outside the shoots (e.g. {@code garden} for the leader-election Lease). */
    void createNamespace(String name) throws IOException {
        send("POST", "/api/v1/namespaces", namespaceJson(name), JSON);
    }

    /**
     * Loads shoots {@code 0 … count-1}.
     *
     * @param kubeconfig the access secret's kubeconfig of a shoot
     * @param nodes      the node names of a shoot (each gets a Running Machine)
     */
    void load(int count, IntFunction<String> kubeconfig, IntFunction<List<String>> nodes) throws Exception {
        inParallel(IntStream.range(0, count).boxed().toList(),
                shoot -> loadShoot(shoot, kubeconfig.apply(shoot), nodes.apply(shoot)));
    }

    /**
     * Writes every dependent of {@code shoots} twice, with a merge patch of the kind the prober's scale-down
     * sends (an annotation and {@code spec.replicas}), {@code concurrency} at a time: first to no replicas, then
     * back as seeded. It measures what a write costs the seed itself, before the prober runs; every Deployment
     * is left as it was seeded, but for its resourceVersion and generation.
     *
     * @return the writes sent
     */
    int writeDependentsTwice(List<Integer> shoots) throws Exception {
        List<String> paths = shoots.stream()
                .flatMap(shoot -> DEPENDENTS.stream().map(dependent ->
                        "/apis/apps/v1/namespaces/" + namespace(shoot) + "/deployments/" + dependent))
                .toList();
        String patch = "{\"metadata\":{\"annotations\":{\"%s\":%s}},\"spec\":{\"replicas\":%d}}";
        for (String write : List.of(patch.formatted(PACE_ANNOTATION, "\"down\"", 0),
                patch.formatted(PACE_ANNOTATION, "null", 1))) {
            inParallel(paths, path -> send("PATCH", path, write, MERGE_PATCH));
        }
        return 2 * paths.size();
    }

    /** Does {@code task} for every item, {@code concurrency} at a time, and waits until all are done. */
    private <T> void inParallel(List<T> items, Task<T> task) throws Exception {
        var permits = new Semaphore(concurrency);
        List<Future<?>> running = new ArrayList<>(items.size());
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (T item : items) {
                permits.acquire();
                running.add(threads.submit(() -> {
                    try {
                        task.run(item);
                    } finally {
                        permits.release();
                    }
                    return null;
                }));
            }
            for (Future<?> done : running) {
                done.get();
            }
        }
    }

    @FunctionalInterface
    private interface Task<T> {
        void run(T item) throws IOException;
    }

    private void loadShoot(int shoot, String kubeconfig, List<String> nodes) throws IOException {
        String ns = namespace(shoot);
        send("POST", "/api/v1/namespaces", namespaceJson(ns), JSON);
        send("POST", "/api/v1/namespaces/" + ns + "/secrets", """
                {"apiVersion":"v1","kind":"Secret","metadata":{"name":"%s","labels":{"resources.gardener.cloud/purpose":"token-requestor"}},\
                "type":"Opaque","data":{"kubeconfig":"%s"}}""".formatted(SECRET,
                Base64.getEncoder().encodeToString(kubeconfig.getBytes(StandardCharsets.UTF_8))), JSON);
        for (String dependent : DEPENDENTS) {
            send("POST", "/apis/apps/v1/namespaces/" + ns + "/deployments", deployment(dependent), JSON);
        }
        for (String node : nodes) {
            String machine = "machine-" + node;
            send("POST", "/apis/machine.sapcloud.io/v1alpha1/namespaces/" + ns + "/machines", """
                    {"apiVersion":"machine.sapcloud.io/v1alpha1","kind":"Machine","metadata":{"name":"%s",\
                    "labels":{"node":"%s","name":"%s"}},"spec":{"class":{"kind":"MachineClass","name":"pool-a-z1"},\
                    "providerID":"aws:///eu-west-1a/i-%s","nodeTemplate":{"metadata":{"labels":{"worker.gardener.cloud/pool":"pool-a"}}}}}"""
                    .formatted(machine, node, machine, Integer.toHexString(node.hashCode())), JSON);
            send("PATCH", "/apis/machine.sapcloud.io/v1alpha1/namespaces/" + ns + "/machines/" + machine + "/status",
                    "{\"status\":{\"node\":\"" + node + "\",\"currentStatus\":{\"phase\":\"Running\","
                            + "\"lastUpdateTime\":\"2026-01-01T00:00:00Z\",\"timeoutActive\":false}}}", MERGE_PATCH);
        }
        // Last: the Cluster is what makes a prober probe the shoot.
        send("POST", "/apis/extensions.gardener.cloud/v1alpha1/clusters", ClusterJson.cluster(ns), JSON);
    }

    private static String namespaceJson(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}";
    }

    private static String deployment(String name) {
        return """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%1$s","labels":{"app":"%1$s",\
                "gardener.cloud/role":"controlplane"}},"spec":{"replicas":1,"revisionHistoryLimit":2,\
                "selector":{"matchLabels":{"app":"%1$s"}},"template":{"metadata":{"labels":{"app":"%1$s",\
                "gardener.cloud/role":"controlplane"}},"spec":{"priorityClassName":"gardener-system-300",\
                "containers":[{"name":"%1$s","image":"europe-docker.pkg.dev/gardener-project/releases/%1$s:v1.0.0",\
                "args":["--kubeconfig=/var/run/secrets/gardener.cloud/shoot/generic-kubeconfig/kubeconfig",\
                "--leader-elect=true","--v=2"],"ports":[{"name":"metrics","containerPort":10258}],\
                "resources":{"requests":{"cpu":"50m","memory":"128Mi"}}}]}}}}""".formatted(name);
    }

    private void send(String method, String path, String body, MediaType type) throws IOException {
        var request = new Request.Builder().url(server + path).method(method, RequestBody.create(body, type)).build();
        for (int attempt = 1; ; attempt++) {
            requests.incrementAndGet();
            try (Response response = http.newCall(request).execute()) {
                int code = response.code();
                if (code < 300) {
                    return;
                }
                boolean transientFailure = code == 429 || code >= 500;
                if (!transientFailure || attempt == 10) {
                    throw new IOException(method + " " + path + ": " + code + " " + response.body().string());
                }
            } catch (IOException broken) {
                if (attempt == 10 || broken.getMessage() != null && broken.getMessage().startsWith(method + " " + path)) {
                    throw broken;
                }
            }
            retries.incrementAndGet();
            LockSupport.parkNanos(100_000_000L * attempt); // back off before the next attempt
        }
    }
}
