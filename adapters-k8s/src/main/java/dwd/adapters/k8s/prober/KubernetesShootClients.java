package dwd.adapters.k8s.prober;

import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.NodeLeaseWatch;
import dwd.domain.lease.NodeLease;
import dwd.application.port.out.ShootApi;
import dwd.application.port.out.ShootClients;
import dwd.domain.config.GoDuration;
import io.kubernetes.client.openapi.ApiClient;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import okhttp3.ConnectionPool;
import okhttp3.Dns;
import okhttp3.OkHttpClient;

/**
 * Clients for the shoots' API servers, from the {@code kubeconfig} of each shoot's access secret in
 * the seed.
 *
 * <p>Per shoot, one client is kept while the secret's kubeconfig stays byte for byte the same (parsed
 * and checked document, credentials, trust store, TLS context), and rebuilt when it changes (a
 * rotated token or CA). Its transport keeps at most one connection (HTTP/1.1, so no two requests
 * share it at once) from one probe run to the next: a run in the steady state opens no connection
 * and does no TLS handshake. The original opens a connection per request so that a broken one can
 * never fail a probe; here a run proves a kept connection with its first request, within
 * {@link KubernetesShootApi#LIVENESS_BOUND}, and moves to a new connection if that fails; a failed
 * run drops its connection; a connection idle for {@link #KEPT_CONNECTION_IDLE_LIMIT} is closed. A
 * new connection resumes the TLS session kept in the client's TLS context where the server allows
 * it. Clients of shoots not probed for {@link #IDLE_EVICTION} are dropped.
 */
public final class KubernetesShootClients implements ShootClients, AutoCloseable {

    private static final Logger LOG = LogManager.getLogger();

    /** A client no probe run used for this long is dropped (its shoot was deleted, hibernated, moved). */
    static final Duration IDLE_EVICTION = Duration.ofMinutes(10);

    /**
     * A connection no run used for this long is closed rather than kept: longer than a probe interval
     * with its jitter (Gardener: 30 s + 20 %), shorter than the idle timeouts of common load balancers.
     */
    static final Duration KEPT_CONNECTION_IDLE_LIMIT = Duration.ofSeconds(90);

    /**
     * At most this many shoots' node leases are followed at once (each poll holds a connection and a virtual
     * thread); beyond it a scaled-down shoot's recovery waits for its next probe run, as without a poll.
     */
    static final int MAX_LEASE_POLLS = 1_000;

    /** A followed shoot's leases are listed this often, while few shoots are followed. */
    static final Duration LEASE_POLL_INTERVAL = Duration.ofMillis(500);

    /** All polls together list at most this many times a second: with more shoots followed, each lists less often. */
    static final int LEASE_LISTS_PER_SECOND = 200;

    /** Far above any seed's shoot count: the pools never close a kept connection for lack of room. */
    private static final int MAX_KEPT_CONNECTIONS_PER_POOL = 100_000;

    /**
     * Shoots share this many connection pools. OkHttp's pool looks through all of its connections
     * for every request and at every clean-up (after every run): one pool for 10,000 shoots made
     * those scans three quarters of the prober's CPU. A pool for each shoot gives every shoot a
     * clean-up task of its own in OkHttp's task runner, whose scheduling grows with their number
     * (a fifth of the CPU at 2,500 shoots). 256 pools keep both small: about 40 connections a pool
     * at 10,000 shoots.
     */
    static final int POOLS = 256;

