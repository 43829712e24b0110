package dwd.adapters.k8s.weeder;

import static dwd.adapters.k8s.weeder.ControlPlaneObjects.ETCD_MAIN_LABELS;
import static dwd.adapters.k8s.weeder.ControlPlaneObjects.KUBE_APISERVER_LABELS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.PodWatch;
import dwd.domain.selector.LabelSelector;
import dwd.domain.selector.Requirement;
import dwd.domain.weeding.CrashLoop;
import dwd.domain.weeding.PodState;
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
    private final KubernetesPodWatches watches;

    KubernetesPodWatchesIT(LocalControlPlane controlPlane) {
        this.controlPlane = controlPlane;
        this.objects = new ControlPlaneObjects(controlPlane.apiClient());
        this.watches = new KubernetesPodWatches(WeederHarness.watchClient(controlPlane));
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
        await().atMost(Duration.ofSeconds(5)).until(() -> watches.openWatches() == 0);
    }

    @Test
    void closingManyWatchesEndsTheirThreadsPromptly() {
        String ns = controlPlane.createNamespace("watch-close");
        List<PodWatch> open = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            open.add(watches.watch(ns, APISERVER_PODS, pod -> { }));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> watches.openWatches() == 50);

        open.forEach(PodWatch::close);

        await().atMost(Duration.ofSeconds(5)).until(() -> watches.openWatches() == 0);
        assertThat(watches.restarts()).isZero();
    }

    @Test
    void closingTheAdapterClosesEveryWatch() {
        String ns = controlPlane.createNamespace("watch-close-all");
        for (int i = 0; i < 5; i++) {
            watches.watch(ns, APISERVER_PODS, pod -> { });
        }

        watches.close();

        await().atMost(Duration.ofSeconds(5)).until(() -> watches.openWatches() == 0);
    }

    @Test
    void aWatchThatCannotReachTheServerRetriesUntilClosed() {
        var client = WeederHarness.watchClient(controlPlane).setBasePath("https://127.0.0.1:1");
        var unreachable = new KubernetesPodWatches(client, Duration.ofMillis(20), Duration.ofMillis(100));

        PodWatch watch = unreachable.watch("any", APISERVER_PODS, pod -> { });
        await().atMost(Duration.ofSeconds(10)).until(() -> unreachable.restarts() >= 3);
        watch.close();

        await().atMost(Duration.ofSeconds(5)).until(() -> unreachable.openWatches() == 0);
    }

    @Test
    void aClientWithAReadTimeoutIsRefused() {
        assertThatThrownBy(() -> new KubernetesPodWatches(controlPlane.newApiClient(Duration.ofSeconds(5))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("read timeout 0");
    }
}
