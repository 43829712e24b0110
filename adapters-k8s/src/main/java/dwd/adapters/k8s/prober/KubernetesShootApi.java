package dwd.adapters.k8s.prober;

import com.fasterxml.jackson.core.JsonToken;
import com.google.gson.JsonObject;
import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.JsonCalls;
import dwd.adapters.k8s.JsonFields;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.NodeLeaseWatch;
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
import dwd.domain.lease.NodeCandidacy;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import okhttp3.Call;
import okhttp3.OkHttpClient;

/**
 * Reads of one shoot's API server for one probe run: requests are built by the shoot's client and
 * sent through the shoot's transport, which keeps at most one connection between runs. Responses
 * are read as plain JSON, never through client-java's strict models: a shoot may run a newer
 * Kubernetes than client-java knows, and a new field on Node must not stop the probe. Lists are
 * streamed within {@link BoundedList}'s bounds, keeping only what the verdict reads; nothing a
 * shoot answers is held whole.
 *
 * <p>A run never depends on a connection kept from an earlier run: when the run starts with one, its
 * first request is the liveness check of that connection and gets at most {@link #LIVENESS_BOUND};
 * if it times out or the connection fails, the connection is dropped and the request is sent again
 * on a new connection with the run's full timeout. A run that fails in any way drops its connection,
 * so the next run starts on a new one.
 */
final class KubernetesShootApi implements ShootApi {

    static final String NODE_LEASE_NAMESPACE = "kube-node-lease";
    /** A {@code /version} answer is a few hundred bytes. */
    static final long MAX_VERSION_BYTES = 64 * 1024;

    /**
     * How long the first request of a run may take on a connection kept from an earlier run before
     * that connection is given up for a new one. A live API server answers {@code /version} in
     * milliseconds; a connection that broke silently (a load balancer dropped it) would otherwise
     * hold the run for its whole timeout.
     */
    static final Duration LIVENESS_BOUND = Duration.ofSeconds(2);

    /** Starts following the leases from a list this run read. */
    @FunctionalInterface
    interface LeaseWatches {
        NodeLeaseWatch start(List<NodeLease> listed, Runnable changed);
    }

