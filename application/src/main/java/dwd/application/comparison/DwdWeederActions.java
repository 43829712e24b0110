package dwd.application.comparison;

import dwd.application.port.out.Clock;
import dwd.application.port.out.Pods;
import dwd.application.port.out.ShadowObserver;
import dwd.application.port.out.WeederObserver;
import dwd.domain.comparison.Act;
import dwd.domain.comparison.EpisodeKind;
import dwd.domain.comparison.Side;
import dwd.domain.weeding.PodState;

/**
 * dwd's side of the weeding episodes: each crash-looping pod dwd's weeder decided to delete, dated when it
 * decided. A would-be deletion counts, and so does a pod dwd found gone or replaced when its dry run was
 * answered (the original deleted it a moment earlier): dwd's rule chose it all the same. Also tells
 * {@link OriginalDeletions} when services turn ready, which is when a weeder window opens.
 */
public final class DwdWeederActions implements ShadowObserver, WeederObserver {

    private final Clock clock;
    private final Comparison comparison;
    private final OriginalDeletions deletions;

    public DwdWeederActions(Clock clock, Comparison comparison, OriginalDeletions deletions) {
        this.clock = clock;
        this.comparison = comparison;
        this.deletions = deletions;
    }

    @Override
    public void wouldDelete(WouldDelete action) {
        decided(action.namespace(), action.service(), action.pod(), "");
    }

    @Override
    public void podLeftAlone(String namespace, String service, PodState pod, Pods.Deletion outcome) {
        decided(namespace, service, pod, outcome == Pods.Deletion.REPLACED ? " (replaced by then)" : " (gone by then)");
    }

    @Override
    public void serviceReadinessChanged(String namespace, String service, boolean ready) {
        deletions.serviceReadinessChanged(namespace, service, ready);
    }

    private void decided(String namespace, String service, PodState pod, String note) {
        deletions.dwdDecided(pod.uid());
        comparison.acted(Side.DWD, EpisodeKind.WEEDING, namespace, service, new Act(pod.uid(), pod.name(), 0, 0,
                clock.now(), "CrashLoopBackOff after " + service + " turned ready" + note, false, clock.nanoTime()));
    }
}
