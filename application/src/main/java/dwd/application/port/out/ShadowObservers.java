package dwd.application.port.out;

import java.util.List;
import java.util.function.Consumer;

/** Fans shadow reports out to several observers; one that throws does not stop the others. */
public final class ShadowObservers implements ShadowObserver {

    private static final System.Logger LOG = System.getLogger(ShadowObservers.class.getName());

    private final List<ShadowObserver> observers;

    private ShadowObservers(List<ShadowObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    /** Sends every report to each of {@code observers} in turn. */
    public static ShadowObserver of(ShadowObserver... observers) {
        return new ShadowObservers(List.of(observers));
    }

    private void each(Consumer<ShadowObserver> report) {
        for (ShadowObserver observer : observers) {
            try {
                report.accept(observer);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "observer " + observer.getClass().getName() + " failed", e);
            }
        }
    }

    @Override
    public void wouldScale(WouldScale action) {
        each(o -> o.wouldScale(action));
    }

    @Override
    public void wouldAnnotate(WouldAnnotate action) {
        each(o -> o.wouldAnnotate(action));
    }

    @Override
    public void wouldDelete(WouldDelete action) {
        each(o -> o.wouldDelete(action));
    }
}
