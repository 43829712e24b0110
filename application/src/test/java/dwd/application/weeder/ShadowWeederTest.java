package dwd.application.weeder;

import static dwd.application.weeder.WeederFixture.ETCD;
import static dwd.application.weeder.WeederFixture.crashLooping;
import static dwd.application.weeder.WeederFixture.gardenerConfig;
import static dwd.application.weeder.WeederFixture.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Pods;
import dwd.application.port.out.ShadowObserver;
import dwd.application.port.out.ShadowObserver.Answer;
import dwd.application.port.out.ShadowObserver.WouldDelete;
import dwd.application.port.out.WeederObserver;
import dwd.application.shadow.ShadowMode;
import dwd.application.testing.VirtualScheduler;
import dwd.domain.dryrun.DryRunMode;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The weeder in shadow mode: crash-looping pods survive, each would-be deletion is reported once. */
class ShadowWeederTest {

    private static final String NS = "shoot--dev--shadow-weeds";

    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final FakePodWatches watches = new FakePodWatches();
    /** The seed's pods; in server mode the shadow sends its dry-run deletions here. */
    private final FakePods seedPods = new FakePods();
    private final Pods serverSide = new Pods() {
        @Override
        public Deletion delete(String namespace, String name, String uid) {
            return seedPods.delete(namespace, name, uid);
        }

        @Override
        public boolean dryRunWrites() {
            return true;
        }
    };
    private final RecordingWeederObserver observer = new RecordingWeederObserver(scheduler);
    private final List<WouldDelete> reports = new ArrayList<>();
    private final ShadowObserver shadowReports = new ShadowObserver() {
        @Override
        public synchronized void wouldDelete(WouldDelete action) {
            reports.add(action);
        }
    };

    private WeederSupervisor weeder(DryRunMode mode) {
        var ports = new ShadowMode(mode, shadowReports).weeder(watches, mode == DryRunMode.SERVER ? serverSide : seedPods,
                observer);
        return new WeederSupervisor(gardenerConfig(Duration.ofMinutes(5)), scheduler, ports.podWatches(), ports.pods(),
                ports.observer());
    }

    private void etcd(WeederSupervisor weeder, boolean ready) {
        weeder.sliceChanged(slice(NS, "etcd-main-client", ETCD, ready));
    }

    @ParameterizedTest
    @EnumSource(names = {"CLIENT", "SERVER"})
    void crashLoopingPodsAreReportedOnceEachAndNeverDeleted(DryRunMode mode) {
        var weeder = weeder(mode);
        etcd(weeder, true);
        for (int event = 0; event < 5; event++) { // the kubelet keeps reporting the crash loop, the watch relists
            watches.emit(crashLooping(NS, "kube-apiserver-0", "uid-0"));
            watches.emit(crashLooping(NS, "kube-apiserver-1", "uid-1"));
        }

        assertThat(reports).extracting(report -> report.pod().name()).containsExactly("kube-apiserver-0", "kube-apiserver-1");
        assertThat(reports).allSatisfy(report -> {
            assertThat(report.mode()).isEqualTo(mode);
            assertThat(report.service()).isEqualTo(ETCD);
            assertThat(report.answer()).isEqualTo(mode == DryRunMode.CLIENT ? new Answer.NotSent() : new Answer.Accepted());
        });
        assertThat(seedPods.requests()).as("server mode sends each dry-run deletion once; client mode sends none")
                .hasSize(mode == DryRunMode.CLIENT ? 0 : 2);
        assertThat(observer.lines(NS)).as("the ordinary observers hear of no deletion").noneMatch(line -> line.contains(" deleted "));

        // etcd flaps: a new weeder window; in the shadow world these pods are gone already
        etcd(weeder, false);
        etcd(weeder, true);
        watches.emit(crashLooping(NS, "kube-apiserver-0", "uid-0"));
        watches.emit(crashLooping(NS, "kube-apiserver-2", "uid-2"));
        assertThat(reports).extracting(report -> report.pod().name())
                .containsExactly("kube-apiserver-0", "kube-apiserver-1", "kube-apiserver-2");
    }

    @Test
    void aRefusedDeletionIsAFindingReportedOnce() {
        seedPods.fail("uid-0", ApiFailure.Kind.FORBIDDEN);
        var weeder = weeder(DryRunMode.SERVER);
        etcd(weeder, true);
        watches.emit(crashLooping(NS, "kube-apiserver-0", "uid-0"));
        watches.emit(crashLooping(NS, "kube-apiserver-0", "uid-0"));

        assertThat(reports).singleElement().satisfies(report -> assertThat(report.answer())
                .isEqualTo(new Answer.Refused(ApiFailure.Kind.FORBIDDEN, "simulated FORBIDDEN")));
        assertThat(observer.lines(NS)).noneMatch(line -> line.contains(" failed "));
    }

    @Test
    void aPodGoneOrReplacedInTheSeedIsLeftAloneAsInARealRun() {
        seedPods.answer("uid-0", Pods.Deletion.REPLACED);
        var weeder = weeder(DryRunMode.SERVER);
        etcd(weeder, true);
        watches.emit(crashLooping(NS, "kube-apiserver-0", "uid-0"));

        assertThat(reports).isEmpty();
        assertThat(observer.lines(NS)).contains(ETCD + " left kube-apiserver-0/uid-0: REPLACED");
    }

    @Test
    void aDeletionThatGetsNoAnswerFailsAsARealOneAndIsTriedAgainOnTheNextEvent() {
        seedPods.fail("uid-0", ApiFailure.Kind.UNAVAILABLE);
        var weeder = weeder(DryRunMode.SERVER);
        etcd(weeder, true);
        watches.emit(crashLooping(NS, "kube-apiserver-0", "uid-0"));
        assertThat(observer.lines(NS)).contains(ETCD + " failed kube-apiserver-0/uid-0: UNAVAILABLE");
        assertThat(reports).isEmpty();

        seedPods.clearAnswers();
        watches.emit(crashLooping(NS, "kube-apiserver-0", "uid-0"));
        assertThat(reports).singleElement().satisfies(report -> assertThat(report.answer()).isEqualTo(new Answer.Accepted()));
    }

    @Test
    void serverModeRefusesPodsThatWouldBeDeletedForReal() {
        assertThatThrownBy(() -> new ShadowMode(DryRunMode.SERVER, shadowReports).weeder(watches, seedPods, observer))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dryRun=All");
    }

    @Test
    void theShadowObserverPassesOnEveryWeederEventItDoesNotTurnIntoAReport() throws Exception {
        for (Method method : WeederObserver.class.getMethods()) {
            if (Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            assertThat(dwd.application.shadow.ShadowWeederObserver.class
                    .getMethod(method.getName(), method.getParameterTypes()).getDeclaringClass().getSimpleName())
                    .as("ShadowWeederObserver decides what to do with %s", method.getName())
                    .isEqualTo("ShadowWeederObserver");
        }
    }
}
