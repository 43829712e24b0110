package dwd.application.port.out;

import dwd.domain.weeding.PodState;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/** Fans weeder events out to several observers; one that throws does not stop the others. */
public final class WeederObservers implements WeederObserver {

    private static final System.Logger LOG = System.getLogger(WeederObservers.class.getName());

    private final List<WeederObserver> observers;

    private WeederObservers(List<WeederObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    /** Sends every event to each of {@code observers} in turn. */
    public static WeederObserver of(WeederObserver... observers) {
        return new WeederObservers(List.of(observers));
    }

    private void each(Consumer<WeederObserver> event) {
        for (WeederObserver observer : observers) {
            try {
                event.accept(observer);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "observer " + observer.getClass().getName() + " failed", e);
            }
        }
    }

    @Override
    public void serviceReadinessChanged(String namespace, String service, boolean ready) {
        each(o -> o.serviceReadinessChanged(namespace, service, ready));
    }

    @Override
    public void weederStarted(String namespace, String service, Instant until) {
        each(o -> o.weederStarted(namespace, service, until));
    }

    @Override
    public void weederStopped(String namespace, String service, StopReason reason) {
        each(o -> o.weederStopped(namespace, service, reason));
    }

    @Override
    public void podDeleted(String namespace, String service, PodState pod) {
        each(o -> o.podDeleted(namespace, service, pod));
    }

    @Override
    public void podLeftAlone(String namespace, String service, PodState pod, Pods.Deletion outcome) {
        each(o -> o.podLeftAlone(namespace, service, pod, outcome));
    }

    @Override
    public void podDeletionFailed(String namespace, String service, PodState pod, ApiFailure failure) {
        each(o -> o.podDeletionFailed(namespace, service, pod, failure));
    }
}
