package dwd.adapters.k8s.leader;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.JsonCalls;
import dwd.adapters.k8s.JsonFields;
import dwd.adapters.k8s.OwnedClients;
import dwd.application.port.out.ApiFailure;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The lock record in a coordination.k8s.io/v1 Lease, through a client of its own whose every call
 * is bounded below the renew deadline (a hung call must not use up the renewal window, and the
 * lock must not queue behind informers or probes).
 */
public final class KubernetesLeaseStore implements LeaseStore, AutoCloseable {

    private final ApiClient client;
    private final CoordinationV1Api api;
    private final String namespace;
    private final String name;
    private final Duration callTimeout;

    /** @param newSeedClient makes a new client for the seed; this store owns the one it takes */
    public KubernetesLeaseStore(Supplier<ApiClient> newSeedClient, String namespace, String name, Duration callTimeout) {
        this.client = newSeedClient.get();
        this.client.setHttpClient(client.getHttpClient().newBuilder()
                .connectTimeout(callTimeout).readTimeout(callTimeout).writeTimeout(callTimeout).callTimeout(callTimeout)
                .build());
        this.api = new CoordinationV1Api(client);
        this.namespace = namespace;
        this.name = name;
        this.callTimeout = callTimeout;
    }

    @Override
    public Optional<LeaseRecord> get() {
        try {
            JsonObject lease = ApiFailures.call("reading Lease " + describe(),
                    () -> JsonCalls.execute(api.readNamespacedLease(name, namespace).buildCall(null), callTimeout));
            return Optional.of(decode(lease));
        } catch (ApiFailure failure) {
            if (failure.is(ApiFailure.Kind.NOT_FOUND)) {
                return Optional.empty();
            }
            throw failure;
        }
    }

    @Override
    public LeaseRecord create(LeaseRecord record) {
        V1Lease lease = encode(record).metadata(new V1ObjectMeta().name(name).namespace(namespace));
        return decode(ApiFailures.call("creating Lease " + describe(),
                () -> JsonCalls.execute(api.createNamespacedLease(namespace, lease).buildCall(null), callTimeout)));
    }

    @Override
    public LeaseRecord update(LeaseRecord record) {
        V1Lease lease = encode(record).metadata(new V1ObjectMeta().name(name).namespace(namespace)
                .resourceVersion(record.resourceVersion().orElse(null)));
        return decode(ApiFailures.call("updating Lease " + describe(),
                () -> JsonCalls.execute(api.replaceNamespacedLease(name, namespace, lease).buildCall(null),
                        callTimeout)));
    }

    @Override
    public String describe() {
        return namespace + "/" + name;
    }

    @Override
    public void close() {
        OwnedClients.release(client);
    }

    private static V1Lease encode(LeaseRecord record) {
        return new V1Lease().apiVersion("coordination.k8s.io/v1").kind("Lease").spec(new V1LeaseSpec()
                .holderIdentity(record.holderIdentity())
                .leaseDurationSeconds(record.leaseDurationSeconds())
                .acquireTime(record.acquireTime().map(KubernetesLeaseStore::microTime).orElse(null))
                .renewTime(record.renewTime().map(KubernetesLeaseStore::microTime).orElse(null))
                .leaseTransitions(record.leaseTransitions()));
    }

    static LeaseRecord decode(JsonObject lease) {
        return new LeaseRecord(
                JsonFields.string(lease, "spec", "holderIdentity").orElse(""),
                JsonFields.integer(lease, "spec", "leaseDurationSeconds").map(Long::intValue).orElse(0),
                JsonFields.string(lease, "spec", "acquireTime").flatMap(KubernetesLeaseStore::instant),
                JsonFields.string(lease, "spec", "renewTime").flatMap(KubernetesLeaseStore::instant),
                JsonFields.integer(lease, "spec", "leaseTransitions").map(Long::intValue).orElse(0),
                JsonFields.string(lease, "metadata", "resourceVersion"));
    }

    /** MicroTime: client-java writes an OffsetDateTime with exactly six fractional digits. */
    private static OffsetDateTime microTime(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC);
    }

    private static Optional<Instant> instant(String text) {
        try {
            return Optional.of(OffsetDateTime.parse(text).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
