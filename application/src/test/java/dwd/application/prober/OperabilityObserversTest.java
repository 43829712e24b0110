package dwd.application.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.health.LoopProgress;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.EventRecorder;
import dwd.application.port.out.ProberObserver.FlowOutcome;
import dwd.application.port.out.ProberObserver.ProbeStage;
import dwd.application.prober.ProbeStatusBoard.State;
import dwd.application.testing.VirtualScheduler;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.Exclusion;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The observers behind /probes, /healthz and the Kubernetes Events. */
class OperabilityObserversTest {

    static final String NS = "shoot--dev--a";
    static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");
    static final LeaseVerdict MELTDOWN = new LeaseVerdict(Decision.SCALE_DOWN, 5, 3, 0.6, 0.6,
            Map.of("node-x", Set.of(Exclusion.NOT_MANAGED_BY_MCM)), 0, 0, List.of(), Optional.empty());
    static final LeaseVerdict HEALTHY = new LeaseVerdict(Decision.SCALE_UP, 5, 0, 0.0, 0.6,
            Map.of(), 0, 0, List.of(), Optional.empty());

    private final VirtualScheduler clock = new VirtualScheduler();

    @Test
    void theStatusBoardShowsStateVerdictAndTheLastFlowThatDidSomething() {
        var board = new ProbeStatusBoard(clock);
        board.probeStarted(NS, Duration.ofSeconds(30));
        assertThat(board.snapshot()).singleElement().extracting(ProbeStatusBoard.ShootStatus::state).isEqualTo(State.STARTING);

        Instant next = clock.now().plusSeconds(30);
        board.probeSucceeded(NS, HEALTHY, Optional.of(Decision.SCALE_UP), next);
        board.flowStarted(NS, ScaleDirection.UP, HEALTHY);
        board.flowFinished(NS, ScaleDirection.UP, FlowOutcome.COMPLETED); // nothing to do: not shown
        assertThat(board.snapshot().getFirst().state()).isEqualTo(State.HEALTHY);
        assertThat(board.snapshot().getFirst().lastFlow()).isEmpty();

        board.probeSucceeded(NS, MELTDOWN, Optional.empty(), next);
        assertThat(board.snapshot().getFirst().state()).isEqualTo(State.AWAITING_CONFIRMATION);
        board.probeSucceeded(NS, MELTDOWN, Optional.of(Decision.SCALE_DOWN), next);
        board.flowStarted(NS, ScaleDirection.DOWN, MELTDOWN);
        board.resourceScaled(NS, ScaleDirection.DOWN, KCM, 3, 0, MELTDOWN);
        var running = board.snapshot().getFirst();
        assertThat(running.state()).isEqualTo(State.MELTDOWN);
        assertThat(running.lastFlow().orElseThrow().outcome()).isEmpty();
        clock.advanceBy(Duration.ofSeconds(2));
        board.flowFinished(NS, ScaleDirection.DOWN, FlowOutcome.COMPLETED);
        var done = board.snapshot().getFirst();
        assertThat(done.lastVerdict().orElseThrow().verdict().excludedNodes())
                .containsEntry("node-x", Set.of(Exclusion.NOT_MANAGED_BY_MCM));
        assertThat(done.lastFlow().orElseThrow().outcome()).contains(FlowOutcome.COMPLETED);
        assertThat(done.lastFlow().orElseThrow().steps()).singleElement()
                .satisfies(step -> assertThat(step.detail()).isEqualTo("3 -> 0 replicas"));

        board.probeFailed(NS, ProbeStage.API_SERVER, new ApiFailure(ApiFailure.Kind.TIMEOUT, "timed out"), next);
        assertThat(board.snapshot().getFirst().state()).isEqualTo(State.PROBE_FAILING);
        assertThat(board.snapshot().getFirst().lastVerdict()).as("kept").isPresent();
        board.probeStopped(NS, "Cluster deleted");
        assertThat(board.snapshot()).isEmpty();
    }

