package dwd.adapters.k8s.weeder;

import static dwd.adapters.k8s.weeder.ControlPlaneObjects.ETCD_MAIN_LABELS;
import static dwd.adapters.k8s.weeder.ControlPlaneObjects.KUBE_APISERVER_LABELS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.ApiClients;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.TestWatchReports;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.application.port.out.PodWatch;
import dwd.domain.selector.LabelSelector;
import dwd.domain.selector.Requirement;
import dwd.domain.weeding.CrashLoop;
import dwd.domain.weeding.PodState;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** List-then-watch of pods by selector on the real API server. */
@WithLocalControlPlane
class KubernetesPodWatchesIT {

    private static final LabelSelector APISERVER_PODS = LabelSelector.of(Map.of(),
            Requirement.in("gardener.cloud/role", "controlplane"), Requirement.in("role", "apiserver"));

    private final LocalControlPlane controlPlane;
    private final ControlPlaneObjects objects;
    private final WatchReports reports = TestWatchReports.create();
    /** The pod lists and watches the adapter sent. */
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final KubernetesPodWatches watches;

    KubernetesPodWatchesIT(LocalControlPlane controlPlane) {
        this.controlPlane = controlPlane;
        this.objects = new ControlPlaneObjects(controlPlane.apiClient());
        this.watches = new KubernetesPodWatches(counted(WeederHarness.watchClient(controlPlane)), reports);
    }

    /** {@code client}, noting each request it sends as {@code list} or {@code watch}. */
    private ApiClient counted(ApiClient client) {
        return ApiClients.intercepting(chain -> {
            requests.add("true".equals(chain.request().url().queryParameter("watch")) ? "watch" : "list");
            return chain.proceed(chain.request());
        }).apply(client);
    }

    /** Whether a pod watch runs: one that was closed leaves the registry when its thread has ended. */
    private boolean anyRunning() {
        return reports.running().oldest("pods").isPresent();
    }

    @Test
    void existingAndLaterPodsOfTheSelectorAreReportedAndOthersAreNot() {
        String ns = controlPlane.createNamespace("watch-select");
        String existing = objects.createPod(ns, "kube-apiserver-a", KUBE_APISERVER_LABELS);
        objects.createPod(ns, "etcd-main-0", ETCD_MAIN_LABELS);
        List<PodState> seen = new CopyOnWriteArrayList<>();

        try (PodWatch watch = watches.watch(ns, APISERVER_PODS, seen::add)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> seen.stream().anyMatch(pod -> pod.uid().equals(existing)));
            String later = objects.createPod(ns, "kube-apiserver-b", KUBE_APISERVER_LABELS);
            objects.crashLoop(ns, "kube-apiserver-b");

            await().atMost(Duration.ofSeconds(10)).until(() -> seen.stream()
                    .anyMatch(pod -> pod.uid().equals(later) && CrashLoop.isCrashLooping(pod)));
            assertThat(seen).extracting(PodState::name).doesNotContain("etcd-main-0");
            assertThat(seen).allSatisfy(pod -> assertThat(pod.namespace()).isEqualTo(ns));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> !anyRunning());
    }

    @Test
    void closingManyWatchesEndsTheirThreadsPromptly() {
        String ns = controlPlane.createNamespace("watch-close");
        List<PodWatch> open = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            open.add(watches.watch(ns, APISERVER_PODS, pod -> { }));
        }
        await("each listed and watching").atMost(Duration.ofSeconds(10))
                .until(() -> requests.stream().filter("watch"::equals).count() == 50);

        open.forEach(PodWatch::close);

        await().atMost(Duration.ofSeconds(5)).until(() -> !anyRunning());
        assertThat(requests).as("none went on after a failure or an end").hasSize(100);
    }

    @Test
    void closingTheAdapterClosesEveryWatch() {
        String ns = controlPlane.createNamespace("watch-close-all");
        for (int i = 0; i < 5; i++) {
            watches.watch(ns, APISERVER_PODS, pod -> { });
        }

        watches.close();

        await().atMost(Duration.ofSeconds(5)).until(() -> !anyRunning());
    }

    @Test
    void aWatchThatCannotReachTheServerRetriesUntilClosed() {
        var client = counted(WeederHarness.watchClient(controlPlane).setBasePath("https://127.0.0.1:1"));
        var unreachable = new KubernetesPodWatches(client, reports);

        PodWatch watch = unreachable.watch("any", APISERVER_PODS, pod -> { });
        await("listed again and again, with back-off").atMost(Duration.ofSeconds(10)).until(() -> requests.size() >= 4);
        assertThat(anyRunning()).isTrue();
        watch.close();

        await().atMost(Duration.ofSeconds(5)).until(() -> !anyRunning());
    }

    @Test
    void aClientWithAReadTimeoutIsRefused() {
        assertThatThrownBy(() -> new KubernetesPodWatches(controlPlane.newApiClient(Duration.ofSeconds(5)), reports))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("read timeout 0");
    }
}
