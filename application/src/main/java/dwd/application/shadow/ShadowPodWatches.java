package dwd.application.shadow;

import dwd.application.port.out.PodWatch;
import dwd.application.port.out.PodWatches;
import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.PodState;
import java.util.function.Consumer;

/** Pod watches of the shadow world: a pod that {@link ShadowPods} deleted is not there any more. */
public final class ShadowPodWatches implements PodWatches {

    private final PodWatches seed;
    private final ShadowPods pods;

    public ShadowPodWatches(PodWatches seed, ShadowPods pods) {
        this.seed = seed;
        this.pods = pods;
    }

    @Override
    public PodWatch watch(String namespace, LabelSelector selector, Consumer<PodState> listener) {
        return seed.watch(namespace, selector, pod -> {
            if (!pods.isDeleted(pod.uid())) {
                listener.accept(pod);
            }
        });
    }
}
