package dwd.application.testing;

import dwd.application.port.out.ProberObserver;
import dwd.application.prober.ProbeSupervisor;
import dwd.application.prober.ProberTuning;
import dwd.domain.cluster.ClusterShoot;
import dwd.domain.cluster.LastOperation;
import dwd.domain.cluster.Shoot;
import dwd.domain.cluster.Worker;
import dwd.domain.config.DependentResourceInfo;
import dwd.domain.config.ProberConfig;
import dwd.domain.config.ResourceRef;
import dwd.domain.config.ScaleInfo;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/** A prober on virtual time with a simulated shoot and in-memory seed resources. */
public final class ProberFixture {

    public static final String KCM = "kube-controller-manager";
    public static final String MCM = "machine-controller-manager";
    public static final String CA = "cluster-autoscaler";

    public final VirtualScheduler scheduler = new VirtualScheduler();
    public final SimulatedShoot shoots = new SimulatedShoot(scheduler);
    public final InMemoryResources resources = new InMemoryResources(scheduler);
    public final RecordingObserver observer = new RecordingObserver(scheduler);
    public final ProberConfig config;
    public final ProbeSupervisor supervisor;

    public ProberFixture(ProberConfig config, long seed) {
        this(config, seed, ProberTuning.defaults());
    }

    public ProberFixture(ProberConfig config, long seed, ProberTuning tuning) {
        this.config = config;
        this.supervisor = new ProbeSupervisor(config, tuning, scheduler, shoots, shoots, resources,
                observer, new SplittableRandom(seed));
    }

    /** Gardener's generated prober config (gardener-usage §1.2): interval 30 s, everything else DWD's defaults. */
    public static ProberConfig gardenerConfig() {
        return gardenerConfig(Duration.ofSeconds(30));
    }

    public static ProberConfig gardenerConfig(Duration mcmScaleUpDelay) {
        return new ProberConfig("shoot-access-dependency-watchdog-probe",
                Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30), 0.2,
                List.of(
                        deployment(KCM, false, 0, Duration.ZERO, 1),
                        deployment(MCM, false, 1, mcmScaleUpDelay, 0),
                        deployment(CA, true, 2, Duration.ZERO, 0)),
                Duration.ofSeconds(40), 0.6, 1, 1);
    }

    public static DependentResourceInfo deployment(String name, boolean optional, int upLevel, Duration upDelay,
            int downLevel) {
        return new DependentResourceInfo(new ResourceRef("apps/v1", "Deployment", name), optional,
                new ScaleInfo(upLevel, upDelay, Duration.ofSeconds(30)),
                new ScaleInfo(downLevel, Duration.ZERO, Duration.ofSeconds(30)));
    }

    /** A shoot that is reconciled and has one worker pool: the probe should run. */
    public static ClusterShoot healthyShoot() {
        return new ClusterShoot.Present(new Shoot(false, Optional.of(false), false,
                Optional.of(new LastOperation("Reconcile", "Succeeded")),
                List.of(new Worker("pool-a", true, List.of())), Optional.empty()));
    }

    /** Adds a shoot with {@code nodes} nodes and the three Gardener dependents at 3 / 2 / 1 replicas. */
    public SimulatedShoot.Shoot addShoot(String namespace, int nodes, long seed) {
        resources.put(namespace, KCM, 3);
        resources.put(namespace, MCM, 2);
        resources.put(namespace, CA, 1);
        var shoot = shoots.addShoot(namespace, nodes, new SplittableRandom(seed ^ 0x5DEECE66DL));
        supervisor.clusterChanged(namespace, healthyShoot());
        return shoot;
    }

    /** Runs {@code shoot} healthy for 45 s, cuts all its nodes off, and runs 60 s more: a meltdown and its scale-down. */
    public void meltdown(SimulatedShoot.Shoot shoot) {
        scheduler.advanceBy(Duration.ofSeconds(45));
        shoot.cutAll();
        scheduler.advanceBy(Duration.ofSeconds(60));
    }

    public ProberObserver observer() {
        return observer;
    }
}
