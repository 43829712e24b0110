package dwd.bootstrap.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.domain.lease.Decision;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;

/**
 * dwd's prober (the production object graph, in this JVM) through one shoot's meltdown and recovery on
 * any API server that serves the Cluster and Machine CRDs: the seed and the shoot are the same cluster,
 * whose nodes the scenario makes (each with a Running Machine and a lease it renews like a kubelet).
 */
final class MeltdownScenario {

    private static final Duration AT_MOST = Duration.ofSeconds(90);

    private MeltdownScenario() {
    }

    /**
     * @param admin      a client with the rights to make the shoot
     * @param kubeconfig a self-contained kubeconfig of the same server, as the seed's and the shoot's
     * @param namespace  the shoot namespace, which must exist
     */
    static void run(ApiClient admin, String kubeconfig, String namespace) throws Exception {
        try (var seed = new SeedFixture(admin, namespace)) {
            List<String> nodes = seed.createRenewingShoot(kubeconfig, 5);
            try (var prober = InJvmProber.start(ProberMeltdownIT.gardenerConfigShortened(), kubeconfig)) {
                await("a healthy verdict").atMost(AT_MOST).pollInterval(Duration.ofMillis(200))
                        .until(() -> prober.events().of(ProberEvents.Succeeded.class, namespace).stream()
                                .anyMatch(verdict -> verdict.verdict().decision() == Decision.SCALE_UP));

                seed.stopRenewing(nodes.subList(0, 3)); // 3 of 5 = 0.6: the threshold
                await("the scale-down").atMost(AT_MOST).pollInterval(Duration.ofMillis(200))
                        .until(() -> seed.replicas(ProberMeltdownIT.KCM) == 0 && seed.replicas(ProberMeltdownIT.MCM) == 0
                                && seed.replicas(ProberMeltdownIT.CA) == 0);
                assertThat(seed.annotations(ProberMeltdownIT.KCM))
                        .containsEntry(ProberMeltdownIT.ANNOTATION_REPLICAS, "3");

                seed.resumeRenewing(nodes.subList(0, 3));
                await("the scale-up to the recorded counts").atMost(AT_MOST).pollInterval(Duration.ofMillis(200))
                        .until(() -> seed.replicas(ProberMeltdownIT.KCM) == 3 && seed.replicas(ProberMeltdownIT.MCM) == 2
                                && seed.replicas(ProberMeltdownIT.CA) == 1
                                && seed.annotations(ProberMeltdownIT.CA).isEmpty());
            }
        }
    }
}
