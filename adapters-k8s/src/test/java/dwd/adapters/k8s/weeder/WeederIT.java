package dwd.adapters.k8s.weeder;

import static dwd.adapters.k8s.weeder.ControlPlaneObjects.ETCD_MAIN_LABELS;
import static dwd.adapters.k8s.weeder.ControlPlaneObjects.KUBE_APISERVER_LABELS;
import static dwd.adapters.k8s.weeder.WeederHarness.ETCD_MAIN_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.Pods;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The weeder end to end on the local control plane: EndpointSlices in, pod deletions out. */
@WithLocalControlPlane
class WeederIT {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    /** How long a pod is watched for not being deleted: many times what a deletion takes while a weeder watches. */
    private static final Duration LEFT_ALONE_FOR = Duration.ofSeconds(3);

    private final LocalControlPlane controlPlane;
    private final ApiClient watchClient;
    private final ControlPlaneObjects objects;
    private final List<WeederHarness> harnesses = new ArrayList<>();

    WeederIT(LocalControlPlane controlPlane) {
        this.controlPlane = controlPlane;
        this.watchClient = WeederHarness.watchClient(controlPlane);
        this.objects = new ControlPlaneObjects(controlPlane.apiClient());
    }

    private WeederHarness weeder(Duration watchDuration) {
        var harness = new WeederHarness(watchClient, controlPlane.apiClient(), WeederHarness.gardenerConfig(watchDuration));
        harnesses.add(harness);
        return harness.start();
    }

    @AfterEach
    void cleanUp() {
        harnesses.forEach(WeederHarness::close);
        objects.close();
    }

    @Test
    void whenEtcdMainClientRecoversTheCrashLoopingApiServerIsDeletedAndNothingElse() {
        String ns = controlPlane.createNamespace("weed-recovery");
        objects.createSlice(ns, "etcd-main-client-x1", ETCD_MAIN_CLIENT, false);
        String crashing = objects.createPod(ns, "kube-apiserver-a", KUBE_APISERVER_LABELS);
        objects.crashLoop(ns, "kube-apiserver-a");
        String initCrashing = objects.createPod(ns, "kube-apiserver-b", KUBE_APISERVER_LABELS, true);
        objects.crashLoopInit(ns, "kube-apiserver-b");
        String healthy = objects.createPod(ns, "kube-apiserver-c", KUBE_APISERVER_LABELS);
        objects.run(ns, "kube-apiserver-c");
        String etcd = objects.createPod(ns, "etcd-main-0", ETCD_MAIN_LABELS);
        objects.crashLoop(ns, "etcd-main-0");
        var weeder = weeder(Duration.ofMinutes(5));
        assertThat(weeder.supervisor.runningWeeders()).as("etcd not ready yet").isEmpty();

        objects.setSliceReadiness(ns, "etcd-main-client-x1", true);

        await().atMost(DEADLINE).untilAsserted(() -> {
            assertThat(objects.podUid(ns, "kube-apiserver-a")).isEmpty();
            assertThat(objects.podUid(ns, "kube-apiserver-b")).isEmpty();
            assertThat(weeder.sawPod(ns, "kube-apiserver-c", healthy, pod -> true)).isTrue();
        });
        assertThat(weeder.deletionsIn(ns)).extracting(WeederHarness.Deletion::uid, WeederHarness.Deletion::outcome)
                .containsExactlyInAnyOrder(
                        tuple(crashing, Pods.Deletion.DELETED),
                        tuple(initCrashing, Pods.Deletion.DELETED));
        assertThat(objects.podUid(ns, "kube-apiserver-c")).contains(healthy);
        assertThat(objects.podUid(ns, "etcd-main-0")).as("not selected for etcd-main-client").contains(etcd);
        assertThat(weeder.seen).extracting(seen -> seen.pod().name()).doesNotContain("etcd-main-0");
    }

    @Test
    void aPodThatStartsCrashLoopingInsideTheWindowIsDeletedAndOneAfterItIsNot() {
        String ns = controlPlane.createNamespace("weed-window");
        String early = objects.createPod(ns, "kube-apiserver-early", KUBE_APISERVER_LABELS);
        objects.run(ns, "kube-apiserver-early");
        String late = objects.createPod(ns, "kube-apiserver-late", KUBE_APISERVER_LABELS);
        objects.run(ns, "kube-apiserver-late");
        var weeder = weeder(Duration.ofSeconds(4));
        objects.createSlice(ns, "etcd-main-client-x1", ETCD_MAIN_CLIENT, true);
        await().atMost(DEADLINE).until(() -> weeder.sawPod(ns, "kube-apiserver-early", early, pod -> true));

        objects.crashLoop(ns, "kube-apiserver-early");
        await().atMost(DEADLINE).until(() -> objects.podUid(ns, "kube-apiserver-early").isEmpty());

        await().atMost(DEADLINE).until(() -> weeder.eventsIn(ns).contains(ETCD_MAIN_CLIENT + " stopped EXPIRED"));
        objects.crashLoop(ns, "kube-apiserver-late");

        // A weeder deletes within moments of the event (the early pod above): the late pod stays for seconds.
        await("the late pod left alone").during(LEFT_ALONE_FOR).atMost(LEFT_ALONE_FOR.plus(DEADLINE))
                .until(() -> objects.podUid(ns, "kube-apiserver-late").equals(java.util.Optional.of(late)));
        assertThat(weeder.noPodWatchRuns()).as("no watch open after the window").isTrue();
        assertThat(weeder.deletionsIn(ns)).extracting(WeederHarness.Deletion::uid).containsExactly(early);
    }

