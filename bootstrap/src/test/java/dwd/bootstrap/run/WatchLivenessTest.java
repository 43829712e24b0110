package dwd.bootstrap.run;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.health.HealthCheck;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WatchLivenessTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Duration ALLOWED = Duration.ofMinutes(11);

    private final AtomicReference<Instant> now = new AtomicReference<>(T0);
    private final AtomicReference<Instant> started = new AtomicReference<>();
    private final AtomicReference<Instant> lastRequest = new AtomicReference<>();
    private final HealthCheck check = WatchLiveness.of("endpointslice-informer", now::get, started::get,
            () -> Optional.ofNullable(lastRequest.get()), ALLOWED);

    @Test
    void aStandbyRunsNoWatchAndIsAlive() {
        now.set(T0.plus(Duration.ofHours(5)));
        assertThat(check.check()).isEqualTo(HealthCheck.Result.ok("endpointslice-informer", "not started (standby)"));
    }

    @Test
    void aliveWhileRequestsKeepComingAndStalledWhenNoneCameForLongerThanAllowed() {
        started.set(T0);
        now.set(T0.plus(ALLOWED));
        assertThat(check.check().healthy()).as("no request yet, but just started").isTrue();
        now.set(T0.plus(ALLOWED).plusSeconds(1));
        assertThat(check.check().healthy()).isFalse();

        lastRequest.set(T0.plus(Duration.ofMinutes(10)));
        assertThat(check.check().healthy()).isTrue();
        assertThat(check.check().detail()).isEqualTo("last list or watch started at 2026-01-01T00:10:00Z");
        now.set(T0.plus(Duration.ofMinutes(21)).plusSeconds(1));
        assertThat(check.check()).isEqualTo(HealthCheck.Result.failing("endpointslice-informer",
                "no list or watch started since 2026-01-01T00:10:00Z (a healthy watch starts one at least every 11m0s)"));
    }

    @Test
    void deadWatchesFailTheCheckNamingThemAndRunningOnesPass() {
        var dead = new AtomicReference<List<String>>(List.of());
        HealthCheck watches = WatchLiveness.dead("seed-watches", dead::get);
        assertThat(watches.check()).isEqualTo(HealthCheck.Result.ok("seed-watches", "every watch of the seed runs"));

        dead.set(List.of("Deployments named kube-controller-manager", "Machines"));
        assertThat(watches.check()).isEqualTo(HealthCheck.Result.failing("seed-watches", "the watches of Deployments"
                + " named kube-controller-manager, Machines stopped for good and cannot restart: their caches are not"
                + " trusted any more; restarting dwd brings them back"));
    }
}