    @Test
    void aProbeLoopMoreThanTheToleranceLateIsStalled() {
        var loops = LoopProgress.failingWhenMostStall("probe-loops", clock, Duration.ofSeconds(10));
        var progress = new ProbeProgress(loops);
        progress.probeStarted(NS, Duration.ofSeconds(30));
        clock.advanceBy(Duration.ofSeconds(40));
        assertThat(loops.check().healthy()).as("first run due at 30 s, 10 s tolerance").isTrue();
        clock.advanceBy(Duration.ofSeconds(1));
        assertThat(loops.check().healthy()).as("the only loop is all loops").isFalse();
        assertThat(loops.check().detail()).contains(NS);
        progress.probeFailed(NS, ProbeStage.LEASES, new ApiFailure(ApiFailure.Kind.TIMEOUT, "slow"),
                clock.now().plusSeconds(30));
        assertThat(loops.check().healthy()).as("a failing loop still makes progress").isTrue();
        progress.probeStopped(NS, "gone");
        clock.advanceBy(Duration.ofHours(1));
        assertThat(loops.check().healthy()).isTrue();
    }

    @Test
    void oneShootsStalledLoopIsReportedButFailsTheProcessOnlyWhenMostLoopsStall() {
        var loops = LoopProgress.failingWhenMostStall("probe-loops", clock, Duration.ofSeconds(10));
        var progress = new ProbeProgress(loops);
        List<String> shoots = List.of("shoot--a", "shoot--b", "shoot--c");
        shoots.forEach(shoot -> progress.probeStarted(shoot, Duration.ofSeconds(1)));
        clock.advanceBy(Duration.ofSeconds(5));
        progress.probeFailed("shoot--b", ProbeStage.API_SERVER, new ApiFailure(ApiFailure.Kind.TIMEOUT, "slow"),
                clock.now().plusSeconds(60));
        progress.probeFailed("shoot--c", ProbeStage.API_SERVER, new ApiFailure(ApiFailure.Kind.TIMEOUT, "slow"),
                clock.now().plusSeconds(60));
        clock.advanceBy(Duration.ofSeconds(10));

        assertThat(loops.stalled()).containsExactly("shoot--a");
        assertThat(loops.check().healthy()).as("1 of 3 stalled: that shoot's, not the process's").isTrue();
        assertThat(loops.check().detail()).contains("1 of 3 loops stalled").contains("shoot--a");

        clock.advanceBy(Duration.ofSeconds(61));
        assertThat(loops.stalled()).containsExactlyInAnyOrder("shoot--a", "shoot--b", "shoot--c");
        assertThat(loops.check().healthy()).as("every loop stalled: the process").isFalse();
    }

    @Test
    void aStepOfTheWallClockStallsNoLoop() {
        var loops = LoopProgress.failingWhenMostStall("probe-loops", clock, Duration.ofSeconds(10));
        var progress = new ProbeProgress(loops);
        progress.probeStarted(NS, Duration.ofSeconds(1));
        clock.advanceBy(Duration.ofSeconds(1));
        progress.probeFailed(NS, ProbeStage.API_SERVER, new ApiFailure(ApiFailure.Kind.TIMEOUT, "slow"),
                clock.now().plusSeconds(30));
        clock.stepWallClock(Duration.ofHours(1));
        assertThat(loops.check().healthy()).as("an hour later by the wall clock, a moment by the monotonic").isTrue();
        clock.stepWallClock(Duration.ofHours(-2));
        clock.advanceBy(Duration.ofSeconds(41));
        assertThat(loops.stalled()).as("a step back delays no stall").containsExactly(NS);
    }

    @Test
    void scaledDependentsGetEventsWithTheVerdictsNumbers() {
        List<EventRecorder.Event> recorded = new ArrayList<>();
        var events = new ScaleEvents(recorded::add);
        events.resourceScaled(NS, ScaleDirection.DOWN, KCM, 3, 0, MELTDOWN);
        events.resourceScaled(NS, ScaleDirection.UP, KCM, 0, 3, HEALTHY);
        events.resourceFailed(NS, ScaleDirection.DOWN, KCM, "403 Forbidden");
        events.resourceSkipped(NS, ScaleDirection.DOWN, KCM, "ignore-scaling");
        assertThat(recorded).extracting(EventRecorder.Event::reason)
                .containsExactly(ScaleEvents.SCALED_DOWN, ScaleEvents.SCALED_UP, ScaleEvents.SCALE_DOWN_FAILED);
        var down = recorded.getFirst();
        assertThat(down.regarding()).isEqualTo(new EventRecorder.ObjectRef("apps/v1", "Deployment", NS, KCM.name()));
        assertThat(down.type()).isEqualTo(EventRecorder.Type.NORMAL);
        assertThat(down.note()).isEqualTo("Scaled down from 3 to 0 replicas: 5 candidates, 3 expired,"
                + " fraction 0.60 >= threshold 0.60 (meltdown protection)");
        assertThat(recorded.get(2).type()).isEqualTo(EventRecorder.Type.WARNING);
    }
}
