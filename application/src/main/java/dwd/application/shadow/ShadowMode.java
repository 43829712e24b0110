package dwd.application.shadow;

import dwd.application.port.out.PodWatches;
import dwd.application.port.out.Pods;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ScalableResources;
import dwd.application.port.out.ShadowObserver;
import dwd.application.port.out.WeederObserver;
import dwd.domain.dryrun.DryRunMode;
import java.util.Objects;

/**
 * The {@code --dry-run} mode of a role and who hears of its would-be actions; puts the shadow
 * decorators in front of the role's mutating ports. With {@link DryRunMode#NONE} the ports are
 * returned as they are.
 *
 * @param dryRun  the mode
 * @param reports told of every would-be action (logs, metrics, status); unused when the mode is none
 */
public record ShadowMode(DryRunMode dryRun, ShadowObserver reports) {

    public ShadowMode {
        Objects.requireNonNull(dryRun, "dryRun");
        Objects.requireNonNull(reports, "reports");
    }

    /** Acting for real. */
    public static ShadowMode off() {
        return new ShadowMode(DryRunMode.NONE, new ShadowObserver() { });
    }

    /** The prober's ports. */
    public record ProberPorts(ScalableResources resources, ProberObserver observer) { }

    /** The weeder's ports. */
    public record WeederPorts(PodWatches podWatches, Pods pods, WeederObserver observer) { }

    /**
     * The ports the prober runs on in this mode.
     *
     * @param resources the seed's dependents; in server mode they must send their writes with {@code dryRun=All}
     * @throws IllegalArgumentException in server mode, when {@code resources} would write for real
     */
    public ProberPorts prober(ScalableResources resources, ProberObserver observer) {
        if (!dryRun.isShadow()) {
            return new ProberPorts(resources, observer);
        }
        var shadowResources = new ShadowScalableResources(dryRun, resources);
        return new ProberPorts(shadowResources, new ShadowProberObserver(dryRun, shadowResources, observer, reports));
    }

    /**
     * The ports the weeder runs on in this mode.
     *
     * @param pods in server mode, must send its deletions with {@code dryRun=All}
     * @throws IllegalArgumentException in server mode, when {@code pods} would delete for real
     */
    public WeederPorts weeder(PodWatches podWatches, Pods pods, WeederObserver observer) {
        if (!dryRun.isShadow()) {
            return new WeederPorts(podWatches, pods, observer);
        }
        var shadowPods = new ShadowPods(dryRun, pods);
        return new WeederPorts(new ShadowPodWatches(podWatches, shadowPods), shadowPods,
                new ShadowWeederObserver(dryRun, shadowPods, observer, reports));
    }
}
