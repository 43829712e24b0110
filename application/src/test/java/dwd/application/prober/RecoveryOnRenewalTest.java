package dwd.application.prober;

import static dwd.application.testing.ProberFixture.KCM;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.NodeLeaseWatch;
import dwd.application.port.out.ShootApi;
import dwd.application.port.out.ShootClients;
import dwd.application.testing.ForwardingShootApi;
import dwd.application.testing.ProberFixture;
import dwd.application.testing.RecordingObserver.Event;
import dwd.application.testing.SimulatedShoot;
import dwd.domain.config.ProberConfig;
import dwd.domain.lease.NodeLease;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * While a shoot's verdict is scale-down its node leases are watched, and renewals that cross back bring the next
 * probe run forward: the scale-up comes at the crossing back, not at the next probe. On virtual time, Gardener's
 * config (interval 30 s, jitter 0.2, grace 40 s, threshold 0.6), 5 nodes: 3 expired leases are the threshold.
 */
class RecoveryOnRenewalTest {

    private static final String NS = "shoot--dev--recovers";

    @Test
    void theRenewalThatCrossesBackIsActedOnAtOnceAndTheWatchClosesAfterTheScaleUp() {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 61);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 61);
        fixture.scheduler.advanceBy(Duration.ofMinutes(3));
        assertThat(shoot.leaseWatchesOpened()).as("a healthy shoot's leases are not watched").isZero();

        fixture.meltdown(shoot);
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
        assertThat(events(fixture, "lease watch opened")).hasSize(1);
        fixture.scheduler.advanceBy(Duration.ofSeconds(47)); // mid-interval, whatever the phase
        long runsBefore = leaseReads(shoot);

        List<String> nodes = shoot.nodeNames();
        renew(fixture, shoot, nodes.get(0));
        renew(fixture, shoot, nodes.get(1));
        fixture.scheduler.advanceBy(Duration.ofSeconds(1));
        assertThat(events(fixture, "probe brought forward")).as("2 of 5 renewed: 3 still expired, no crossing back")
                .isEmpty();
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();

        Instant crossingBack = fixture.scheduler.now();
        renew(fixture, shoot, nodes.get(2));
        fixture.scheduler.advanceBy(Duration.ofSeconds(1));

        assertThat(events(fixture, "probe brought forward")).extracting(Event::at).containsExactly(crossingBack);
        Instant scaledUp = writeOf(fixture, KCM, "scale 0->3");
        assertThat(scaledUp).as("the scale-up comes with the run the renewal brought forward")
                .isEqualTo(crossingBack);
        assertThat(fixture.resources.replicas(NS, KCM)).isEqualTo(3);
        assertThat(leaseReads(shoot) - runsBefore).as("one run more than the schedule's").isEqualTo(1);
        assertThat(events(fixture, "lease watch closed")).extracting(Event::at).containsExactly(crossingBack);
        assertThat(shoot.leaseWatchesOpen()).isZero();
        assertThat(shoot.leaseWatchesOpened()).as("one watch for the whole meltdown").isEqualTo(1);
    }

    @Test
    void aScaleDownVerdictOpensTheWatchEvenBeforeAHysteresisActsOnIt() {
        var fixture = new ProberFixture(withThresholds(3, 1), 62);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 62);
        fixture.scheduler.advanceBy(Duration.ofSeconds(45));
        shoot.cutAll();
        for (int step = 0; step < 600 && events(fixture, "verdict SCALE_DOWN").isEmpty(); step++) {
            fixture.scheduler.advanceBy(Duration.ofMillis(100));
        }
        assertThat(events(fixture, "verdict SCALE_DOWN action none")).hasSize(1);
        assertThat(events(fixture, "lease watch opened")).hasSize(1);
    }

    /** A flap: the leases cross back for a moment, and are seen expired again by the confirming run. */
    @Test
    void aSuccessThresholdOfTwoStillDampsARenewalThatDoesNotLast() {
        var fixture = new ProberFixture(withThresholds(1, 2), 63);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 63);
        fixture.meltdown(shoot);
        fixture.scheduler.advanceBy(Duration.ofSeconds(13));
        List<NodeLease> expired = shoot.nodeNames().subList(0, 3).stream()
                .map(node -> new NodeLease(node, Optional.of(shoot.lastRenewal(node)))).toList();
        int writesBefore = fixture.resources.writes(NS).size();

        Instant renewed = fixture.scheduler.now();
        shoot.nodeNames().subList(0, 3).forEach(node -> renew(fixture, shoot, node));
        for (int step = 0; step < 50 && events(fixture, "verdict SCALE_UP", renewed).isEmpty(); step++) {
            fixture.scheduler.advanceBy(Duration.ofMillis(10));
        }
        assertThat(events(fixture, "verdict SCALE_UP", renewed)).extracting(Event::what)
                .containsExactly("verdict SCALE_UP action none");
        expired.forEach(shoot::putLease); // the renewals were an odd moment: the leases read expired again
        fixture.scheduler.advanceBy(Duration.ofSeconds(60));

        assertThat(events(fixture, "verdict SCALE_UP", renewed)).extracting(Event::what)
                .as("no second scale-up verdict in a row").containsExactly("verdict SCALE_UP action none");
        assertThat(fixture.resources.writes(NS)).as("nothing scaled up").hasSize(writesBefore);
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
    }

    /**
     * A watch whose leases say "crossed back" while every run reads them expired (a node or Machine the runs see and
     * the judgement does not): renewals bring runs forward at most three times between two runs on the schedule.
     */
    @Test
    void renewalsBringAtMostThreeRunsForwardBetweenTwoScheduledRuns() {
        var fixture = new ProberFixture(ProberFixture.gardenerConfig(), 64);
        SimulatedShoot.Shoot shoot = fixture.addShoot(NS, 5, 64);
        var watched = new java.util.concurrent.atomic.AtomicReference<Runnable>();
        ShootClients freshWatchedLeases = (namespace, secret, timeout) -> {
            ShootApi api = fixture.shoots.open(namespace, secret, timeout);
            return new ForwardingShootApi(api) {
                @Override
                public NodeLeaseWatch watchNodeLeases(Runnable changed) {
                    watched.set(changed);
                    return new NodeLeaseWatch() {
                        @Override
                        public List<NodeLease> leases() {
                            Instant now = fixture.scheduler.now();
                            return shoot.nodeNames().stream().map(node -> new NodeLease(node, Optional.of(now))).toList();
                        }

                        @Override
                        public void close() {
                        }
                    };
                }
            };
        };
        fixture.supervisor.close();
        var supervisor = new ProbeSupervisor(fixture.config, ProberTuning.defaults(), fixture.scheduler,
                freshWatchedLeases, fixture.shoots, fixture.resources, fixture.observer, new SplittableRandom(64));
        supervisor.clusterChanged(NS, ProberFixture.healthyShoot());
        fixture.scheduler.advanceBy(Duration.ofSeconds(45));
        shoot.cutAll();
        fixture.scheduler.advanceBy(Duration.ofSeconds(60));
        assertThat(watched.get()).as("the scale-down verdict opened the watch").isNotNull();

        Instant from = fixture.scheduler.now();
        for (int i = 0; i < 1200; i++) { // a change every 100 ms for two minutes
            watched.get().run();
            fixture.scheduler.advanceBy(Duration.ofMillis(100));
        }

        List<Event> broughtForward = events(fixture, "probe brought forward", from);
        List<Event> runs = events(fixture, "verdict SCALE_DOWN", from);
        // Runs in order: each run on the schedule is followed by at most three brought forward.
        int inARow = 0;
        int mostInARow = 0;
        for (Event event : events(fixture, "", from)) {
            if (event.what().equals("probe brought forward")) {
                mostInARow = Math.max(mostInARow, ++inARow);
            } else if (event.what().startsWith("verdict") && !isBroughtForward(fixture, event)) {
                inARow = 0;
            }
        }
        assertThat(mostInARow).isEqualTo(3);
        int scheduled = runs.size() - broughtForward.size();
        assertThat(scheduled).as("runs on the probe's schedule in two minutes (30 s + jitter)").isBetween(3, 5);
        assertThat(broughtForward).hasSizeLessThanOrEqualTo(3 * (scheduled + 1));
        assertThat(fixture.resources.replicas(NS, KCM)).isZero();
        supervisor.close();
    }

    /** Whether a run's verdict came at the instant a run was brought forward to. */
    private static boolean isBroughtForward(ProberFixture fixture, Event verdict) {
        return events(fixture, "probe brought forward").stream().anyMatch(event -> !event.at().isAfter(verdict.at())
                && event.at().plus(Duration.ofMillis(500)).compareTo(verdict.at()) >= 0);
    }

    private static ProberConfig withThresholds(int failureThreshold, int successThreshold) {
        ProberConfig gardener = ProberFixture.gardenerConfig();
        return new ProberConfig(gardener.kubeConfigSecretName(), gardener.probeInterval(), gardener.initialDelay(),
                gardener.probeTimeout(), gardener.backoffJitterFactor(), gardener.dependentResourceInfos(),
                gardener.kcmNodeMonitorGraceDuration(), gardener.nodeLeaseFailureFraction(), failureThreshold,
                successThreshold);
    }

    /** The node's kubelet renews its lease now (once: it is still cut off from its schedule). */
    private static void renew(ProberFixture fixture, SimulatedShoot.Shoot shoot, String node) {
        shoot.putLease(new NodeLease(node, Optional.of(fixture.scheduler.now())));
    }

    private static long leaseReads(SimulatedShoot.Shoot shoot) {
        return shoot.leaseReads().size();
    }

    private static Instant writeOf(ProberFixture fixture, String name, String description) {
        return fixture.resources.writes(NS).stream()
                .filter(write -> write.name().equals(name) && write.description().startsWith(description))
                .findFirst().orElseThrow().at();
    }

    private static List<Event> events(ProberFixture fixture, String prefix) {
        return events(fixture, prefix, Instant.MIN);
    }

    private static List<Event> events(ProberFixture fixture, String prefix, Instant from) {
        return fixture.observer.events().stream().filter(event -> event.namespace().equals(NS)
                && event.what().startsWith(prefix) && !event.at().isBefore(from)).toList();
    }
}
