package dwd.adapters.k8s.prober;

import dwd.domain.config.GoDuration;
import dwd.adapters.k8s.watch.OutageLog;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ShootApi;
import dwd.application.port.out.ShootClients;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Builds a client for a shoot's API server from the {@code kubeconfig} of its access secret in the
 * seed, anew for every probe run: bounded by the probe timeout, and with no connection kept between
 * runs (the original's remedy for probes that rode on dead connections and scaled down wrongly).
 */
public final class KubernetesShootClients implements ShootClients, AutoCloseable {

    private final KubeconfigSecrets secrets;
    private final UnaryOperator<ApiClient> tuneShootClient;

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
        ApiClient client = tuneShootClient.apply(
                ShootKubeconfig.client(kubeconfig, "secret " + namespace + "/" + secretName, callTimeout));
        return new KubernetesShootApi(namespace, client, callTimeout);
    }

    /** Whether the secret cache already holds {@code namespace/secretName} (for tests). */
    boolean isCached(String namespace, String secretName) {
        return secrets.cached(namespace, secretName).isPresent();
    }

    /** Stops the secret caches and frees their clients. */
    @Override
    public void close() {
        secrets.close();
    }
}
