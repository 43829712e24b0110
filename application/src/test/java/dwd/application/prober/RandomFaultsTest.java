package dwd.application.prober;

import static dwd.application.testing.ProberFixture.CA;
import static dwd.application.testing.ProberFixture.KCM;
import static dwd.application.testing.ProberFixture.MCM;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ApiFailure;
import dwd.application.testing.InMemoryResources;
import dwd.application.testing.ProberFixture;
import dwd.application.testing.RecordingObserver;
import dwd.application.testing.SimulatedShoot;
import dwd.domain.scaling.Annotations;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Long simulated runs with random faults: network cuts and heals, failing API calls, writes the
 * network holds past their deadline and delivers later, and process restarts (a fresh supervisor
 * over the same seed, as after a crash). A replica count is never lost, and once the faults stop
 * everything returns to its original replicas without annotations.
 */
class RandomFaultsTest {

    private static final String NS = "shoot--dev--chaos";
    private static final Map<String, Integer> ORIGINAL = Map.of(KCM, 3, MCM, 2, CA, 1);
    private static final ApiFailure.Kind[] KINDS = {
        ApiFailure.Kind.UNAVAILABLE, ApiFailure.Kind.CONFLICT, ApiFailure.Kind.TIMEOUT, ApiFailure.Kind.THROTTLED,
    };

    @Test
    void replicaCountsSurviveCutsFailuresAndRestartsIn200SeededRuns() {
        for (long seed = 0; seed < 200; seed++) {
            runChaos(seed, false);
        }
    }

    @Test
    void replicaCountsSurviveThemAsWellWhereEachScaleAndItsRecordAreOneWrite() {
        for (long seed = 0; seed < 200; seed++) {
            runChaos(seed, true);
        }
    }

    private void runChaos(long seed, boolean oneWriteScales) {
        var random = new SplittableRandom(seed);
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(Duration.ofSeconds(20)), seed);
        if (oneWriteScales) {
            fixture.resources.scaleAndAnnotateInOneWrite();
        }
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 4, seed);
        ProbeSupervisor supervisor = fixture.supervisor;
        for (int step = 0; step < 60; step++) {
            switch (random.nextInt(7)) {
                case 0 -> shoot.cutAll();
                case 1 -> shoot.heal();
                case 2 -> {
                    String victim = new String[] {KCM, MCM, CA}[random.nextInt(3)];
                    fixture.resources.failAfter(NS, victim, random.nextInt(4),
                            new ApiFailure(KINDS[random.nextInt(KINDS.length)], "injected"));
                }
                case 4 -> { // the next write gets no answer and lands up to a minute after its deadline, if it still can
                    String victim = new String[] {KCM, MCM, CA}[random.nextInt(3)];
                    fixture.resources.holdNextWrite(NS, victim, fixture.scheduler,
                            Duration.ofMillis(random.nextLong(0, 60_000)), () -> { });
                }
                case 3 -> { // the process dies and comes back: only what is in the seed survives
                    supervisor.close();
                    supervisor = restart(fixture, seed * 1000 + step);
                }
                default -> { }
            }
            fixture.scheduler.advanceBy(Duration.ofMillis(random.nextLong(1, 40_000)));
            assertNoReplicaCountLost(fixture.resources, seed, step);
        }
        shoot.heal();
        fixture.scheduler.advanceBy(Duration.ofMinutes(5));
        for (var entry : ORIGINAL.entrySet()) {
            assertThat(fixture.resources.replicas(NS, entry.getKey())).as("seed %d: %s restored", seed, entry.getKey())
                    .isEqualTo(entry.getValue());
            assertThat(fixture.resources.annotations(NS, entry.getKey())).as("seed %d: %s annotations", seed, entry.getKey())
                    .isEmpty();
        }
    }

    private static ProbeSupervisor restart(ProberFixture fixture, long seed) {
        var supervisor = new ProbeSupervisor(fixture.config, ProberTuning.defaults(), fixture.scheduler, fixture.shoots,
                fixture.shoots, fixture.resources, new RecordingObserver(fixture.scheduler), new SplittableRandom(seed));
        supervisor.clusterChanged(NS, ProberFixture.healthyShoot());
        return supervisor;
    }

    private static void assertNoReplicaCountLost(InMemoryResources resources, long seed, int step) {
        for (var entry : ORIGINAL.entrySet()) {
            int spec = resources.replicas(NS, entry.getKey());
            String recorded = resources.annotations(NS, entry.getKey()).get(Annotations.REPLICAS);
            assertThat(spec == entry.getValue() || String.valueOf(entry.getValue()).equals(recorded))
                    .as("seed %d step %d: %s has %d replicas and annotation %s", seed, step, entry.getKey(), spec, recorded)
                    .isTrue();
        }
    }

    @Test
    void aShootThatTimesOutIsProbedAgainOnlyAnIntervalAfterTheFailedRunEnded() {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 10);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 10);
        fixture.scheduler.advanceBy(Duration.ofSeconds(45));
        var timeout = new ApiFailure(ApiFailure.Kind.TIMEOUT, "no answer within 40s");
        shoot.failNextAfter(SimulatedShoot.Call.VERSION, Duration.ofSeconds(40), timeout);
        shoot.failNextAfter(SimulatedShoot.Call.VERSION, Duration.ofSeconds(40), timeout);
        fixture.scheduler.advanceBy(Duration.ofMinutes(4));

        var failures = fixture.observer.events().stream()
                .filter(e -> e.what().equals("probe failed API_SERVER TIMEOUT")).toList();
        assertThat(failures).hasSize(2);
        // The second run starts at least an interval (30 s) after the first ended, and takes 40 s itself.
        assertThat(java.time.Duration.between(failures.get(0).at(), failures.get(1).at()))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(70));
    }

    @Test
    void aThrottledShootIsProbedAgainOnlyAfterRetryAfterAndNothingIsScaled() {
        // 50 s: within the cap of two probe intervals (HostileShootValuesTest shows the cap).
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 9);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 9);
        fixture.scheduler.advanceBy(Duration.ofSeconds(45));
        shoot.cutAll();
        shoot.failNext(SimulatedShoot.Call.VERSION,
                new ApiFailure(ApiFailure.Kind.THROTTLED, "429", java.util.Optional.of(Duration.ofSeconds(50)), null));
        int readsBefore = shoot.leaseReads().size();
        var throttledAt = fixture.scheduler.now();
        fixture.scheduler.advanceBy(Duration.ofSeconds(49));

        assertThat(fixture.observer.lines(NS)).contains("probe failed API_SERVER THROTTLED");
        var readsDuringBackoff = shoot.leaseReads().stream().filter(t -> t.isAfter(throttledAt)).count();
        assertThat(readsDuringBackoff).as("no probe during Retry-After").isZero();
        assertThat(fixture.resources.writes(NS)).as("nothing scaled while throttled").isEmpty();
        fixture.scheduler.advanceBy(Duration.ofSeconds(60));
        assertThat(fixture.resources.replicas(NS, KCM)).as("probing resumes after the back-off").isZero();
        assertThat(shoot.leaseReads().size()).isGreaterThan(readsBefore);
    }
}
