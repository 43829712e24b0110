package dwd.domain.weeding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CrashLoopTest {

    private static final ContainerState RUNNING = new ContainerState("app", Optional.empty());
    private static final ContainerState BACKING_OFF = new ContainerState("app", Optional.of("CrashLoopBackOff"));

    private static PodState pod(boolean beingDeleted, List<ContainerState> containers, List<ContainerState> init) {
        return new PodState("shoot--p--s", "kube-controller-manager-0", "uid-1", beingDeleted, containers, init);
    }

    @Test
    void containerInCrashLoopBackOffMakesThePodCrashLoop() {
        assertThat(CrashLoop.isCrashLooping(pod(false, List.of(RUNNING, BACKING_OFF), List.of()))).isTrue();
        assertThat(CrashLoop.isCrashLooping(pod(false, List.of(BACKING_OFF), List.of()))).isTrue();
    }

    @Test
    void initContainerInCrashLoopBackOffCountsToo() {
        assertThat(CrashLoop.isCrashLooping(pod(false, List.of(RUNNING), List.of(RUNNING, BACKING_OFF)))).isTrue();
        assertThat(CrashLoop.isCrashLooping(pod(false, List.of(), List.of(BACKING_OFF)))).isTrue();
    }

    @Test
    void podBeingDeletedIsLeftAlone() {
        assertThat(CrashLoop.isCrashLooping(pod(true, List.of(BACKING_OFF), List.of(BACKING_OFF)))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ContainerCreating", "ImagePullBackOff", "crashloopbackoff", "CrashLoopBackOff ", ""})
    void otherWaitingReasonsDoNotCount(String reason) {
        var waiting = new ContainerState("app", Optional.of(reason));
        assertThat(CrashLoop.isCrashLooping(pod(false, List.of(waiting), List.of(waiting)))).isFalse();
    }

    @Test
    void healthyPodsAndAbsentStatusesDoNotCrashLoop() {
        assertThat(CrashLoop.isCrashLooping(pod(false, List.of(RUNNING), List.of(RUNNING)))).isFalse();
        assertThat(CrashLoop.isCrashLooping(pod(false, null, null))).isFalse();
        assertThat(CrashLoop.isCrashLooping(null)).isFalse();
    }

    @Test
    void absentFieldsBecomeEmpty() {
        var pod = new PodState(null, null, null, false, null, null);
        assertThat(pod).isEqualTo(new PodState("", "", "", false, List.of(), List.of()));
        assertThat(new ContainerState(null, null)).isEqualTo(new ContainerState("", Optional.empty()));
    }
}
