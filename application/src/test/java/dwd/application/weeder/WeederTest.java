package dwd.application.weeder;

import static dwd.application.weeder.WeederFixture.APISERVER_PODS;
import static dwd.application.weeder.WeederFixture.ETCD;
import static dwd.application.weeder.WeederFixture.WATCH_DURATION;
import static dwd.application.weeder.WeederFixture.crashLooping;
import static dwd.application.weeder.WeederFixture.healthy;
import static dwd.application.weeder.WeederFixture.initCrashLooping;
import static dwd.application.weeder.WeederFixture.slice;
import static dwd.application.weeder.WeederFixture.terminatingCrashLooping;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.PodWatches;
import dwd.application.port.out.Pods;
import dwd.application.port.out.WeederObserver;
import dwd.domain.config.WeederConfig;
import dwd.domain.selector.LabelSelector;
import dwd.domain.selector.Requirement;
import dwd.domain.weeding.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class WeederTest {

    private static final String NS = "shoot--dev--weeds";

    private final WeederFixture fixture = new WeederFixture();

    private void etcdTurnsReady() {
        fixture.supervisor.sliceChanged(slice(NS, "etcd-main-client", ETCD, true));
    }

    @Test
    void aCrashLoopingPodIsDeletedWithItsUid() {
        etcdTurnsReady();

        fixture.watches.emit(crashLooping(NS, "kube-apiserver-1", "uid-1"));

        assertThat(fixture.pods.requests()).containsExactly(new FakePods.Request(NS, "kube-apiserver-1", "uid-1"));
        assertThat(fixture.observer.lines(NS)).contains(ETCD + " deleted kube-apiserver-1/uid-1");
    }

    @Test
    void healthyAndTerminatingPodsAreLeftAlone() {
        etcdTurnsReady();

        fixture.watches.emit(healthy(NS, "kube-apiserver-1", "uid-1"));
        fixture.watches.emit(terminatingCrashLooping(NS, "kube-apiserver-2", "uid-2"));

        assertThat(fixture.pods.requests()).isEmpty();
    }

    @Test
    void anInitContainerInCrashLoopBackOffCounts() {
        etcdTurnsReady();

        fixture.watches.emit(initCrashLooping(NS, "kube-apiserver-1", "uid-1"));

        assertThat(fixture.pods.deletedUids()).containsExactly("uid-1");
    }

    @Test
    void eachIncarnationIsDeletedAtMostOnceEvenWhenSeveralSelectorsMatchIt() {
        var alsoApiserver = LabelSelector.of(Map.of("app", "kubernetes"), Requirement.exists("role"));
        var fixture = new WeederFixture(new WeederConfig(WATCH_DURATION, Map.of(ETCD, List.of(APISERVER_PODS, alsoApiserver))));
        fixture.supervisor.sliceChanged(slice(NS, "etcd-main-client", ETCD, true));
        assertThat(fixture.watches.openWatches(NS)).hasSize(2);

        var pod = crashLooping(NS, "kube-apiserver-1", "uid-1");
        fixture.watches.emit(pod);
        fixture.watches.emit(alsoApiserver, pod);
        fixture.watches.emit(APISERVER_PODS, pod);

        assertThat(fixture.pods.deletedUids()).containsExactly("uid-1");
    }

    @Test
    void aReplacementWithTheSameNameIsANewIncarnation() {
        etcdTurnsReady();

        fixture.watches.emit(crashLooping(NS, "etcd-main-0", "uid-1"));
        fixture.watches.emit(crashLooping(NS, "etcd-main-0", "uid-2"));
        fixture.watches.emit(crashLooping(NS, "etcd-main-0", "uid-1"));

        assertThat(fixture.pods.deletedUids()).containsExactly("uid-1", "uid-2");
    }

    @Test
    void aPodGoneOrReplacedBeforeItsDeletionIsNotAFailure() {
        etcdTurnsReady();
        fixture.pods.answer("uid-gone", Pods.Deletion.ALREADY_GONE);
        fixture.pods.answer("uid-old", Pods.Deletion.REPLACED);

        fixture.watches.emit(crashLooping(NS, "gone", "uid-gone"));
        fixture.watches.emit(crashLooping(NS, "stateful-0", "uid-old"));
        fixture.watches.emit(crashLooping(NS, "stateful-0", "uid-old"));

        assertThat(fixture.pods.deletedUids()).containsExactly("uid-gone", "uid-old");
        assertThat(fixture.observer.lines(NS)).contains(
                ETCD + " left gone/uid-gone: ALREADY_GONE",
                ETCD + " left stateful-0/uid-old: REPLACED");
    }

    @Test
    void aFailedDeletionIsTriedAgainOnTheNextEventForThePod() {
        etcdTurnsReady();
        fixture.pods.fail("uid-1", ApiFailure.Kind.UNAVAILABLE);

        fixture.watches.emit(crashLooping(NS, "kube-apiserver-1", "uid-1"));
        fixture.pods.clearAnswers();
        fixture.watches.emit(crashLooping(NS, "kube-apiserver-1", "uid-1"));
        fixture.watches.emit(crashLooping(NS, "kube-apiserver-1", "uid-1"));

        assertThat(fixture.pods.deletedUids()).containsExactly("uid-1", "uid-1");
        assertThat(fixture.observer.lines(NS)).contains(
                ETCD + " failed kube-apiserver-1/uid-1: UNAVAILABLE",
                ETCD + " deleted kube-apiserver-1/uid-1");
    }

    @Test
    void anUnexpectedErrorDoesNotStopTheWeeder() {
        etcdTurnsReady();
        fixture.pods.failUnexpectedly("uid-1");

        fixture.watches.emit(crashLooping(NS, "kube-apiserver-1", "uid-1"));
        fixture.watches.emit(crashLooping(NS, "kube-apiserver-2", "uid-2"));

        assertThat(fixture.pods.deletedUids()).containsExactly("uid-1", "uid-2");
        assertThat(fixture.supervisor.runningWeeders()).hasSize(1);
    }

    @Test
    void aPodThatStartsCrashLoopingInsideTheWindowIsDeletedButNotAfterIt() {
        etcdTurnsReady();
        fixture.watches.emit(healthy(NS, "kube-apiserver-1", "uid-1"));
        fixture.scheduler.advanceBy(Duration.ofMinutes(4));
        fixture.watches.emit(crashLooping(NS, "kube-apiserver-1", "uid-1"));
        List<FakePodWatches.Open> stillOpen = fixture.watches.openWatches(NS);

        fixture.scheduler.advanceBy(Duration.ofMinutes(1));
        // A watch thread may still deliver an event it read just before the window ended.
        stillOpen.getFirst().listener().accept(crashLooping(NS, "kube-apiserver-2", "uid-2"));

        assertThat(fixture.pods.deletedUids()).containsExactly("uid-1");
    }

    @Test
    void podsWithoutUidAreNotDeleted() {
        etcdTurnsReady();

        fixture.watches.emit(crashLooping(NS, "odd", ""));

        assertThat(fixture.pods.requests()).isEmpty();
    }

    @Test
    void aWatchThatCannotBeOpenedDoesNotPreventTheOthers() {
        var broken = LabelSelector.of(Map.of("app", "broken"));
        var watches = new FakePodWatches();
        var pods = new FakePods();
        var supervisor = new WeederSupervisor(
                new WeederConfig(WATCH_DURATION, Map.of(ETCD, List.of(broken, APISERVER_PODS))),
                fixture.scheduler,
                (namespace, selector, listener) -> {
                    if (selector.equals(broken)) {
                        throw new IllegalStateException("simulated adapter bug");
                    }
                    return watches.watch(namespace, selector, listener);
                },
                pods, new RecordingWeederObserver(fixture.scheduler));

        supervisor.sliceChanged(slice(NS, "etcd-main-client", ETCD, true));
        watches.emit(crashLooping(NS, "kube-apiserver-1", "uid-1"));

        assertThat(pods.deletedUids()).containsExactly("uid-1");
        fixture.scheduler.advanceBy(WATCH_DURATION);
        assertThat(watches.openCount()).isZero();
    }

    @Test
    void theWatchesOpenBeforeTheObserversAreToldAndADeletionIsReportedAfterThem() throws InterruptedException {
        var deleteSent = new CountDownLatch(1);
        var deletionReported = new CountDownLatch(1);
        var podThread = new AtomicReference<Thread>();
        List<String> told = Collections.synchronizedList(new ArrayList<>());
        WeederObserver slowObserver = new WeederObserver() {
            @Override
            public void weederStarted(String namespace, String service, Instant until) {
                boolean sent = await(deleteSent, Duration.ofSeconds(10));
                // The pod's thread has sent the deletion and now waits to report it: it must be held until this
                // report is done (blocked on the weeder's monitor), not report it now.
                Awaitility.await("the pod's thread held before its report").atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(10))
                        .until(() -> podThread.get().getState() == Thread.State.BLOCKED || deletionReported.getCount() == 0);
                told.add("started, the deletion already sent: " + sent);
            }

            @Override
            public void podDeleted(String namespace, String service, PodState pod) {
                told.add("deleted " + pod.name());
                deletionReported.countDown();
            }
        };
        // As the adapter does: pods arrive on a thread of their own.
        PodWatches onAnotherThread = (namespace, selector, listener) -> {
            podThread.set(Thread.ofPlatform().start(() -> listener.accept(crashLooping(namespace, "kube-apiserver-0", "uid-0"))));
            return () -> { };
        };
        Pods pods = (namespace, name, uid) -> {
            deleteSent.countDown();
            return Pods.Deletion.DELETED;
        };
        var supervisor = new WeederSupervisor(new WeederConfig(WATCH_DURATION, Map.of(ETCD, List.of(APISERVER_PODS))),
                fixture.scheduler, onAnotherThread, pods, slowObserver);

        supervisor.sliceChanged(slice(NS, "etcd-main-client", ETCD, true));

        assertThat(await(deletionReported, Duration.ofSeconds(10))).isTrue();
        assertThat(told).containsExactly("started, the deletion already sent: true", "deleted kube-apiserver-0");
        supervisor.close();
    }

    private static boolean await(CountDownLatch latch, Duration atMost) {
        try {
            return latch.await(atMost.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
