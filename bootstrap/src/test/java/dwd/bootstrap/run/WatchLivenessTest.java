package dwd.bootstrap.run;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.health.HealthCheck;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WatchLivenessTest {

    static final Duration ALLOWED = Duration.ofMinutes(11);

    /** The monotonic clock's reading; the wall clock plays no part. */
    private final AtomicReference<Duration> now = new AtomicReference<>(Duration.ofHours(1));
    private final AtomicReference<Duration> started = new AtomicReference<>();
    private final AtomicReference<Duration> lastRequest = new AtomicReference<>();
    private final HealthCheck check = WatchLiveness.of("endpointslice-informer",
            () -> Optional.ofNullable(started.get()).map(at -> now.get().minus(at)),
            () -> Optional.ofNullable(lastRequest.get()).map(at -> now.get().minus(at)), ALLOWED);

    @Test
    void aStandbyRunsNoWatchAndIsAlive() {
        now.set(Duration.ofHours(5));
        assertThat(check.check()).isEqualTo(HealthCheck.Result.ok("endpointslice-informer", "not started (standby)"));
    }

    @Test
    void aliveWhileRequestsKeepComingAndStalledWhenNoneCameForLongerThanAllowed() {
        Duration t0 = now.get();
        started.set(t0);
        now.set(t0.plus(ALLOWED));
        assertThat(check.check().healthy()).as("no request yet, but just started").isTrue();
        now.set(t0.plus(ALLOWED).plusSeconds(1));
        assertThat(check.check().healthy()).isFalse();

        lastRequest.set(t0.plus(Duration.ofMinutes(10)));
        assertThat(check.check().healthy()).isTrue();
        assertThat(check.check().detail()).isEqualTo("last list or watch started 1m1s ago");
        now.set(t0.plus(Duration.ofMinutes(21)).plusMillis(1500));
        assertThat(check.check()).isEqualTo(HealthCheck.Result.failing("endpointslice-informer",
                "no list or watch started for 11m1s (a healthy watch starts one at least every 11m0s)"));
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
