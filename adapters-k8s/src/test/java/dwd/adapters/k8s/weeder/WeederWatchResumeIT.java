package dwd.adapters.k8s.weeder;

import static dwd.adapters.k8s.weeder.ControlPlaneObjects.KUBE_APISERVER_LABELS;
import static dwd.adapters.k8s.weeder.WeederHarness.ETCD_MAIN_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.ApiClients;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/**
 * Pod watches the server ends after 3 s (they ask for it, as every watch asks for its end, here much
 * sooner than a minute): the weeder's pod watch resumes and still catches a crash-loop.
 */
@WithLocalControlPlane
class WeederWatchResumeIT {

    /** The weeder's watch client, its pod watches asking the server to end them after 3 s. */
    private static ApiClient shortPodWatches(LocalControlPlane controlPlane) {
        return ApiClients.intercepting(chain -> {
            HttpUrl url = chain.request().url();
            if ("true".equals(url.queryParameter("watch")) && url.encodedPath().endsWith("/pods")) {
                return chain.proceed(chain.request().newBuilder()
                        .url(url.newBuilder().setQueryParameter("timeoutSeconds", "3").build()).build());
            }
            return chain.proceed(chain.request());
        }).apply(WeederHarness.watchClient(controlPlane));
    }

    @Test
    void aPodWatchClosedByTheServerIsResumedAndALaterCrashLoopIsStillCaught(LocalControlPlane controlPlane) {
        var objects = new ControlPlaneObjects(controlPlane.apiClient());
        String ns = controlPlane.createNamespace("weed-resume");
        String uid = objects.createPod(ns, "kube-apiserver-a", KUBE_APISERVER_LABELS);
        objects.run(ns, "kube-apiserver-a");
        objects.createSlice(ns, "etcd-main-client-x1", ETCD_MAIN_CLIENT, true);
        try (var weeder = new WeederHarness(shortPodWatches(controlPlane), controlPlane.apiClient(),
                WeederHarness.gardenerConfig(Duration.ofMinutes(2))).start()) {
            await().atMost(Duration.ofSeconds(20)).until(() -> weeder.sawPod(ns, "kube-apiserver-a", uid, pod -> true));

            await("the server closed the pod watch twice, and it went on").atMost(Duration.ofSeconds(40))
                    .until(() -> weeder.podWatchRequests() >= 3);
            objects.crashLoop(ns, "kube-apiserver-a");

            await().atMost(Duration.ofSeconds(20)).until(() -> objects.podUid(ns, "kube-apiserver-a").isEmpty());
            assertThat(weeder.deletionsIn(ns)).extracting(WeederHarness.Deletion::uid).containsExactly(uid);
            assertThat(weeder.supervisor.runningWeeders()).contains(ns + "/" + ETCD_MAIN_CLIENT);
        } finally {
            objects.close();
        }
    }
}
