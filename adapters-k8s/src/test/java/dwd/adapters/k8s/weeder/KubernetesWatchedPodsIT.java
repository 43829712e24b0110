package dwd.adapters.k8s.weeder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.comparison.KubernetesWatchedPods;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.TestWatchReports;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.in.WatchedPods;
import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.CrashLoop;
import dwd.domain.weeding.PodState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The comparison's pod watch: a selected pod's versions in any namespace, and its deletion with its last state. */
@WithLocalControlPlane
class KubernetesWatchedPodsIT {

    @Test
    void aCrashLoopingPodsDeletionIsToldWithItsLastStateAndUnselectedPodsAreNot(LocalControlPlane controlPlane) {
        String namespace = controlPlane.createNamespace("shoot--dev--watched-pods");
        var selector = new LabelSelector(ControlPlaneObjects.KUBE_APISERVER_LABELS, List.of());
        var changed = new CopyOnWriteArrayList<PodState>();
        var deleted = new CopyOnWriteArrayList<PodState>();
        var client = OwnedClients.forWatches(() -> controlPlane.newApiClient(Duration.ofSeconds(30)));
        try (var objects = new ControlPlaneObjects(controlPlane.apiClient());
             var watch = new KubernetesWatchedPods(client, Set.of(selector), new WatchedPods() {
                 @Override
                 public void podChanged(LabelSelector by, PodState pod) {
                     assertThat(by).isEqualTo(selector);
                     // The watch spans all namespaces; other tests' pods share the control plane.
                     if (pod.namespace().equals(namespace)) {
                         changed.add(pod);
                     }
                 }

                 @Override
                 public void podDeleted(LabelSelector by, PodState lastSeen) {
                     if (lastSeen.namespace().equals(namespace)) {
                         deleted.add(lastSeen);
                     }
                 }
             }, TestWatchReports.create())) {
            watch.start();
            String uid = objects.createPod(namespace, "kube-apiserver-0", ControlPlaneObjects.KUBE_APISERVER_LABELS);
            objects.createPod(namespace, "etcd-main-0", ControlPlaneObjects.ETCD_MAIN_LABELS);
            objects.crashLoop(namespace, "kube-apiserver-0");
            await("the crash loop seen").atMost(Duration.ofSeconds(30))
                    .until(() -> changed.stream().anyMatch(CrashLoop::isCrashLooping));
            objects.deletePod(namespace, "kube-apiserver-0");

            await("the deletion seen").atMost(Duration.ofSeconds(30)).until(() -> !deleted.isEmpty());
            assertThat(deleted).singleElement().satisfies(pod -> {
                assertThat(pod.uid()).isEqualTo(uid);
                assertThat(pod.beingDeleted()).isTrue();
                assertThat(pod.containers()).as("its last state").singleElement()
                        .satisfies(container -> assertThat(container.waitingReason()).contains("CrashLoopBackOff"));
            });
            assertThat(changed).extracting(PodState::name).containsOnly("kube-apiserver-0");
            assertThat(changed.getLast().beingDeleted()).as("the deletion's first sign: its deletion mark").isTrue();
            assertThat(watch.hasSynced()).isTrue();
        } finally {
            OwnedClients.release(client);
        }
    }
}
