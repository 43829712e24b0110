package dwd.adapters.k8s.prober;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.JsonCalls;
import dwd.adapters.k8s.JsonFields;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ShootApi;
import dwd.domain.config.GoDuration;
import dwd.domain.lease.Node;
import dwd.domain.lease.NodeCondition;
import dwd.domain.lease.NodeLease;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.VersionApi;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import okhttp3.Call;
import okhttp3.OkHttpClient;

/**
 * Reads of one shoot's API server for one probe run: requests are built by the shoot's client and
 * sent through the shoot's transport, which keeps at most one connection between runs. Responses
 * are read as plain JSON, never through client-java's strict models: a shoot may run a newer
 * Kubernetes than client-java knows, and a new field on Node must not stop the probe.
 *
 * <p>A run never depends on a connection kept from an earlier run: when the run starts with one, its
 * first request is the liveness check of that connection and gets at most {@link #LIVENESS_BOUND};
 * if it times out or the connection fails, the connection is dropped and the request is sent again
 * on a new connection with the run's full timeout. A run that fails in any way drops its connection,
 * so the next run starts on a new one.
 */
final class KubernetesShootApi implements ShootApi {

    static final String NODE_LEASE_NAMESPACE = "kube-node-lease";
    /** Lists are read in pages, so a large shoot's nodes are never all in memory as JSON at once. */
    static final int PAGE_SIZE = 500;

    /**
     * How long the first request of a run may take on a connection kept from an earlier run before
     * that connection is given up for a new one. A live API server answers {@code /version} in
     * milliseconds; a connection that broke silently (a load balancer dropped it) would otherwise
     * hold the run for its whole timeout.
     */
    static final Duration LIVENESS_BOUND = Duration.ofSeconds(2);

    private final ApiClient client;
    private final OkHttpClient transport;
    private final KeptConnection kept;
    private final Duration timeout;
    private final String shoot;
    /** True until the run's first request was answered, when the run began on a kept connection. */
    private boolean keptConnectionUnproven;
    private boolean failed;

    /**
     * @param client    builds the requests (server, credentials) and reads the answers
     * @param transport sends them
     * @param kept      the connection the transport keeps for the shoot: kept for the next run unless
     *                  this one fails ({@link #close()})
     */
    KubernetesShootApi(String namespace, ApiClient client, OkHttpClient transport, KeptConnection kept,
            Duration timeout) {
        this.client = client;
        this.transport = transport;
        this.kept = kept;
        this.timeout = timeout;
        this.shoot = "shoot " + namespace + " (" + client.getBasePath() + ")";
        this.keptConnectionUnproven = kept.open();
    }

    @Override
    public String version() {
        String action = shoot + ": GET /version";
        JsonObject version = send(action, () -> new VersionApi(client).getCode().buildCall(null), timeout);
        return JsonFields.string(version, "gitVersion")
                .orElseThrow(() -> new ApiFailure(ApiFailure.Kind.INVALID, action + ": the answer has no gitVersion"));
    }

    @Override
    public List<Node> nodes() {
        CoreV1Api core = new CoreV1Api(client);
        return listAll(shoot + ": listing nodes",
                token -> core.listNode().limit(PAGE_SIZE)._continue(token).buildCall(null),
                KubernetesShootApi::toNode);
    }

    @Override
    public List<NodeLease> nodeLeases() {
        CoordinationV1Api coordination = new CoordinationV1Api(client);
        return listAll(shoot + ": listing leases in " + NODE_LEASE_NAMESPACE,
                token -> coordination.listNamespacedLease(NODE_LEASE_NAMESPACE).limit(PAGE_SIZE)._continue(token)
                        .buildCall(null),
                KubernetesShootApi::toLease);
    }

    /** Ends the run: a failed run closes its connection, a successful one leaves it for the next run. */
    @Override
    public void close() {
        if (failed) {
            kept.close();
        }
    }

    /**
     * Sends the call that {@code build} makes through the shoot's transport within {@code bound}. The
     * run's first request on a kept connection gets {@link #LIVENESS_BOUND}; a timeout or a broken
     * connection then costs that connection, and the request is sent again on a new one.
     */
    private JsonObject send(String action, CallBuilder build, Duration bound) {
        try {
            if (keptConnectionUnproven) {
                keptConnectionUnproven = false;
                Duration liveness = bound.compareTo(LIVENESS_BOUND) < 0 ? bound : LIVENESS_BOUND;
                try {
                    return ApiFailures.call(action, () -> JsonCalls.execute(onTransport(build.call()), liveness));
                } catch (ApiFailure failure) {
                    if (!failure.is(ApiFailure.Kind.TIMEOUT) && !failure.is(ApiFailure.Kind.UNAVAILABLE)) {
                        throw failure;
                    }
                    kept.close();
                }
            }
            return ApiFailures.call(action, () -> JsonCalls.execute(onTransport(build.call()), bound));
        } catch (ApiFailure failure) {
            failed = true;
            throw failure;
        }
    }

    private Call onTransport(Call built) {
        return transport.newCall(built.request());
    }

    /** Builds a call with the shoot's client (server, credentials), not yet sent. */
    @FunctionalInterface
    private interface CallBuilder {
        Call call() throws ApiException;
    }

    /** Builds the call for one page, given the continue token of the previous page (null for the first). */
    @FunctionalInterface
    private interface PageCall {
        Call page(String continueToken) throws ApiException;
    }

    /** Every item of a paged list; all pages together take at most {@link #timeout}. */
    private <T> List<T> listAll(String action, PageCall pageCall, Function<JsonObject, T> map) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<T> items = new ArrayList<>();
        String token = null;
        do {
            Duration remaining = Duration.ofNanos(deadline - System.nanoTime());
            if (remaining.isNegative() || remaining.isZero()) {
                failed = true;
                throw new ApiFailure(ApiFailure.Kind.TIMEOUT,
                        action + ": timed out: not all pages arrived within " + GoDuration.format(timeout));
            }
            String continueToken = token;
            JsonObject page = send(action, () -> pageCall.page(continueToken), remaining);
            for (JsonObject item : JsonFields.objects(page, "items")) {
                items.add(map.apply(item));
            }
            token = JsonFields.string(page, "metadata", "continue").filter(next -> !next.isEmpty()).orElse(null);
        } while (token != null);
        return items;
    }

    static Node toNode(JsonObject node) {
        List<NodeCondition> conditions = JsonFields.objects(node, "status", "conditions").stream()
                .map(condition -> new NodeCondition(
                        JsonFields.string(condition, "type").orElse(""),
                        JsonFields.string(condition, "status").orElse(""),
                        JsonFields.string(condition, "reason").orElse("")))
                .toList();
        return new Node(
                JsonFields.string(node, "metadata", "name").orElse(""),
                JsonFields.stringMap(node, "metadata", "labels"),
                JsonFields.stringMap(node, "metadata", "annotations"),
                conditions);
    }

    /** A lease; a renewTime that is missing or not a time reads as none, which makes the lease no candidate. */
    static NodeLease toLease(JsonObject lease) {
        Optional<Instant> renewTime = JsonFields.string(lease, "spec", "renewTime").flatMap(text -> {
            try {
                return Optional.of(OffsetDateTime.parse(text).toInstant());
            } catch (DateTimeParseException notATime) {
                return Optional.empty();
            }
        });
        return new NodeLease(JsonFields.string(lease, "metadata", "name").orElse(""), renewTime);
    }
}
