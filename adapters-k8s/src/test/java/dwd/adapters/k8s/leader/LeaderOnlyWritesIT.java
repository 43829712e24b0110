package dwd.adapters.k8s.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.JsonCalls;
import dwd.adapters.k8s.RequestMetering;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ApiTraffic;
import dwd.adapters.k8s.testing.TestWatchReports;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A write is sent only while the process leads, asked as it leaves: refused writes reach no server,
 * are not counted as requests, begin no outage, and say why; reads pass.
 */
@WithLocalControlPlane
class LeaderOnlyWritesIT {

    @Test
    void aWriteLeavesOnlyWhileLeadingAndARefusalSaysWhyAndReachesNoServer(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("leader-only");
        var leading = new AtomicBoolean(false);
        List<String> requests = new CopyOnWriteArrayList<>();
        ApiTraffic traffic = new ApiTraffic() {
            @Override
            public void requestCompleted(String target, String verb, int code) {
                requests.add(verb + " " + code);
            }
        };
        ApiClient client = controlPlane.newApiClient(Duration.ofSeconds(10));
        var outages = TestWatchReports.detecting(client).outages();
        RequestMetering.as("seed", traffic).apply(client);
        LeaderOnlyWrites.of(leading::get, "garden/dwd-prober-leader-election").apply(client);
        var core = new CoreV1Api(client);

        ApiFailure refused = catchThrowableOfType(ApiFailure.class, () -> ApiFailures.call("creating ConfigMap a",
                () -> JsonCalls.execute(core.createNamespacedConfigMap(namespace, configMap("a")).buildCall(null),
                        Duration.ofSeconds(10))));
        assertThat(refused.kind()).isEqualTo(ApiFailure.Kind.FORBIDDEN);
        assertThat(refused.getMessage()).isEqualTo("creating ConfigMap a: not sent: this process does not hold the Lease"
                + " garden/dwd-prober-leader-election (now or any more)");
        assertThat(requests).as("no request counted").isEmpty();
        assertThat(outages.inOutage()).as("a refusal says nothing about the server").isFalse();
        assertThat(new CoreV1Api(controlPlane.apiClient()).listNamespacedConfigMap(namespace).execute().getItems())
                .extracting(map -> map.getMetadata().getName()).doesNotContain("a");
        assertThat(core.listNamespacedConfigMap(namespace).execute().getItems()).as("reads pass").isNotNull();

        leading.set(true);
        core.createNamespacedConfigMap(namespace, configMap("a")).execute();
        assertThat(requests).contains("create 201");
    }

    private static V1ConfigMap configMap(String name) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("key", "value"));
    }
}
