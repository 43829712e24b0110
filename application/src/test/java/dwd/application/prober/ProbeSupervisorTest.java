package dwd.application.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.testing.ProberFixture;
import dwd.domain.cluster.ClusterShoot;
import dwd.domain.cluster.LastOperation;
import dwd.domain.cluster.Shoot;
import dwd.domain.cluster.Worker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProbeSupervisorTest {

    private static final String NS = "shoot--dev--life";

    private final ProberFixture fixture = new ProberFixture(ProberFixture.gardenerConfig(), 11);

    private static ClusterShoot shoot(boolean deleting, Boolean hibernationEnabled, boolean hibernated, String type,
            String state, boolean withWorkers) {
        return new ClusterShoot.Present(new Shoot(deleting, Optional.ofNullable(hibernationEnabled), hibernated,
                type == null ? Optional.empty() : Optional.of(new LastOperation(type, state)),
                withWorkers ? List.of(new Worker("pool-a", true, List.of())) : List.of(), Optional.empty()));
    }

    @ParameterizedTest(name = "{0}: probing={7}")
    @CsvSource({
        "reconcile succeeded, false, false, false, Reconcile, Succeeded, true, true",
        "reconcile processing, false, false, false, Reconcile, Processing, true, true",
        "reconcile error, false, false, false, Reconcile, Error, true, true",
        "create succeeded, false, false, false, Create, Succeeded, true, true",
        "create pending, false, false, false, Create, Pending, true, false",
        "restore processing, false, false, false, Restore, Processing, true, false",
        "restore succeeded, false, false, false, Restore, Succeeded, true, true",
        "migrate, false, false, false, Migrate, Processing, true, false",
        "hibernation enabled, false, true, false, Reconcile, Succeeded, true, false",
        "waking up, false, false, true, Reconcile, Processing, true, false",
        "worker-less, false, false, false, Reconcile, Succeeded, false, false",
        "deletion, true, false, false, Reconcile, Succeeded, true, false",
    })
    void aNewClusterIsProbedOnlyWhenEligible(String name, boolean deleting, boolean hibernationEnabled,
            boolean hibernated, String type, String state, boolean workers, boolean probing) {
        fixture.supervisor.clusterChanged(NS, shoot(deleting, hibernationEnabled, hibernated, type, state, workers));
        assertThat(fixture.supervisor.probedNamespaces().contains(NS)).isEqualTo(probing);
    }

    @Test
    void probesStopOnHibernationMigrationDeletionAndRemovalAndComeBackAfterWakeUp() {
        var running = shoot(false, false, false, "Reconcile", "Succeeded", true);
        fixture.supervisor.clusterChanged(NS, running);
        assertThat(fixture.supervisor.probedNamespaces()).containsExactly(NS);

        fixture.supervisor.clusterChanged(NS, shoot(false, true, false, "Reconcile", "Processing", true));
        assertThat(fixture.supervisor.probedNamespaces()).isEmpty();
        fixture.supervisor.clusterChanged(NS, shoot(false, false, true, "Reconcile", "Processing", true));
        assertThat(fixture.supervisor.probedNamespaces()).as("waking up: not yet").isEmpty();
        fixture.supervisor.clusterChanged(NS, running);
        assertThat(fixture.supervisor.probedNamespaces()).containsExactly(NS);

        fixture.supervisor.clusterChanged(NS, shoot(false, false, false, "Create", "Processing", true));
        assertThat(fixture.supervisor.probedNamespaces()).as("left as it is").containsExactly(NS);

        fixture.supervisor.clusterChanged(NS, shoot(false, false, false, "Migrate", "Processing", true));
        assertThat(fixture.supervisor.probedNamespaces()).isEmpty();
        fixture.supervisor.clusterChanged(NS, shoot(false, false, false, "Restore", "Succeeded", true));
        assertThat(fixture.supervisor.probedNamespaces()).containsExactly(NS);
        fixture.supervisor.clusterChanged(NS, shoot(true, false, false, "Reconcile", "Succeeded", true));
        assertThat(fixture.supervisor.probedNamespaces()).isEmpty();
        fixture.supervisor.clusterChanged(NS, running);
        fixture.supervisor.clusterDeleted(NS);
        assertThat(fixture.supervisor.probedNamespaces()).isEmpty();
        assertThat(fixture.observer.count("probe started")).isEqualTo(fixture.observer.count("probe stopped"));
    }

    @Test
    void poolConditionsAndGracePeriodChangesApplyToTheRunningProbeWithoutRestartingIt() {
        fixture.supervisor.clusterChanged(NS, shoot(false, false, false, "Reconcile", "Succeeded", true));
        var changed = new ClusterShoot.Present(new Shoot(false, Optional.of(false), false,
                Optional.of(new LastOperation("Reconcile", "Succeeded")),
                List.of(new Worker("pool-a", true, List.of("MemoryPressure"))), Optional.of(Duration.ofSeconds(80))));
        fixture.supervisor.clusterChanged(NS, changed);

        assertThat(fixture.supervisor.settingsOfProbe(NS)).get().satisfies(settings -> {
            assertThat(settings.nodeMonitorGracePeriod()).isEqualTo(Duration.ofSeconds(80));
            assertThat(settings.workerNodeConditions()).isEqualTo(Map.of("pool-a", List.of("MemoryPressure")));
        });
        assertThat(fixture.observer.count("probe started")).isOne();
        assertThat(fixture.observer.count("probe stopped")).isZero();
    }

    @Test
    void concurrentEventsNeverLeaveMoreThanOneProbePerShoot() throws Exception {
        var start = shoot(false, false, false, "Reconcile", "Succeeded", true);
        var stop = shoot(false, true, false, "Reconcile", "Succeeded", true);
        int threads = 8;
        var ready = new CountDownLatch(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            pool.execute(() -> {
                ready.countDown();
                try {
                    ready.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                for (int i = 0; i < 2_000; i++) {
                    switch ((i + thread) % 3) {
                        case 0 -> fixture.supervisor.clusterChanged(NS, start);
                        case 1 -> fixture.supervisor.clusterChanged(NS, stop);
                        default -> fixture.supervisor.clusterDeleted(NS);
                    }
                }
            });
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        long started = fixture.observer.count("probe started");
        long stopped = fixture.observer.count("probe stopped");
        int running = fixture.supervisor.probedNamespaces().size();
        assertThat(started).isGreaterThan(100);
        assertThat(started - stopped).as("probes alive").isEqualTo(running).isBetween(0L, 1L);
    }

    @Test
    void aBrokenClusterIsReportedOnceAndOtherShootsKeepBeingProbed() {
        List<String> warnings = new CopyOnWriteArrayList<>();
        // The application logs through System.Logger, which the tests' JVM backs with java.util.logging.
        Logger log = Logger.getLogger(ProbeSupervisor.class.getName());
        Handler recorder = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(recorder);
        try {
            fixture.addShoot("shoot--dev--a", 3, 1);
            fixture.addShoot("shoot--dev--c", 3, 3);
            for (int i = 0; i < 5; i++) {
                fixture.supervisor.clusterChanged("shoot--dev--b", new ClusterShoot.Undecodable("spec.shoot.apiVersion: number"));
                fixture.supervisor.clusterChanged("shoot--dev--d", new ClusterShoot.Missing());
            }
            fixture.scheduler.advanceBy(Duration.ofMinutes(2));
        } finally {
            log.removeHandler(recorder);
        }
        assertThat(warnings).as("each broken Cluster reported once, of five events each").containsExactly(
                "shoot--dev--b: spec.shoot cannot be decoded: spec.shoot.apiVersion: number (a running probe is left as it"
                        + " is, none is started; fix the Cluster object to probe it)",
                "shoot--dev--d: Cluster has no spec.shoot (the shoot is not probed; fix the Cluster object to probe it)");
        assertThat(fixture.supervisor.probedNamespaces()).containsExactly("shoot--dev--a", "shoot--dev--c");
        assertThat(fixture.observer.lines("shoot--dev--a")).filteredOn(l -> l.startsWith("verdict")).hasSizeGreaterThan(2);
        assertThat(fixture.observer.lines("shoot--dev--c")).filteredOn(l -> l.startsWith("verdict")).hasSizeGreaterThan(2);
    }
}
