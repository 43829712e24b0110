package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.ProberMeltdownIT.CA;
import static dwd.bootstrap.prober.ProberMeltdownIT.KCM;
import static dwd.bootstrap.prober.ProberMeltdownIT.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.prober.DeploymentRecorder.Change;
import dwd.domain.config.GoDuration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The scale-up's levels on a real API server, with {@code ./dwd prober} as an operator runs it (no
 * readiness override): each level waits for the ready replicas of the one before for at most the
 * original's 5 s, whatever the resource's {@code timeout}. No controller runs here, so a Deployment
 * becomes ready only when the test writes its status. kube-controller-manager (level 0) becomes ready
 * 2.5 s after its scale-up: machine-controller-manager (level 1) waits for it. machine-controller-manager
 * (timeout 60 s) never becomes ready: cluster-autoscaler (level 2) starts 5 s after it.
 */
@WithLocalControlPlane
class ProberLevelWaitIT {

    static final Duration READINESS_WAIT = Duration.ofSeconds(5);
    static final Duration MCM_TIMEOUT = Duration.ofSeconds(60);
    /** The 5 s, one more poll's worth, and room for the seed's answers and the recorder's watch on a busy machine. */
    static final Duration WAIT_AT_MOST = READINESS_WAIT.plusSeconds(1).plusSeconds(2);

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void eachLevelWaitsForTheReadinessOfTheOneBeforeForAtMostFiveSeconds(LocalControlPlane controlPlane) throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--levels");
        var seed = new SeedFixture(controlPlane.apiClient(), namespace);
        cleanup.add(seed);
        seed.createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        seed.createGardenerDependentsScaledDown(); // no pod ever becomes ready here
        seed.createNodes(3);
        seed.startKubelets();
        seed.createCluster("8s");
        var recorder = new DeploymentRecorder(controlPlane.newApiClient(Duration.ZERO), namespace);
        cleanup.add(recorder);
        Path dir = Files.createDirectories(Path.of("target", "prober-level-wait", namespace));
        // Gardener's config, probing every 2 s; machine-controller-manager without its 30 s scale-up delay
        // (the test is about the wait for readiness, not the delay) and with a 60 s timeout, which bounds
        // its calls, not the wait.
        Path config = Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened()
                .replace("    scaleUp:\n      level: 1\n      initialDelay: 3s\n",
                        "    scaleUp:\n      level: 1\n      timeout: " + MCM_TIMEOUT.toSeconds() + "s\n"));
        assertThat(Files.readString(config)).contains("timeout: 60s");
        Path kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), controlPlane.kubeconfig());
        var prober = DwdProcess.launch("prober", dir, "prober", config, kubeconfig, List.of());
        cleanup.add(prober);

        Change kcmUp = await("kube-controller-manager scaled up").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100)).until(() -> scaleUpOf(recorder, KCM), change -> change != null);
        await("machine-controller-manager waits while kube-controller-manager is not ready")
                .during(Duration.ofMillis(2_500)).atMost(Duration.ofSeconds(4)).pollInterval(Duration.ofMillis(100))
                .until(() -> recorder.replicas(MCM) == 0);
        Instant kcmReady = Instant.now();
        seed.reportReadyReplicas(KCM, 1);

        Change mcmUp = await("machine-controller-manager scaled up once kube-controller-manager is ready")
                .atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                .until(() -> scaleUpOf(recorder, MCM), change -> change != null);
        assertThat(mcmUp.seenAt()).isAfter(kcmReady);
        assertThat(Duration.between(kcmUp.seenAt(), mcmUp.seenAt())).isGreaterThanOrEqualTo(Duration.ofMillis(2_500));

        Change caUp = await("cluster-autoscaler scaled up once machine-controller-manager's 5 s are over")
                .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> scaleUpOf(recorder, CA), change -> change != null);
        assertThat(Duration.between(mcmUp.seenAt(), caUp.seenAt()))
                .as("machine-controller-manager never became ready: its level held the next for 5 s, not its timeout")
                .isGreaterThanOrEqualTo(READINESS_WAIT.minusMillis(100)).isLessThan(WAIT_AT_MOST);
        assertThat(recorder.changes()).extracting(Change::name).containsExactly(KCM, MCM, CA);
        await("the moving on is logged").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> prober.log().contains("apps/v1 Deployment " + MCM + " did not reach 1 ready replica within "
                        + GoDuration.format(READINESS_WAIT) + "; moving on"));
        assertThat(prober.log()).doesNotContain(KCM + " did not reach");
        assertThat(prober.terminate()).as("stops on SIGTERM though cluster-autoscaler's readiness wait may be under way")
                .isEqualTo(143);
    }

    private static Change scaleUpOf(DeploymentRecorder recorder, String name) {
        return recorder.changes().stream().filter(change -> change.name().equals(name) && change.from() == 0)
                .findFirst().orElse(null);
    }
}
