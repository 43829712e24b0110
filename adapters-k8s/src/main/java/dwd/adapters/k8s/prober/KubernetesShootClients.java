package dwd.adapters.k8s.prober;

import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.watch.OutageLog;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ShootApi;
import dwd.application.port.out.ShootClients;
import dwd.domain.config.GoDuration;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;

/**
 * Clients for the shoots' API servers, from the {@code kubeconfig} of each shoot's access secret in
 * the seed.
 *
 * <p>A connection never outlives its probe run: every run gets a connection pool of its own, so its
 * first request opens a new connection (TCP and TLS), its other requests use that one, and the pool
 * is emptied when the run ends. A run therefore never rides a connection that broke since an
 * earlier run (the original's reason for opening a connection per request), while a run costs one
 * connection instead of three.
 *
 * <p>What does outlive a run is the client built from the kubeconfig (parsed and checked document,
 * credentials, trust store, TLS context): it is kept per shoot namespace while the secret's kubeconfig
 * stays byte for byte the same, and rebuilt when it changes (a rotated token or CA). Its TLS context
 * keeps the server's session ticket, so a run's handshake resumes the session instead of verifying
 * the certificate chain again, where the server allows it. Clients of shoots not probed for
 * {@link #IDLE_EVICTION} are dropped.
 */
public final class KubernetesShootClients implements ShootClients, AutoCloseable {

    /** A client no probe run used for this long is dropped (its shoot was deleted, hibernated, moved). */
    static final Duration IDLE_EVICTION = Duration.ofMinutes(10);

    private final KubeconfigSecrets secrets;
    private final UnaryOperator<ApiClient> tuneShootClient;
    private final ConcurrentHashMap<String, ShootClient> clients = new ConcurrentHashMap<>();
    private volatile long lastEviction = System.nanoTime();

    /** @param newSeedClient makes a new client for the seed; these shoot clients own the ones they take */
    public KubernetesShootClients(Supplier<ApiClient> newSeedClient) {
        this(newSeedClient, UnaryOperator.identity());
    }

    /** @param tuneShootClient applied to every shoot client built (e.g. to meter its requests) */
    public KubernetesShootClients(Supplier<ApiClient> newSeedClient, UnaryOperator<ApiClient> tuneShootClient) {
        this(newSeedClient, tuneShootClient, null);
    }

    /** @param outages where an unreachable seed is reported by the secret watches; null: a log of their own */
    public KubernetesShootClients(Supplier<ApiClient> newSeedClient, UnaryOperator<ApiClient> tuneShootClient,
            OutageLog outages) {
        this.secrets = new KubeconfigSecrets(newSeedClient, outages);
        this.tuneShootClient = tuneShootClient;
    }

    @Override
    public ShootApi open(String namespace, String secretName, Duration callTimeout) {
        if (callTimeout.isNegative() || callTimeout.isZero()) {
            throw new ApiFailure(ApiFailure.Kind.BAD_INPUT,
                    "opening a client for shoot " + namespace + ": the call timeout must be positive, not " + GoDuration.format(callTimeout));
        }
        byte[] kubeconfig = secrets.kubeconfig(namespace, secretName, callTimeout);
        ShootClient client = clients.get(namespace);
        if (client == null || !client.builtFrom(kubeconfig, callTimeout)) {
            client = new ShootClient(kubeconfig, callTimeout, tuneShootClient.apply(
                    ShootKubeconfig.client(kubeconfig, "secret " + namespace + "/" + secretName, callTimeout)));
            ShootClient replaced = clients.put(namespace, client);
            if (replaced != null) {
                replaced.release();
            }
        }
        client.lastUsed = System.nanoTime();
        evictIdleClients();
        return new KubernetesShootApi(namespace, client.api, client.transportForOneRun(), callTimeout);
    }

    /** Whether the secret cache already holds {@code namespace/secretName} (for tests). */
    boolean isCached(String namespace, String secretName) {
        return secrets.cached(namespace, secretName).isPresent();
    }

    /** Shoots with a client kept for their next runs (for tests). */
    int clientsKept() {
        return clients.size();
    }

    private void evictIdleClients() {
        long now = System.nanoTime();
        if (now - lastEviction < TimeUnit.MINUTES.toNanos(1)) {
            return;
        }
        lastEviction = now;
        clients.forEach((namespace, client) -> {
            if (now - client.lastUsed > IDLE_EVICTION.toNanos() && clients.remove(namespace, client)) {
                client.release();
            }
        });
    }

    /** Stops the secret caches and frees every client. */
    @Override
    public void close() {
        secrets.close();
        clients.values().forEach(ShootClient::release);
        clients.clear();
    }

    /** A shoot's client, and what it was built from. */
    private static final class ShootClient {
        final byte[] kubeconfig;
        final Duration callTimeout;
        final ApiClient api;
        volatile long lastUsed;

        ShootClient(byte[] kubeconfig, Duration callTimeout, ApiClient api) {
            this.kubeconfig = kubeconfig;
            this.callTimeout = callTimeout;
            this.api = api;
        }

        boolean builtFrom(byte[] document, Duration timeout) {
            return callTimeout.equals(timeout) && Arrays.equals(kubeconfig, document);
        }

        /**
         * The client's settings (TLS context, credentials, timeouts, interceptors) with a connection pool
         * of its own: at most one connection, closed when the run ends ({@link KubernetesShootApi#close()}).
         */
        OkHttpClient transportForOneRun() {
            return api.getHttpClient().newBuilder()
                    .connectionPool(new ConnectionPool(1, 5, TimeUnit.MINUTES))
                    .build();
        }

        void release() {
            OwnedClients.release(api);
        }
    }
}
