package dwd.adapters.k8s.prober;

import com.google.gson.Gson;
import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.prober.secret.KubeconfigSecret;
import dwd.adapters.k8s.watch.ListWatch;
import dwd.adapters.k8s.watch.OutageLog;
import dwd.adapters.k8s.watch.WatchOptions;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.application.port.out.ApiFailure;
import dwd.domain.config.GoDuration;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import okhttp3.Call;

/**
 * The {@code kubeconfig} of the shoot-access secrets in the seed.
 *
 * <p>Each probe of each shoot needs its secret, every few seconds. A direct GET for each would put
 * one seed request per probe on the seed's API server, and would make probes fail whenever the seed
 * hiccups. So for each secret name (in practice one, the same in every shoot namespace) a watch
 * over all namespaces, restricted by the field selector {@code metadata.name=<name>}, keeps those
 * secrets in memory and sees token rotations as they happen. The cache answers when it holds the
 * secret; while its first list request is under way, a probe waits for it (within its call timeout).
 * While the watch has not proven itself alive lately, the cache's copy still answers if it was current
 * within {@link RecentCopies#LIMIT}. Otherwise (the list failed, a secret created a moment ago, a
 * cache older than that) a direct GET does, so a missing secret is always confirmed by the server and
 * a missing permission shows up as FORBIDDEN rather than as a cache that never fills; while the cache
 * is not trusted, a secret found by a GET is not read again within that limit. When that GET finds
 * the seed unreachable, the copy the cache still holds is used: credentials a few minutes old are
 * still good, and a probe of the shoot needs no seed.
 */
final class KubeconfigSecrets implements AutoCloseable {

    static final String KUBECONFIG_KEY = "kubeconfig";

    private final Supplier<ApiClient> newSeedClient;
    private final ApiClient reader;
    private final WatchReports reports;
    private final Map<String, SecretWatch> watches = new ConcurrentHashMap<>();
    private final RecentCopies<KubeconfigSecret> reads = new RecentCopies<>();
    private final CacheTrust<CacheTrust.Written> trust = CacheTrust.forSlowlyChanging();
    private volatile boolean closed;

    /** @param reports where the watches report an unreachable seed and that they run (the process's) */
    KubeconfigSecrets(Supplier<ApiClient> newSeedClient, WatchReports reports) {
        this.newSeedClient = newSeedClient;
        this.reader = newSeedClient.get();
        this.reports = Objects.requireNonNull(reports, "reports");
    }

    /**
     * The kubeconfig document in data key {@code kubeconfig} of secret {@code namespace/name}.
     *
     * @throws ApiFailure NOT_FOUND when the secret does not exist, BAD_INPUT when it has no such key,
     *     or the kind of the seed read's failure
     */
    byte[] kubeconfig(String namespace, String name, Duration timeout) {
        String secret = "secret " + namespace + "/" + name;
        long start = System.nanoTime();
        KubeconfigSecret found = cachedOnceListed(namespace, name, timeout).orElseGet(() -> {
            Duration left = timeout.minusNanos(System.nanoTime() - start);
            if (left.toMillis() < 1) {
                throw new ApiFailure(ApiFailure.Kind.TIMEOUT, "reading " + secret + ": timed out (the first list of"
                        + " secrets named " + name + " did not come within " + GoDuration.format(timeout) + ")");
            }
            SecretWatch secrets = watches.get(name);
            return secrets != null && secrets.watch().hasSynced() ? readOrLastKnown(namespace, name, left)
                    : reads.get(namespace + "/" + name, () -> readOrLastKnown(namespace, name, left));
        });
        String encoded = found.base64Data(KUBECONFIG_KEY).orElseThrow(() -> new ApiFailure(
                ApiFailure.Kind.BAD_INPUT, secret + " has no data key '" + KUBECONFIG_KEY + "'"));
        try {
            return Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException notBase64) {
            throw new ApiFailure(ApiFailure.Kind.BAD_INPUT,
                    secret + ": data key '" + KUBECONFIG_KEY + "' is not base64");
        }
    }

