package dwd.adapters.k8s.weeder;

import dwd.adapters.k8s.ApiFailures;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Pods;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1Preconditions;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Deletes pods with a UID precondition through client-java. A pod already gone (404) or replaced by
 * another incarnation (409, precondition failed) is an outcome, not an error.
 */
public final class KubernetesPods implements Pods {

    private static final Logger LOG = LogManager.getLogger();
    private static final String DRY_RUN_ALL = "All";

    private final ApiClient client;
    private final CoreV1Api core;
    private final boolean serverDryRun;

    /**
     * @param client a request client with bounded timeouts (connect, read, write)
     */
    public KubernetesPods(ApiClient client) {
        this(client, false);
    }

    private KubernetesPods(ApiClient client, boolean serverDryRun) {
        this.client = client;
        this.core = new CoreV1Api(client);
        this.serverDryRun = serverDryRun;
        prepare();
    }

    /**
     * Builds one deletion without sending it: the first real one, maybe hours later when a service
     * recovers, then finds client-java's request builder and the options' JSON adapters loaded.
     */
    private void prepare() {
        try {
            deletion("default", "dwd-never-sent", "00000000-0000-0000-0000-000000000000");
        } catch (ApiException | RuntimeException e) {
            LOG.debug(() -> "preparing the pod deletion request failed: " + e);
        }
    }

    /** Builds a deletion again, sending nothing: repeated, it gets this code compiled. */
    public void rehearse() {
        prepare();
    }

    private okhttp3.Call deletion(String namespace, String name, String uid) throws ApiException {
        // With a body the server reads the options from it only, so dryRun goes into the body too.
        var options = new V1DeleteOptions().preconditions(new V1Preconditions().uid(uid));
        if (serverDryRun) {
            options.dryRun(List.of(DRY_RUN_ALL));
        }
        return core.deleteNamespacedPod(name, namespace).body(options).buildCall(null);
    }

    /** Shadow mode {@code server}: every deletion is sent with {@code dryRun=All}, so nothing is persisted. */
    public static KubernetesPods serverDryRun(ApiClient client) {
        return new KubernetesPods(client, true);
    }

    @Override
    public boolean dryRunWrites() {
        return serverDryRun;
    }

    @Override
    public Deletion delete(String namespace, String name, String uid) {
        try {
            // The answer is not read: a pod model newer than the client must not turn a done deletion into an error.
            client.execute(deletion(namespace, name, uid));
            return Deletion.DELETED;
        } catch (ApiException e) {
            ApiFailure failure = ApiFailures.translate("deleting pod " + namespace + "/" + name, e);
            return switch (failure.kind()) {
                case NOT_FOUND -> Deletion.ALREADY_GONE;
                case CONFLICT -> Deletion.REPLACED; // the UID precondition failed: a replacement bears the name
                default -> throw failure;
            };
        }
    }
}
