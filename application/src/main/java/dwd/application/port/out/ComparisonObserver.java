package dwd.application.port.out;

import dwd.domain.comparison.Episode;
import dwd.domain.comparison.OtherChange;

/**
 * What the comparison with the original decides, as it decides it: for logs and metrics. Implementations
 * must be fast and must not throw; they may be called from several threads.
 */
public interface ComparisonObserver {

    /** An episode was decided: both sides acted alike, one alone, or differently. */
    default void episodeDecided(Episode episode) { }

    /** A change the comparison did not count as the original's. */
    default void otherChange(OtherChange change) { }

    /** Sends every report to each of {@code observers} in turn; one that throws does not stop the others. */
    static ComparisonObserver all(ComparisonObserver... observers) {
        var list = java.util.List.of(observers);
        return new ComparisonObserver() {
            @Override
            public void episodeDecided(Episode episode) {
                each(list, observer -> observer.episodeDecided(episode));
            }

            @Override
            public void otherChange(OtherChange change) {
                each(list, observer -> observer.otherChange(change));
            }
        };
    }

    private static void each(java.util.List<ComparisonObserver> observers,
            java.util.function.Consumer<ComparisonObserver> report) {
        for (ComparisonObserver observer : observers) {
            try {
                report.accept(observer);
            } catch (RuntimeException e) {
                System.getLogger(ComparisonObserver.class.getName()).log(System.Logger.Level.WARNING,
                        "observer " + observer.getClass().getName() + " failed", e);
            }
        }
    }
}
