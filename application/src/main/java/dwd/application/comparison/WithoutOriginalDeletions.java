package dwd.application.comparison;

import dwd.application.port.out.Cancellable;
import dwd.application.port.out.PodWatch;
import dwd.application.port.out.PodWatches;
import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.PodState;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The pods dwd's shadow weeder watches, as they would be without the original's deletions: the seed's,
 * and each crash-looping pod the original deleted that dwd has not decided on yet ({@link OriginalDeletions}).
 * Events of one watch still arrive one at a time, and none after it is closed.
 */
public final class WithoutOriginalDeletions implements PodWatches {

    private final PodWatches seed;
    private final OriginalDeletions deletions;

    public WithoutOriginalDeletions(PodWatches seed, OriginalDeletions deletions) {
        this.seed = seed;
        this.deletions = deletions;
    }

    @Override
    public PodWatch watch(String namespace, LabelSelector selector, Consumer<PodState> listener) {
        var closed = new AtomicBoolean();
        Object oneAtATime = new Object();
        Consumer<PodState> serial = pod -> {
            synchronized (oneAtATime) {
                if (!closed.get()) {
                    listener.accept(pod);
                }
            }
        };
        PodWatch watch = seed.watch(namespace, selector, serial);
        Cancellable kept = deletions.keptPods(namespace, selector, serial);
        return () -> {
            kept.cancel();
            synchronized (oneAtATime) {
                closed.set(true);
            }
            watch.close();
        };
    }
}
