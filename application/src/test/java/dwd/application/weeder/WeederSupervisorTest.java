package dwd.application.weeder;

import static dwd.application.weeder.WeederFixture.APISERVER_PODS;
import static dwd.application.weeder.WeederFixture.ETCD;
import static dwd.application.weeder.WeederFixture.KUBE_APISERVER;
import static dwd.application.weeder.WeederFixture.WATCH_DURATION;
import static dwd.application.weeder.WeederFixture.slice;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WeederSupervisorTest {

    private static final String NS = "shoot--dev--weeds";

    private final WeederFixture fixture = new WeederFixture();
    private final WeederSupervisor supervisor = fixture.supervisor;

    @Test
    void aServiceWhoseSlicesAreNotReadyStartsNoWeeder() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, false, false));
        supervisor.sliceChanged(slice(NS, "etcd-b", ETCD, false));

        assertThat(supervisor.runningWeeders()).isEmpty();
        assertThat(fixture.watches.openedCount()).isZero();
    }

    @Test
    void aServiceWithTwoSlicesWhereOnlyTheSecondIsReadyStartsOne() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, false));
        assertThat(supervisor.runningWeeders()).isEmpty();

        supervisor.sliceChanged(slice(NS, "etcd-b", ETCD, false, true));

        assertThat(supervisor.runningWeeders()).containsExactly(NS + "/" + ETCD);
        assertThat(fixture.watches.openWatches(NS)).singleElement()
                .satisfies(watch -> assertThat(watch.selector()).isEqualTo(APISERVER_PODS));
    }

    @Test
    void anEndpointWithoutReadyConditionCountsAsReady() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, (Boolean) null));

        assertThat(supervisor.runningWeeders()).containsExactly(NS + "/" + ETCD);
    }

    @Test
    void aSliceWithoutEndpointsIsNotReady() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD));

        assertThat(supervisor.runningWeeders()).isEmpty();
    }

    @Test
    void servicesAlreadyReadyWhenTheWatchStartsGetAWeederEach() {
        for (int i = 0; i < 3; i++) {
            supervisor.sliceChanged(slice("ns-" + i, "etcd-" + i, ETCD, true));
            supervisor.sliceChanged(slice("ns-" + i, "kube-apiserver-" + i, KUBE_APISERVER, true));
        }

        assertThat(supervisor.runningWeeders()).hasSize(6);
        assertThat(fixture.watches.openCount()).isEqualTo(6);
    }

    @Test
    void theWeederEndsAfterItsWatchDurationAndClosesItsWatches() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, true));

        fixture.scheduler.advanceBy(WATCH_DURATION.minusMillis(1));
        assertThat(supervisor.runningWeeders()).hasSize(1);
        fixture.scheduler.advanceBy(Duration.ofMillis(1));

        assertThat(supervisor.runningWeeders()).isEmpty();
        assertThat(fixture.watches.openCount()).isZero();
        assertThat(fixture.scheduler.pendingTasks()).isZero();
        assertThat(fixture.observer.lines(NS)).containsExactly(
                ETCD + " ready",
                ETCD + " weeder started until 2026-01-01T00:05:00Z",
                ETCD + " weeder stopped: EXPIRED");
    }

    @Test
    void readyToReadyChangesNeitherRestartNorExtendTheWindow() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, true));
        fixture.scheduler.advanceBy(Duration.ofMinutes(3));
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, true, true));
        supervisor.sliceChanged(slice(NS, "etcd-b", ETCD, true));

        fixture.scheduler.advanceBy(Duration.ofMinutes(2));

        assertThat(supervisor.runningWeeders()).isEmpty();
        assertThat(fixture.watches.openedCount()).isEqualTo(1);
    }

    @Test
    void aNewerTransitionStartsAFreshWindow() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, true));
        fixture.scheduler.advanceBy(Duration.ofMinutes(4));
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, false));
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, true));

        fixture.scheduler.advanceBy(Duration.ofMinutes(4));
        assertThat(supervisor.runningWeeders()).as("4 min into the second window").hasSize(1);
        fixture.scheduler.advanceBy(Duration.ofMinutes(1));

        assertThat(supervisor.runningWeeders()).isEmpty();
        assertThat(fixture.watches.openedCount()).isEqualTo(2);
        assertThat(fixture.watches.maxOpenAtOnce(NS)).isEqualTo(1);
        assertThat(fixture.scheduler.pendingTasks()).isZero();
    }

    @Test
    void theWeederStopsWhenItsServiceTurnsNotReady() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, true));
        supervisor.sliceChanged(slice(NS, "etcd-b", ETCD, true));

        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, false));
        assertThat(supervisor.runningWeeders()).as("etcd-b still serves").hasSize(1);
        supervisor.sliceChanged(slice(NS, "etcd-b", ETCD, false, false));

        assertThat(supervisor.runningWeeders()).isEmpty();
        assertThat(fixture.watches.openCount()).isZero();
        assertThat(fixture.scheduler.pendingTasks()).as("expiry called off").isZero();
        assertThat(fixture.observer.lines(NS)).endsWith(ETCD + " not ready", ETCD + " weeder stopped: SERVICE_NOT_READY");
    }

    @Test
    void removingTheLastReadySliceStopsTheWeederAndForgetsTheService() {
        supervisor.sliceChanged(slice(NS, "etcd-a", ETCD, true));
        supervisor.sliceChanged(slice(NS, "etcd-b", ETCD, false));

        supervisor.sliceRemoved(NS, "etcd-a");
        assertThat(supervisor.runningWeeders()).isEmpty();
        assertThat(supervisor.knownServices()).isEqualTo(1);
        supervisor.sliceRemoved(NS, "etcd-b");

        assertThat(supervisor.knownServices()).isZero();
        assertThat(supervisor.knownSlices()).isZero();
        assertThat(fixture.watches.openCount()).isZero();
    }

    @Test
    void slicesOfServicesNotConfiguredAreIgnored() {
        supervisor.sliceChanged(slice(NS, "other", "some-service", true));
        supervisor.sliceChanged(slice(NS, "unlabelled", "", true));
        supervisor.sliceRemoved(NS, "never-seen");

        assertThat(supervisor.runningWeeders()).isEmpty();
        assertThat(supervisor.knownSlices()).isZero();
    }

    @Test
    void aSliceRelabelledToAnotherServiceCountsForTheNewOneOnly() {
        supervisor.sliceChanged(slice(NS, "moving", ETCD, true));

        supervisor.sliceChanged(slice(NS, "moving", KUBE_APISERVER, true));

        assertThat(supervisor.runningWeeders()).containsExactly(NS + "/" + KUBE_APISERVER);
        supervisor.sliceChanged(slice(NS, "moving", "not-configured", true));
        assertThat(supervisor.runningWeeders()).isEmpty();
        assertThat(supervisor.knownServices()).isZero();
    }

    @Test
    void servicesAndNamespacesAreWeededIndependently() {
        supervisor.sliceChanged(slice("a", "etcd", ETCD, true));
        fixture.scheduler.advanceBy(Duration.ofMinutes(2));
        supervisor.sliceChanged(slice("a", "kube-apiserver", KUBE_APISERVER, true));
        supervisor.sliceChanged(slice("b", "etcd", ETCD, true));

        fixture.scheduler.advanceBy(Duration.ofMinutes(3));

        assertThat(supervisor.runningWeeders()).containsExactly("a/" + KUBE_APISERVER, "b/" + ETCD);
    }

    @Test
    void closingStopsEveryWeederAndIgnoresLaterEvents() {
        supervisor.sliceChanged(slice("a", "etcd", ETCD, true));
        supervisor.sliceChanged(slice("b", "etcd", ETCD, true));

        supervisor.close();
        supervisor.sliceChanged(slice("c", "etcd", ETCD, true));

        assertThat(supervisor.runningWeeders()).isEmpty();
        assertThat(fixture.watches.openCount()).isZero();
        assertThat(fixture.scheduler.pendingTasks()).isZero();
        assertThat(fixture.observer.lines("a")).endsWith(ETCD + " weeder stopped: SHUTDOWN");
    }
}
