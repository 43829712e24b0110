package dwd.application.weeder;

import dwd.application.port.out.PodWatch;
import dwd.application.port.out.PodWatches;
import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.PodState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Pod watches held in memory: the test emits pod events into the open ones and counts them. */
final class FakePodWatches implements PodWatches {

    /** One open watch. */
    record Open(String namespace, LabelSelector selector, Consumer<PodState> listener) { }

    private final List<Open> open = new ArrayList<>();
    private final Map<String, Integer> maxOpenPerNamespace = new HashMap<>();
    private int opened;

    @Override
    public synchronized PodWatch watch(String namespace, LabelSelector selector, Consumer<PodState> listener) {
        var watch = new Open(namespace, selector, listener);
        open.add(watch);
        opened++;
        maxOpenPerNamespace.merge(namespace, openIn(namespace), Math::max);
        return () -> {
            synchronized (this) {
                open.remove(watch);
            }
        };
    }

    /** Hands {@code pod} to every open watch of its namespace. */
    void emit(PodState pod) {
        for (Open watch : openWatches(pod.namespace())) {
            watch.listener().accept(pod);
        }
    }

    /** Hands {@code pod} to the open watches of its namespace with {@code selector}. */
    void emit(LabelSelector selector, PodState pod) {
        for (Open watch : openWatches(pod.namespace())) {
            if (watch.selector().equals(selector)) {
                watch.listener().accept(pod);
            }
        }
    }

    synchronized List<Open> openWatches(String namespace) {
        return open.stream().filter(watch -> watch.namespace().equals(namespace)).toList();
    }

    synchronized int openCount() {
        return open.size();
    }

    synchronized int openedCount() {
        return opened;
    }

    synchronized int maxOpenAtOnce(String namespace) {
        return maxOpenPerNamespace.getOrDefault(namespace, 0);
    }

    private int openIn(String namespace) {
        return (int) open.stream().filter(watch -> watch.namespace().equals(namespace)).count();
    }
}