    /**
     * The secret as the cache holds it, when {@link CacheTrust} lets its copy answer (the cache is trusted or
     * its copy recent); starts the cache for {@code name} on first use.
     */
    Optional<KubeconfigSecret> cached(String namespace, String name) {
        if (closed) {
            throw new ApiFailure(ApiFailure.Kind.UNAVAILABLE,
                    "reading secret " + namespace + "/" + name + ": the shoot clients are closed");
        }
        ListWatch<KubeconfigSecret> cache = watches.computeIfAbsent(name, this::startWatch).watch();
        return switch (trust.use(cache)) {
            case CACHE -> {
                reads.forget();
                yield cache.get(namespace, name);
            }
            case RECENT_COPY -> cache.get(namespace, name);
            case SERVER -> Optional.empty();
        };
    }

    /**
     * The secret as the cache holds it, once the cache's first list request has ended (waiting for it
     * at most {@code timeout}): when a prober starts, every shoot's first probe comes within seconds,
     * and a direct GET for each would queue thousands of requests behind the client-side rate limit,
     * the list that fills the cache among them.
     */
    private Optional<KubeconfigSecret> cachedOnceListed(String namespace, String name, Duration timeout) {
        Optional<KubeconfigSecret> cached = cached(namespace, name);
        SecretWatch secrets = watches.get(name);
        if (cached.isPresent() || secrets == null || secrets.watch().hasSynced()) {
            return cached;
        }
        try {
            secrets.watch().awaitFirstList(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "reading secret " + namespace + "/" + name + ": interrupted");
        }
        return cached(namespace, name);
    }

    /** A GET; when the seed does not answer it, the copy the cache holds, if any. */
    private KubeconfigSecret readOrLastKnown(String namespace, String name, Duration timeout) {
        try {
            return read(namespace, name, timeout);
        } catch (ApiFailure failure) {
            SecretWatch secrets = watches.get(name);
            Optional<KubeconfigSecret> lastKnown = OutageLog.isOutage(failure) && secrets != null
                    ? secrets.watch().get(namespace, name) : Optional.empty();
            return lastKnown.orElseThrow(() -> failure);
        }
    }

    private KubeconfigSecret read(String namespace, String name, Duration timeout) {
        return ApiFailures.call("reading secret " + namespace + "/" + name, () -> {
            Call call = new CoreV1Api(reader).readNamespacedSecret(name, namespace).buildCall(null);
            call.timeout().timeout(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
            return reader.<KubeconfigSecret>execute(call, KubeconfigSecret.class).getData();
        });
    }

    private SecretWatch startWatch(String name) {
        ApiClient client = OwnedClients.forWatches(newSeedClient);
        CoreV1Api core = new CoreV1Api(client);
        Gson gson = JSON.getGson();
        var watch = new ListWatch<KubeconfigSecret>("Secrets named " + name,
                (isWatch, resourceVersion, timeoutSeconds) -> core.listSecretForAllNamespaces()
                        .fieldSelector("metadata.name=" + name)
                        .resourceVersion(resourceVersion)
                        .watch(isWatch)
                        .allowWatchBookmarks(isWatch ? true : null)
                        .timeoutSeconds(timeoutSeconds)
                        .buildCall(null),
                json -> gson.fromJson(json, KubeconfigSecret.class), ListWatch.Handler.none(), reports,
                WatchOptions.on(client));
        watch.start();
        return new SecretWatch(client, watch);
    }

    @Override
    public void close() {
        closed = true;
        watches.values().forEach(SecretWatch::stop);
        watches.clear();
        OwnedClients.release(reader);
    }

    private record SecretWatch(ApiClient client, ListWatch<KubeconfigSecret> watch) {
        void stop() {
            watch.close();
            OwnedClients.release(client);
        }
    }
}