    private final ApiClient client;
    private final OkHttpClient transport;
    private final KeptConnection kept;
    private final LeaseWatches leaseWatches;
    /** What this run's lease list read: where following the leases starts. */
    private List<NodeLease> listedLeases = List.of();
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
     * @param leaseWatches starts {@link #watchNodeLeases} watches
     */
    KubernetesShootApi(String namespace, ApiClient client, OkHttpClient transport, KeptConnection kept,
            Duration timeout, LeaseWatches leaseWatches) {
        this.client = client;
        this.transport = transport;
        this.kept = kept;
        this.leaseWatches = leaseWatches;
        this.timeout = timeout;
        this.shoot = "shoot " + namespace + " (" + client.getBasePath() + ")";
        this.keptConnectionUnproven = kept.open();
    }

    @Override
    public String version() {
        String action = shoot + ": GET /version";
        JsonObject version = send(action, () -> new VersionApi(client).getCode().buildCall(null), timeout,
                sent -> JsonCalls.execute(sent.call(), sent.timeout(), MAX_VERSION_BYTES));
        return JsonFields.string(version, "gitVersion")
                .orElseThrow(() -> new ApiFailure(ApiFailure.Kind.INVALID, action + ": the answer has no gitVersion"));
    }

    @Override
    public List<Node> nodes() {
        CoreV1Api core = new CoreV1Api(client);
        return listAll(new BoundedList<>("nodes", KubernetesShootApi::readNode),
                token -> core.listNode().limit(BoundedList.PAGE_SIZE)._continue(token).buildCall(null));
    }

    @Override
    public List<NodeLease> nodeLeases() {
        CoordinationV1Api coordination = new CoordinationV1Api(client);
        var list = new BoundedList<>("leases in " + NODE_LEASE_NAMESPACE, KubernetesShootApi::readLease);
        listedLeases = listAll(list, token -> coordination.listNamespacedLease(NODE_LEASE_NAMESPACE).limit(BoundedList.PAGE_SIZE)
                ._continue(token).buildCall(null));
        return listedLeases;
    }

    /** From this run's lease list, by lists on a connection of its own ({@link ShootLeasePoll}). */
    @Override
    public NodeLeaseWatch watchNodeLeases(Runnable changed) {
        return leaseWatches.start(listedLeases, changed);
    }

    /** Ends the run: a failed run closes its connection, a successful one leaves it for the next run. */
    @Override
    public void close() {
        if (failed) {
            kept.close();
        }
    }

    /**
     * Sends the call that {@code build} makes through the shoot's transport within {@code bound} and
     * reads the answer with {@code read}. The run's first request on a kept connection gets
     * {@link #LIVENESS_BOUND}; a timeout or a broken connection then costs that connection, and the
     * request is sent again on a new one.
     */
    private <R> R send(String action, CallBuilder build, Duration bound, Exchange<R> read) {
        try {
            if (keptConnectionUnproven) {
                keptConnectionUnproven = false;
                Duration liveness = bound.compareTo(LIVENESS_BOUND) < 0 ? bound : LIVENESS_BOUND;
                try {
                    return ApiFailures.call(action, () -> read.exchange(new Sent(onTransport(build.call()), liveness)));
                } catch (ApiFailure failure) {
                    if (!failure.is(ApiFailure.Kind.TIMEOUT) && !failure.is(ApiFailure.Kind.UNAVAILABLE)) {
                        throw failure;
                    }
                    kept.close();
                }
            }
            return ApiFailures.call(action, () -> read.exchange(new Sent(onTransport(build.call()), bound)));
        } catch (ApiFailure failure) {
            failed = true;
            throw failure;
        }
    }

    /** A call ready to go on the shoot's transport, and how long it may take. */
    private record Sent(Call call, Duration timeout) { }

    /** Executes a {@link Sent} call and reads its answer. */
    @FunctionalInterface
    private interface Exchange<R> {
        R exchange(Sent sent) throws ApiException, IOException;
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

    /** Every item of a paged list; all pages together take at most {@link #timeout}, within the list's bounds. */
    private <T> List<T> listAll(BoundedList<T> list, PageCall pageCall) {
        String action = shoot + ": listing " + list.what();
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<String> token = Optional.empty();
        do {
            Duration remaining = Duration.ofNanos(deadline - System.nanoTime());
            if (remaining.isNegative() || remaining.isZero()) {
                failed = true;
                throw new ApiFailure(ApiFailure.Kind.TIMEOUT,
                        action + ": timed out: not all pages arrived within " + GoDuration.format(timeout));
            }
            String continueToken = token.orElse(null);
            token = send(action, () -> pageCall.page(continueToken), remaining, sent -> {
                list.beforeNextPage();
                return JsonCalls.execute(sent.call(), sent.timeout(), list::readPage);
            });
        } while (token.isPresent());
        return list.items();
    }

    /** A node, with what its candidacy reads: its name, pool label, the one annotation and the conditions that can exclude it. */
    static Node readNode(BoundedList.Fields node) throws IOException {
        String name = "";
        Map<String, String> labels = Map.of();
        Map<String, String> annotations = Map.of();
        List<NodeCondition> conditions = new ArrayList<>();
        while (node.next()) {
            switch (node.name()) {
                case "metadata" -> {
                    Optional<BoundedList.Fields> metadata = node.object();
                    while (metadata.isPresent() && metadata.get().next()) {
                        BoundedList.Fields field = metadata.get();
                        switch (field.name()) {
                            case "name" -> name = field.text().orElse("");
                            case "labels" -> labels = only(field, NodeCandidacy.WORKER_POOL_LABEL);
                            case "annotations" -> annotations = only(field, NodeCandidacy.NOT_MANAGED_BY_MCM_ANNOTATION);
                            default -> field.skip();
                        }
                    }
                }
                case "status" -> {
                    Optional<BoundedList.Fields> status = node.object();
                    while (status.isPresent() && status.get().next()) {
                        if (status.get().name().equals("conditions")) {
                            readConditions(status.get(), conditions);
                        } else {
                            status.get().skip();
                        }
                    }
                }
                default -> node.skip();
            }
        }
        return new Node(name, labels, annotations, conditions);
    }

    private static void readConditions(BoundedList.Fields status, List<NodeCondition> conditions) throws IOException {
        if (!status.isArray()) {
            status.skip();
            return;
        }
        while (status.parser().nextToken() != JsonToken.END_ARRAY) {
            Optional<BoundedList.Fields> fields = status.object();
            String type = "";
            String value = "";
            String reason = "";
            while (fields.isPresent() && fields.get().next()) {
                BoundedList.Fields field = fields.get();
                switch (field.name()) {
                    case "type" -> type = field.text().orElse("");
                    case "status" -> value = field.text().orElse("");
                    case "reason" -> reason = field.text().orElse("");
                    default -> field.skip();
                }
            }
            var condition = new NodeCondition(type, value, reason);
            if (fields.isPresent() && NodeCandidacy.canExclude(condition)) {
                conditions.add(condition);
            }
        }
    }

    /** Of a string map (labels, annotations), the entry under {@code key}; every other entry is skipped unread. */
    private static Map<String, String> only(BoundedList.Fields field, String key) throws IOException {
        Optional<BoundedList.Fields> map = field.object();
        Map<String, String> kept = Map.of();
        while (map.isPresent() && map.get().next()) {
            if (map.get().name().equals(key)) {
                Optional<String> value = map.get().text();
                if (value.isPresent()) {
                    kept = Map.of(key, value.get());
                }
            } else {
                map.get().skip();
            }
        }
        return kept;
    }

    /** A lease; a renewTime that is missing or not a time reads as none, which makes the lease no candidate. */
    static NodeLease readLease(BoundedList.Fields lease) throws IOException {
        String name = "";
        Optional<Instant> renewTime = Optional.empty();
        while (lease.next()) {
            switch (lease.name()) {
                case "metadata" -> name = field(lease, "name").orElse("");
                case "spec" -> renewTime = field(lease, "renewTime").flatMap(KubernetesShootApi::instant);
                default -> lease.skip();
            }
        }
        return new NodeLease(name, renewTime);
    }

    /** The string field {@code name} of the object that is the current value; every other field is skipped unread. */
    private static Optional<String> field(BoundedList.Fields parent, String name) throws IOException {
        Optional<BoundedList.Fields> object = parent.object();
        Optional<String> value = Optional.empty();
        while (object.isPresent() && object.get().next()) {
            if (object.get().name().equals(name)) {
                value = object.get().text();
            } else {
                object.get().skip();
            }
        }
        return value;
    }

    static Optional<Instant> instant(String text) {
        try {
            return Optional.of(OffsetDateTime.parse(text).toInstant());
        } catch (DateTimeParseException notATime) {
            return Optional.empty();
        }
    }
}
