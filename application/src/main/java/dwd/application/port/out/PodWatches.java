package dwd.application.port.out;

import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.PodState;
import java.util.function.Consumer;

/** Watches the pods a weeder may delete. */
@FunctionalInterface
public interface PodWatches {

    /**
     * Starts watching the pods of {@code namespace} that {@code selector} selects, and returns at once.
     * Every such pod that exists when the watch starts, and every later version of one, is handed to
     * {@code listener} until the watch is closed. Deleted pods are not reported. A watch the server
     * ends is resumed, or the pods are listed again, so a pod may be reported more than once in the
     * same state.
     *
     * <p>Events of one watch arrive one at a time on a thread of the adapter, so a listener may
     * block briefly (for example to delete a pod); a slow listener holds up only its own watch.
     * Failures of the watch are retried by the adapter with back-off and never reach the listener.
     */
    PodWatch watch(String namespace, LabelSelector selector, Consumer<PodState> listener);
}