    @Test
    void slicesThatAreNotReadyStartNoWeederButASecondReadySliceDoes() {
        String notReady = controlPlane.createNamespace("weed-not-ready");
        objects.createSlice(notReady, "etcd-main-client-x1", ETCD_MAIN_CLIENT, false, false);
        objects.createSlice(notReady, "etcd-main-client-x2", ETCD_MAIN_CLIENT, false);
        String secondReady = controlPlane.createNamespace("weed-second-ready");
        objects.createSlice(secondReady, "etcd-main-client-x1", ETCD_MAIN_CLIENT, false);
        objects.createSlice(secondReady, "etcd-main-client-x2", ETCD_MAIN_CLIENT, false, (Boolean) null);
        objects.createPod(secondReady, "kube-apiserver-a", KUBE_APISERVER_LABELS);
        objects.crashLoop(secondReady, "kube-apiserver-a");
        objects.createPod(notReady, "kube-apiserver-a", KUBE_APISERVER_LABELS);
        objects.crashLoop(notReady, "kube-apiserver-a");

        var weeder = weeder(Duration.ofMinutes(5));

        await("all four slices delivered").atMost(DEADLINE).until(() -> weeder.supervisor.knownSlices() >= 4);
        assertThat(weeder.supervisor.runningWeeders())
                .contains(secondReady + "/" + ETCD_MAIN_CLIENT)
                .doesNotContain(notReady + "/" + ETCD_MAIN_CLIENT);
        await().atMost(DEADLINE).until(() -> objects.podUid(secondReady, "kube-apiserver-a").isEmpty());
        assertThat(objects.podUid(notReady, "kube-apiserver-a")).isPresent();
        assertThat(weeder.eventsIn(notReady)).isEmpty();
    }

    @Test
    void aReplacementWithTheSameNameIsNotDeletedByAStaleEventForItsPredecessor() {
        String ns = controlPlane.createNamespace("weed-replaced");
        String old = objects.createPod(ns, "kube-apiserver-0", KUBE_APISERVER_LABELS);
        objects.crashLoop(ns, "kube-apiserver-0");
        var weeder = weeder(Duration.ofMinutes(5));
        // The watch lags: what it reports of the first incarnation reaches the weeder only later.
        weeder.holdEvents(pod -> pod.uid().equals(old));
        objects.createSlice(ns, "etcd-main-client-x1", ETCD_MAIN_CLIENT, true);
        await().atMost(DEADLINE).until(() -> weeder.supervisor.runningWeeders().contains(ns + "/" + ETCD_MAIN_CLIENT));

        // StatefulSet style: the pod is deleted and recreated under the same name with a new UID.
        objects.deletePod(ns, "kube-apiserver-0");
        String replacement = objects.createPod(ns, "kube-apiserver-0", KUBE_APISERVER_LABELS);
        objects.run(ns, "kube-apiserver-0");
        await().atMost(DEADLINE).until(() -> weeder.sawPod(ns, "kube-apiserver-0", replacement, pod -> true));
        weeder.releaseHeld();

        assertThat(weeder.deletionsIn(ns)).singleElement().satisfies(deletion -> {
            assertThat(deletion.uid()).isEqualTo(old);
            assertThat(deletion.outcome()).isEqualTo(Pods.Deletion.REPLACED);
        });
        assertThat(objects.podUid(ns, "kube-apiserver-0")).contains(replacement);
        assertThat(weeder.eventsIn(ns)).contains(ETCD_MAIN_CLIENT + " left kube-apiserver-0 REPLACED");

        // The replacement is an incarnation of its own: once it crash-loops, it is deleted.
        objects.crashLoop(ns, "kube-apiserver-0");
        await().atMost(DEADLINE).until(() -> objects.podUid(ns, "kube-apiserver-0").isEmpty());
        assertThat(weeder.deletionsIn(ns)).extracting(WeederHarness.Deletion::uid).containsExactly(old, replacement);
        assertThat(weeder.sawCrashLoop(ns, "kube-apiserver-0", replacement)).isTrue();
    }

    @Test
    void theWeederStopsWatchingWhenTheServiceTurnsNotReadyAgain() {
        String ns = controlPlane.createNamespace("weed-flap");
        objects.createSlice(ns, "etcd-main-client-x1", ETCD_MAIN_CLIENT, true);
        var weeder = weeder(Duration.ofMinutes(5));
        await().atMost(DEADLINE).until(() -> weeder.supervisor.runningWeeders().contains(ns + "/" + ETCD_MAIN_CLIENT));

        objects.setSliceReadiness(ns, "etcd-main-client-x1", false);

        await().atMost(DEADLINE).until(() -> weeder.eventsIn(ns).contains(ETCD_MAIN_CLIENT + " stopped SERVICE_NOT_READY"));
        objects.deleteSlice(ns, "etcd-main-client-x1");
        await().atMost(DEADLINE).until(() -> weeder.supervisor.knownServices() == 0);
        await().atMost(DEADLINE).until(() -> weeder.noPodWatchRuns());
    }

    @Test
    void aSliceRelabelledToAnotherServiceNoLongerCountsForItsOldOne() {
        String ns = controlPlane.createNamespace("weed-relabel");
        objects.createSlice(ns, "shared-x1", ETCD_MAIN_CLIENT, true);
        var weeder = weeder(Duration.ofMinutes(5));
        await().atMost(DEADLINE).until(() -> weeder.supervisor.runningWeeders().contains(ns + "/" + ETCD_MAIN_CLIENT));

        objects.relabelSlice(ns, "shared-x1", "some-other-service");

        await().atMost(DEADLINE).until(() -> weeder.eventsIn(ns).contains(ETCD_MAIN_CLIENT + " stopped SERVICE_NOT_READY"));
        assertThat(weeder.supervisor.runningWeeders()).doesNotContain(ns + "/" + ETCD_MAIN_CLIENT);
    }
}
