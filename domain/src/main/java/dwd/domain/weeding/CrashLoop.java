package dwd.domain.weeding;

import java.util.List;

/** Recognises a pod stuck in the kubelet's crash-loop back-off, which deleting the pod cuts short. */
public final class CrashLoop {

    static final String CRASH_LOOP_BACK_OFF = "CrashLoopBackOff";

    private CrashLoop() {
    }

    /**
     * {@code true} when the pod is not already being deleted and a container or an init container waits with
     * reason {@code CrashLoopBackOff} (exact, case-sensitive). The original looks at main containers only; an init
     * container that crash-loops blocks the pod just the same.
     */
    public static boolean isCrashLooping(PodState pod) {
        if (pod == null || pod.beingDeleted()) {
            return false;
        }
        return anyBackingOff(pod.containers()) || anyBackingOff(pod.initContainers());
    }

    private static boolean anyBackingOff(List<ContainerState> containers) {
        for (ContainerState container : containers) {
            if (container.waitingReason().filter(CRASH_LOOP_BACK_OFF::equals).isPresent()) {
                return true;
            }
        }
        return false;
    }
}
