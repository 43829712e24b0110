package dwd.application.prober;

import dwd.domain.cluster.ProbeEligibility;
import dwd.domain.cluster.Shoot;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The per-shoot inputs of a probe that come from the Cluster object and may change while the
 * probe runs (design §3.7): they are read afresh on every probe run.
 */
record ShootSettings(Duration nodeMonitorGracePeriod, Map<String, List<String>> workerNodeConditions) {

    ShootSettings {
        workerNodeConditions = Map.copyOf(workerNodeConditions);
    }

    static ShootSettings of(Shoot shoot, Duration configuredGracePeriod) {
        return new ShootSettings(
                ProbeEligibility.effectiveGracePeriod(shoot, configuredGracePeriod),
                ProbeEligibility.workerNodeConditions(shoot));
    }
}
