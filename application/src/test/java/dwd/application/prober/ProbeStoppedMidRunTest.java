package dwd.application.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ShootApi;
import dwd.application.port.out.ShootClients;
import dwd.application.testing.ForwardingShootApi;
import dwd.application.testing.ProberFixture;
import dwd.domain.lease.NodeLease;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A probe stopped while one of its runs is under way: the run's outcome is not reported after the stop. */
class ProbeStoppedMidRunTest {

    private static final String NS = "shoot--dev--mid-run";

    private final ProberFixture fixture = new ProberFixture(ProberFixture.gardenerConfig(), 5);
    private ProbeSupervisor supervisor;

    @ParameterizedTest(name = "lease read fails: {0}")
    @ValueSource(booleans = {false, true})
    void nothingIsReportedAfterTheProbeStopped(boolean leaseReadFails) {
        fixture.shoots.addShoot(NS, 3, new SplittableRandom(5));
        fixture.resources.put(NS, ProberFixture.KCM, 3);
        // The Cluster is deleted while the run reads the leases.
        ShootClients deletedMidRun = (namespace, secret, timeout) -> {
            ShootApi api = fixture.shoots.open(namespace, secret, timeout);
            return new ForwardingShootApi(api) {
                @Override
                public List<NodeLease> nodeLeases() {
                    supervisor.clusterDeleted(namespace);
                    if (leaseReadFails) {
                        throw new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "the connection broke");
                    }
                    return api.nodeLeases();
                }
            };
        };
        supervisor = new ProbeSupervisor(fixture.config, ProberTuning.defaults(), fixture.scheduler, deletedMidRun,
                fixture.shoots, fixture.resources, fixture.observer, new SplittableRandom(5));

        supervisor.clusterChanged(NS, ProberFixture.healthyShoot());
        fixture.scheduler.advanceBy(Duration.ofMinutes(2));

        assertThat(fixture.observer.lines(NS)).containsExactly("probe started", "probe stopped: Cluster deleted");
        assertThat(supervisor.probedNamespaces()).isEmpty();
    }
}
