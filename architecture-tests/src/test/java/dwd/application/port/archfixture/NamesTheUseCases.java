package dwd.application.port.archfixture;

import dwd.application.check.CheckResult;
import dwd.application.health.HealthCheck;
import dwd.application.leader.LeaderOnly;
import dwd.application.prober.ProbeStatusBoard;
import dwd.application.runtime.SystemScheduler;
import dwd.application.shadow.ShadowMode;
import dwd.application.weeder.WeederStatusBoard;

/** A deliberate violation: a port that names a class of each use-case package. Analysed only in isolation. */
public interface NamesTheUseCases {

    CheckResult check();

    HealthCheck health();

    LeaderOnly leaderOnly();

    ProbeStatusBoard probes();

    SystemScheduler scheduler();

    ShadowMode shadowMode();

    WeederStatusBoard weeders();
}
