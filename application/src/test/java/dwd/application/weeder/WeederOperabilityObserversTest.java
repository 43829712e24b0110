package dwd.application.weeder;

import static dwd.application.weeder.WeederFixture.ETCD;
import static dwd.application.weeder.WeederFixture.WATCH_DURATION;
import static dwd.application.weeder.WeederFixture.crashLooping;
import static dwd.application.weeder.WeederFixture.slice;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.health.LoopProgress;
import dwd.application.port.out.EventRecorder;
import dwd.application.port.out.EventRecorder.ObjectRef;
import dwd.application.port.out.WeederObservers;
import dwd.application.weeder.WeederStatusBoard.Deletion;
import dwd.domain.weeding.PodOwner;
import dwd.domain.weeding.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The observers behind /weeders, /healthz and the weeder's Kubernetes Events, driven by a real supervisor. */
class WeederOperabilityObserversTest {

    static final String NS = "shoot--dev--weeds";

    private final WeederFixture fixture = new WeederFixture();
    private final WeederStatusBoard board = new WeederStatusBoard(fixture.scheduler);
    private final List<EventRecorder.Event> events = new ArrayList<>();
    private final LoopProgress loops = new LoopProgress("weeders", fixture.scheduler, Duration.ofMinutes(1));
    private final WeederSupervisor supervisor = new WeederSupervisor(fixture.config, fixture.scheduler, fixture.watches,
            fixture.pods, WeederObservers.of(board, new PodDeletionEvents(events::add), new WeederProgress(loops)));

    @Test
    void theBoardShowsEachRunningWeederWithItsWindowAndDeletionsUntilItStops() {
        Instant started = fixture.scheduler.now();
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, true));
        assertThat(board.snapshot()).containsExactly(new WeederStatusBoard.WeederStatus(NS, ETCD, started,
                started.plus(WATCH_DURATION), 0, Optional.empty()));

        fixture.scheduler.advanceBy(Duration.ofSeconds(10));
        fixture.watches.emit(crashLooping(NS, "kube-apiserver-0", "uid-0"));
        fixture.scheduler.advanceBy(Duration.ofSeconds(5));
        fixture.watches.emit(crashLooping(NS, "kube-apiserver-1", "uid-1"));

        var status = board.snapshot().getFirst();
        assertThat(status.podsDeleted()).isEqualTo(2);
        assertThat(status.lastDeletion()).contains(new Deletion("kube-apiserver-1", started.plusSeconds(15)));

        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, false));
        assertThat(board.snapshot()).as("a stopped weeder leaves the page").isEmpty();
    }

    @Test
    void theBoardListsWeedersByNamespaceThenService() {
        supervisor.sliceChanged(slice("ns-b", "etcd", ETCD, true));
        supervisor.sliceChanged(slice("ns-a", "kas", WeederFixture.KUBE_APISERVER, true));
        supervisor.sliceChanged(slice("ns-a", "etcd", ETCD, true));

        assertThat(board.snapshot()).extracting(status -> status.namespace() + "/" + status.service())
                .containsExactly("ns-a/" + ETCD, "ns-a/" + WeederFixture.KUBE_APISERVER, "ns-b/" + ETCD);
    }

    @Test
    void aDeletedPodsEventRegardsItsControllerOrElseThePod() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, true));
        PodState owned = crashLooping(NS, "kube-apiserver-7d-abc", "uid-1");
        owned = new PodState(owned.namespace(), owned.name(), owned.uid(), false, owned.containers(),
                owned.initContainers(), Optional.of(new PodOwner("apps/v1", "ReplicaSet", "kube-apiserver-7d")));
        fixture.watches.emit(owned);
        fixture.watches.emit(crashLooping(NS, "kube-apiserver-bare", "uid-2"));

        assertThat(events).extracting(EventRecorder.Event::regarding).containsExactly(
                new ObjectRef("apps/v1", "ReplicaSet", NS, "kube-apiserver-7d"),
                new ObjectRef("v1", "Pod", NS, "kube-apiserver-bare"));
        assertThat(events).allSatisfy(event -> {
            assertThat(event.reason()).isEqualTo(PodDeletionEvents.POD_DELETED);
            assertThat(event.type()).isEqualTo(EventRecorder.Type.NORMAL);
            assertThat(event.action()).isEqualTo("Delete");
            assertThat(event.note()).contains("CrashLoopBackOff").contains("service " + ETCD + " is ready again");
        });
        assertThat(events.getFirst().note()).startsWith("Deleted pod kube-apiserver-7d-abc (uid uid-1)");
    }

    @Test
    void aPodLeftAloneOrNotDeletedRecordsNoEvent() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, true));
        fixture.pods.answer("uid-1", dwd.application.port.out.Pods.Deletion.ALREADY_GONE);
        fixture.pods.fail("uid-2", dwd.application.port.out.ApiFailure.Kind.UNAVAILABLE);
        fixture.watches.emit(crashLooping(NS, "kube-apiserver-1", "uid-1"));
        fixture.watches.emit(crashLooping(NS, "kube-apiserver-2", "uid-2"));

        assertThat(events).isEmpty();
        assertThat(board.snapshot().getFirst().podsDeleted()).isZero();
    }

    @Test
    void aWeederStillRunningMoreThanTheToleranceAfterItsWindowIsStalled() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, true));
        assertThat(loops.check().healthy()).isTrue();
        assertThat(loops.check().detail()).isEqualTo("1 loops making progress");

        // The timer is stuck: time passes without the expiry running.
        fixture.scheduler.elapse(WATCH_DURATION.plus(Duration.ofMinutes(1)).plusMillis(1));
        assertThat(loops.check().healthy()).isFalse();
        assertThat(loops.check().detail()).contains(NS + "/" + ETCD);

        fixture.scheduler.runDue(); // the window ends after all: the weeder stops and is forgotten
        assertThat(loops.check().healthy()).isTrue();
        assertThat(loops.check().detail()).isEqualTo("0 loops making progress");
    }
}
