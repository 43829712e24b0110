package dwd.application.comparison;

import dwd.application.port.out.ComparisonObserver;
import dwd.domain.comparison.Episode;
import dwd.domain.comparison.OtherChange;
import java.util.ArrayList;
import java.util.List;

/** Keeps what the comparison reports, in order. */
final class RecordingComparisonObserver implements ComparisonObserver {

    final List<Episode> episodes = new ArrayList<>();
    final List<OtherChange> otherChanges = new ArrayList<>();

    @Override
    public synchronized void episodeDecided(Episode episode) {
        episodes.add(episode);
    }

    @Override
    public synchronized void otherChange(OtherChange change) {
        otherChanges.add(change);
    }
}
