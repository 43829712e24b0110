package dwd.bootstrap.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.ApiTraffic;
import dwd.bootstrap.prober.ProberEvents.BroughtForward;
import dwd.bootstrap.prober.ProberEvents.LeaseWatch;
import dwd.bootstrap.prober.ProberEvents.Scaled;
import dwd.bootstrap.prober.ProberEvents.Succeeded;
import dwd.domain.lease.Decision;
import dwd.domain.scaling.ScaleDirection;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A melted shoot whose node leases are renewed is scaled up at the crossing back, not at its next probe, on a real
 * API server (the local control plane is the seed and the shoot): the prober lists the leases every 500 ms while the
 * verdict is scale-down, and the renewal that crosses back brings the next probe run forward. Proven by order and
 * cause, not by a timed bound: the run that scales up was brought forward by that renewal, it comes long before the
 * run the schedule had announced, and the shoot sees those lists and that run's reads, no watch, nothing else.
 * (How long it takes is a benchmark's figure: docs/benchmarks-versus.md.)
 */
@WithLocalControlPlane
class ProberRecoveryIT {

    private static final String KCM = "kube-controller-manager";

    /** Request kinds a shoot's API server saw, with when they completed. */
    private record ShootRequest(Instant at, String verb) { }

    @Test
    void theRenewalThatCrossesBackBringsTheScaleUpForwardAndCostsTheListsAndOneRun(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--recovers");
        var shootRequests = new CopyOnWriteArrayList<ShootRequest>();
        ApiTraffic traffic = (target, verb, code) -> shootRequests.add(new ShootRequest(Instant.now(), verb));
        try (var seed = new SeedFixture(controlPlane.apiClient(), namespace);
             var prober = InJvmProber.start(ProberMeltdownIT.gardenerConfigShortened()
                     .replace("probeInterval: 2s", "probeInterval: 60s"), controlPlane.kubeconfig(), traffic)) {
            List<String> nodes = seed.createRenewingShoot(controlPlane.selfContainedKubeconfig(), 5);
            ProberEvents events = prober.events();
            await("a healthy probe").atMost(Duration.ofSeconds(60))
                    .until(() -> !events.of(Succeeded.class, namespace).isEmpty());

            seed.stopRenewing(nodes); // every kubelet stops: the meltdown
            await("the scale-down").atMost(Duration.ofSeconds(60)).until(() -> events.of(Scaled.class, namespace)
                    .stream().anyMatch(s -> s.ref().name().equals(KCM) && s.to() == 0));
            assertThat(events.of(LeaseWatch.class, namespace)).extracting(LeaseWatch::watching).containsExactly(true);
            Succeeded lastScheduled = events.of(Succeeded.class, namespace).getLast();
            assertThat(lastScheduled.verdict().decision()).isEqualTo(Decision.SCALE_DOWN);
            Instant scheduledNext = lastScheduled.nextProbe();
            Instant quietSince = Instant.now();

            // Two of five renewed: three still expired, at the threshold of 0.6; nothing to act on.
            seed.renew(nodes.get(0), SeedFixture.now());
            seed.renew(nodes.get(1), SeedFixture.now());
            Instant crossingBack = Instant.now();
            seed.renew(nodes.get(2), SeedFixture.now()); // three of five fresh: crossed back
            await("the scale-up").atMost(Duration.ofSeconds(50)).until(() -> events.since(crossingBack, Scaled.class,
                    namespace).stream().anyMatch(s -> s.direction() == ScaleDirection.UP && s.ref().name().equals(KCM)));

            assertThat(events.of(BroughtForward.class, namespace)).as("one run brought forward, after the crossing back")
                    .hasSize(1).allSatisfy(event -> assertThat(event.at()).isAfterOrEqualTo(crossingBack));
            BroughtForward broughtForward = events.of(BroughtForward.class, namespace).getFirst();
            Succeeded upVerdict = events.since(crossingBack, Succeeded.class, namespace).getFirst();
            Scaled scaledUp = events.since(crossingBack, Scaled.class, namespace).getFirst();
            assertThat(upVerdict.verdict().decision()).isEqualTo(Decision.SCALE_UP);
            assertThat(upVerdict.action()).contains(Decision.SCALE_UP);
            assertThat(broughtForward.at()).as("the run came after the renewal and was brought forward by it")
                    .isAfterOrEqualTo(crossingBack).isBeforeOrEqualTo(upVerdict.at());
            assertThat(scaledUp.at()).as("the scale-up came before the run the schedule had announced")
                    .isBefore(scheduledNext);
            System.out.printf("ProberRecoveryIT: the crossing back's renewal sent → kube-controller-manager scaled up:"
                    + " %d ms; the run the schedule had announced was %d s later%n",
                    Duration.between(crossingBack, scaledUp.at()).toMillis(),
                    Duration.between(scaledUp.at(), scheduledNext).toSeconds());
            await("following the leases ended").atMost(Duration.ofSeconds(10)).until(() ->
                    events.of(LeaseWatch.class, namespace).stream().map(LeaseWatch::watching).toList()
                            .equals(List.of(true, false)));

            List<ShootRequest> extra = shootRequests.stream()
                    .filter(r -> !r.at().isBefore(quietSince) && !r.at().isAfter(upVerdict.at())).toList();
            long polls = 1 + Duration.between(quietSince, upVerdict.at()).toMillis() / 500;
            // The shoot is the shared server: its lists have a page per 500 leases or nodes of every test.
            long pages = 1 + new CoordinationV1Api(controlPlane.apiClient()).listNamespacedLease("kube-node-lease")
                    .execute().getItems().size() / 500;
            assertThat(extra).as("between the scale-down and the scale-up: the lease lists, one every 500 ms, and one run")
                    .extracting(ShootRequest::verb).containsOnly("get").hasSizeLessThanOrEqualTo((int) ((polls + 2) * pages + 1));
            System.out.printf("ProberRecoveryIT: %d shoot requests between the scale-down and the scale-up (%d ms)%n",
                    extra.size(), Duration.between(quietSince, upVerdict.at()).toMillis());
            assertThat(shootRequests).as("no watch: Gardener grants the probe's identity get and list on leases")
                    .extracting(ShootRequest::verb).doesNotContain("watch");
        }
    }
}
