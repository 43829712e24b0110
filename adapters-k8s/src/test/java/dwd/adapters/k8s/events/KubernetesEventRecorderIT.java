package dwd.adapters.k8s.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.ApiClients;
import dwd.adapters.k8s.RequestMetering;
import dwd.adapters.k8s.leader.LeaderOnlyWrites;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.adapters.k8s.watch.OutageLog;
import dwd.application.port.out.ApiTraffic;
import dwd.application.port.out.EventRecorder;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

/**
 * The Event writer's question "may this identity create Events in all namespaces?" on the real API
 * server, asked by an identity without that grant (the admin impersonating a user RBAC grants nothing):
 * a standby asks it through the leadership fence, and a review that failed is asked again until the
 * server says no; then Events are off and none is sent.
 */
@WithLocalControlPlane
class KubernetesEventRecorderIT {

    private static final String NOBODY = "dwd-it-no-events";
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final ApiTraffic traffic = (target, verb, code) -> requests.add(verb + " " + code);

    @Test
    void aStandbyAsksThroughTheLeadershipFenceAndFindsEventsOff(LocalControlPlane controlPlane) {
        try (var recorder = recorder(() -> standbyClient(controlPlane))) {
            recorder.record(event());

            await("the Event counted as not sent").atMost(DEADLINE).until(() -> recorder.off() == 1);
            assertThat(requests).as("one review, answered; no Event sent or refused").containsExactly("create 201");
            assertThat(recorder.failed()).isZero();
        }
    }

    @Test
    void aReviewThatFailedIsAskedAgainUntilTheServerSaysNo(LocalControlPlane controlPlane) {
        var reviews = new AtomicInteger();
        try (var recorder = recorder(() -> ApiClients.intercepting(chain -> reviews.incrementAndGet() == 1
                ? notFound(chain.request()) : chain.proceed(chain.request())).apply(standbyClient(controlPlane)))) {
            await("Events found off on a later review").atMost(DEADLINE).pollInterval(Duration.ofMillis(200)).until(() -> {
                recorder.record(event());
                return recorder.off() > 0;
            });
            assertThat(reviews).as("asked again after the failed review").hasValueGreaterThanOrEqualTo(2);
        }
    }

    private KubernetesEventRecorder recorder(Supplier<ApiClient> newClient) {
        return new KubernetesEventRecorder(newClient, "dependency-watchdog.gardener.cloud/prober", "dwd-it", 16,
                new OutageLog("seed API server"));
    }

    /** As a standby's seed clients are: metered, fenced by a Lease it does not hold; acting as a user without Events. */
    private ApiClient standbyClient(LocalControlPlane controlPlane) {
        ApiClient client = controlPlane.newApiClient(Duration.ofSeconds(10));
        client.addDefaultHeader("Impersonate-User", NOBODY);
        RequestMetering.as("seed", traffic).apply(client);
        return LeaderOnlyWrites.of(() -> false, "garden/dwd-prober-leader-election").apply(client);
    }

    private static Response notFound(okhttp3.Request request) {
        return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(404).message("Not Found")
                .body(ResponseBody.create("{}", MediaType.get("application/json"))).build();
    }

    private static EventRecorder.Event event() {
        return new EventRecorder.Event(new EventRecorder.ObjectRef("apps/v1", "Deployment", "shoot--dev--a",
                "kube-controller-manager"), EventRecorder.Type.NORMAL, "ScaledDown", "Scale", "Scaled down from 1 to 0");
    }
}
