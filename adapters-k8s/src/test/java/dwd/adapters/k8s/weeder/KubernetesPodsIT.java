package dwd.adapters.k8s.weeder;

import static dwd.adapters.k8s.weeder.ControlPlaneObjects.KUBE_APISERVER_LABELS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Pods;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Deletion with a UID precondition on the real API server. */
@WithLocalControlPlane
class KubernetesPodsIT {

    private final LocalControlPlane controlPlane;
    private final ControlPlaneObjects objects;
    private final KubernetesPods pods;

    KubernetesPodsIT(LocalControlPlane controlPlane) {
        this.controlPlane = controlPlane;
        this.objects = new ControlPlaneObjects(controlPlane.apiClient());
        this.pods = new KubernetesPods(controlPlane.apiClient());
    }

    @Test
    void thePodWithTheGivenUidIsDeleted() {
        String ns = controlPlane.createNamespace("pods-delete");
        String uid = objects.createPod(ns, "kube-apiserver-0", KUBE_APISERVER_LABELS);

        assertThat(pods.delete(ns, "kube-apiserver-0", uid)).isEqualTo(Pods.Deletion.DELETED);
        assertThat(objects.podUid(ns, "kube-apiserver-0")).isEmpty();
    }

    @Test
    void aReplacementWithAnotherUidIsLeftAlone() {
        String ns = controlPlane.createNamespace("pods-replaced");
        String old = objects.createPod(ns, "etcd-main-0", KUBE_APISERVER_LABELS);
        objects.deletePod(ns, "etcd-main-0");
        String replacement = objects.createPod(ns, "etcd-main-0", KUBE_APISERVER_LABELS);

        assertThat(pods.delete(ns, "etcd-main-0", old)).isEqualTo(Pods.Deletion.REPLACED);
        assertThat(objects.podUid(ns, "etcd-main-0")).contains(replacement);
    }

    @Test
    void aPodAlreadyGoneIsNotAnError() {
        String ns = controlPlane.createNamespace("pods-gone");

        assertThat(pods.delete(ns, "never-existed", "0000")).isEqualTo(Pods.Deletion.ALREADY_GONE);
    }

    @Test
    void serverDryRunSendsTheDeletionButPersistsNothing() {
        String ns = controlPlane.createNamespace("pods-dry-run");
        String uid = objects.createPod(ns, "kube-apiserver-0", KUBE_APISERVER_LABELS);
        var shadow = KubernetesPods.serverDryRun(controlPlane.apiClient());

        assertThat(shadow.delete(ns, "kube-apiserver-0", uid)).isEqualTo(Pods.Deletion.DELETED);
        assertThat(shadow.delete(ns, "kube-apiserver-0", "another-uid")).isEqualTo(Pods.Deletion.REPLACED);
        assertThat(objects.podUid(ns, "kube-apiserver-0")).contains(uid);
    }

    @Test
    void otherFailuresBecomeApiFailures() {
        var unreachable = new KubernetesPods(controlPlane.newApiClient(Duration.ofSeconds(2)).setBasePath("https://127.0.0.1:1"));

        assertThatThrownBy(() -> unreachable.delete("any", "pod", "uid"))
                .isInstanceOfSatisfying(ApiFailure.class,
                        failure -> assertThat(failure.kind()).isEqualTo(ApiFailure.Kind.UNAVAILABLE))
                .hasMessageContaining("deleting pod any/pod");
    }
}
