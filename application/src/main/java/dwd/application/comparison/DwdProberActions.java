package dwd.application.comparison;

import dwd.application.port.out.Clock;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ShadowObserver;
import dwd.domain.comparison.Act;
import dwd.domain.comparison.EpisodeKind;
import dwd.domain.comparison.Side;
import dwd.domain.scaling.ScaleDirection;

/**
 * dwd's side of the prober's episodes: each would-be scaling of shadow mode, dated when dwd made it (the
 * dry run answered), with the verdict that caused it; and the end of each flow, after which dwd's side of
 * an episode is complete.
 */
public final class DwdProberActions implements ShadowObserver, ProberObserver {

    private final Clock clock;
    private final Comparison comparison;

    public DwdProberActions(Clock clock, Comparison comparison) {
        this.clock = clock;
        this.comparison = comparison;
    }

    @Override
    public void wouldScale(WouldScale action) {
        comparison.acted(Side.DWD, kindOf(action.direction()), action.namespace(), "", new Act(action.ref().name(),
                action.ref().name(), action.from(), action.to(), clock.now(),
                action.cause() == null ? "" : action.cause().summary(), false, clock.nanoTime()));
    }

    @Override
    public void flowFinished(String shootNamespace, ScaleDirection direction, FlowOutcome outcome) {
        comparison.dwdFlowFinished(shootNamespace, kindOf(direction));
    }

    static EpisodeKind kindOf(ScaleDirection direction) {
        return direction == ScaleDirection.DOWN ? EpisodeKind.MELTDOWN : EpisodeKind.RECOVERY;
    }
}