    private final KubeconfigSecrets secrets;
    private final UnaryOperator<ApiClient> tuneShootClient;
    private final ConcurrentHashMap<String, ShootClient> clients = new ConcurrentHashMap<>();
    /**
     * Connections are never shared between shoots: a pooled connection is matched by address, and
     * every shoot's transport has a name resolver of its own, which makes its addresses its own even
     * where two shoots name the same server.
     */
    private final ConnectionPool[] pools = new ConnectionPool[POOLS];
    private volatile long lastEviction = System.nanoTime();
    private final java.util.Set<ShootLeasePoll> leasePolls = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicBoolean leasePollLimitLogged = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * @param newSeedClient   makes a new client for the seed; these shoot clients own the ones they take
     * @param tuneShootClient applied to every shoot client built (e.g. to meter its requests)
     * @param reports         where the secret watches report an unreachable seed and that they run
     */
    public KubernetesShootClients(Supplier<ApiClient> newSeedClient, UnaryOperator<ApiClient> tuneShootClient,
            WatchReports reports) {
        this.secrets = new KubeconfigSecrets(newSeedClient, reports);
        this.tuneShootClient = tuneShootClient;
        for (int i = 0; i < POOLS; i++) {
            pools[i] = new ConnectionPool(MAX_KEPT_CONNECTIONS_PER_POOL, KEPT_CONNECTION_IDLE_LIMIT.toSeconds(),
                    TimeUnit.SECONDS);
        }
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
                    ShootKubeconfig.client(kubeconfig, "secret " + namespace + "/" + secretName, callTimeout)),
                    pools[Math.floorMod(namespace.hashCode(), POOLS)]);
            ShootClient replaced = clients.put(namespace, client);
            if (replaced != null) {
                replaced.release();
            }
        }
        client.lastUsed = System.nanoTime();
        evictIdleClients();
        ShootClient used = client;
        return new KubernetesShootApi(namespace, client.api, client.transport, client.kept, callTimeout,
                (listed, changed) -> followLeases(namespace, used, callTimeout, listed, changed));
    }

    private NodeLeaseWatch followLeases(String namespace, ShootClient client, Duration listTimeout,
            List<NodeLease> listed, Runnable changed) {
        if (leasePolls.size() >= MAX_LEASE_POLLS) {
            if (leasePollLimitLogged.compareAndSet(false, true)) {
                LOG.warn("the node leases of " + MAX_LEASE_POLLS + " scaled-down shoots"
                        + " are followed, the most at once: " + namespace + " and further shoots recover at their next"
                        + " probe run (logged once)");
            }
            return NodeLeaseWatch.NONE;
        }
        var ended = new java.util.concurrent.atomic.AtomicReference<ShootLeasePoll>();
        var poll = new ShootLeasePoll("shoot " + namespace, client.api, client.api.getHttpClient(), listTimeout, listed,
                () -> leasePollInterval(leasePolls.size()), changed, () -> leasePolls.remove(ended.get()));
        ended.set(poll);
        leasePolls.add(poll);
        return poll.start();
    }

    /**
     * {@link #LEASE_POLL_INTERVAL} while {@code followed} shoots are followed, widened so that all polls together
     * stay within {@link #LEASE_LISTS_PER_SECOND}.
     */
    static Duration leasePollInterval(int followed) {
        long spread = TimeUnit.SECONDS.toMillis(1) * followed / LEASE_LISTS_PER_SECOND;
        return Duration.ofMillis(Math.max(LEASE_POLL_INTERVAL.toMillis(), spread));
    }

    /** Shoots whose node leases are followed now (for tests). */
    int leasePollsOpen() {
        return leasePolls.size();
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
        leasePolls.forEach(ShootLeasePoll::close);
        secrets.close();
        clients.values().forEach(ShootClient::release);
        clients.clear();
        for (ConnectionPool pool : pools) {
            pool.evictAll();
        }
    }

    /** A shoot's client, and what it was built from. */
    private static final class ShootClient {
        final byte[] kubeconfig;
        final Duration callTimeout;
        final ApiClient api;
        /** The client's settings (TLS context, credentials, timeouts, interceptors) on a shared pool. */
        final OkHttpClient transport;
        final KeptConnection kept = new KeptConnection();
        volatile long lastUsed;

        ShootClient(byte[] kubeconfig, Duration callTimeout, ApiClient api, ConnectionPool pool) {
            this.kubeconfig = kubeconfig;
            this.callTimeout = callTimeout;
            this.api = api;
            this.transport = api.getHttpClient().newBuilder()
                    .connectionPool(pool)
                    .dns(new OwnResolver())
                    .addNetworkInterceptor(kept)
                    .build();
        }

        boolean builtFrom(byte[] document, Duration timeout) {
            return callTimeout.equals(timeout) && Arrays.equals(kubeconfig, document);
        }

        /** The system's resolver under an identity of the shoot's own (see {@link #pools}). */
        private static final class OwnResolver implements Dns {
            @Override
            public List<InetAddress> lookup(String hostname) throws UnknownHostException {
                return Dns.SYSTEM.lookup(hostname);
            }
        }

        void release() {
            kept.close();
            OwnedClients.release(api);
        }
    }
}
