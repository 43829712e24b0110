package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.ProberMeltdownIT.CA;
import static dwd.bootstrap.prober.ProberMeltdownIT.KCM;
import static dwd.bootstrap.prober.ProberMeltdownIT.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.prober.DeploymentRecorder.Change;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Half-open seed connections: every connection {@code ./dwd prober} has open to the seed when a
 * meltdown begins goes silent, without FIN or RST (a NAT or load balancer that lost its state); new
 * connections pass. The seed is reached through a plain-HTTP proxy (HTTP/1.1: no HTTP/2 ping to
 * notice the dead connections), the shoot directly, so that probes go on.
 *
 * <p>The scale-down goes out on new connections. The scale-up once the leases are renewed comes at
 * once, although the dependents' watches, on their dead connections, never saw the scale-down: the
 * cache is not trusted for a dependent whose last write by dwd it has not shown, and the log says so.
 * The caches' age grows meanwhile, and at the silence bound (75 s) the watches are cut and listed
 * afresh on new connections.
 */
@WithLocalControlPlane
class SeedHalfOpenIT {

    /** The stated bound: kube-apiserver ends every watch of dwd's within a minute; 75 s without a word is a dead connection. */
    private static final Duration SILENCE_BOUND = Duration.ofSeconds(75);

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @TempDir
    Path dir;

    @Test
    void everyConnectionOpenAtAMeltdownGoesSilentAndTheProberScalesDownAndAtOnceBackUp(LocalControlPlane controlPlane,
            ApiClient client) throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--half-open");
        var seed = new SeedFixture(client, namespace);
        cleanup.add(seed);
        // The shoot is reached directly; leases expire 6 s after their last renewal.
        List<String> nodes = seed.createRenewingShoot(controlPlane.selfContainedKubeconfig(), 5);
        var recorder = new DeploymentRecorder(controlPlane.newApiClient(Duration.ZERO), namespace);
        cleanup.add(recorder);
        ApiClient upstream = controlPlane.newApiClient(Duration.ZERO);
        var proxy = new FaultProxy(upstream.getHttpClient(), upstream.getBasePath());
        cleanup.add(proxy);
        Path seedKubeconfig = Files.writeString(dir.resolve("seed.kubeconfig"), proxy.kubeconfig());
        Path config = Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened());
        var prober = ProberProcess.start(dir, "prober", config, seedKubeconfig);
        cleanup.add(prober);

        await("a healthy probe that reads its dependents from the cache").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> prober.log().contains(namespace + ": lease probe: SCALE_UP")
                        && cacheAge(prober, "deployments").isPresent());

        double ageBefore = cacheAge(prober, "deployments").orElseThrow();
        proxy.silenceOpenConnections();
        Instant silencedAt = Instant.now();
        // The watches last heard from the seed this long before the silence: the bound counts from then.
        Instant lastHeard = silencedAt.minusMillis((long) (ageBefore * 1000) + 1000);
        seed.stopRenewing(nodes.subList(0, 3)); // 3 of 5 = 0.6: the threshold
        await("the scale-down, on new connections").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> recorder.replicas(KCM) == 0 && recorder.replicas(MCM) == 0 && recorder.replicas(CA) == 0);
        // Every probe of the meltdown runs a scale-down flow that looks at its dependents: the cache, which has
        // not shown the scale-down, is passed over, and once that has lasted 5 s the log says so.
        await("the log says why the cache is not used").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> prober.log().contains(namespace + ": the watch of Deployments named kube-controller-manager"
                        + " has not shown dwd's write of kube-controller-manager (version"));

        seed.resumeRenewing(nodes.subList(0, 3));
        Instant renewedAt = Instant.now();
        await("KCM scaled up").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> recorder.replicas(KCM) == 3);
        Change kcmUp = recorder.changes().stream().filter(change -> change.name().equals(KCM) && change.to() == 3)
                .findFirst().orElseThrow();
        assertThat(Duration.between(renewedAt, kcmUp.seenAt())).as("the scale-up waits for no watch")
                .isLessThan(Duration.ofSeconds(15));
        Duration silentFor = Duration.between(silencedAt, Instant.now());
        assertThat(Duration.between(lastHeard, Instant.now())).as("still before the silence bound").isLessThan(SILENCE_BOUND);
        assertThat(cacheAge(prober, "deployments").orElseThrow())
                .as("the dependents' cache has heard nothing since the silence began")
                .isGreaterThan(silentFor.toSeconds() - 2.0);
        await("the scale-up completes").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> recorder.replicas(MCM) == 2 && recorder.replicas(CA) == 1);

        // At the silence bound the silent watches are cut and listed afresh on new connections.
        var warned = new AtomicReference<Instant>();
        await("the silence noticed").atMost(SILENCE_BOUND.plusSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    if (warned.get() == null && prober.log().contains("Deployments named kube-controller-manager: nothing"
                            + " heard from seed API server " + proxy.url() + " for 1m15s, although it ends every watch within 1m0s")) {
                        warned.set(Instant.now());
                    }
                    return warned.get() != null && cacheAge(prober, "deployments").orElse(1e9) < 10;
                });
        assertThat(Duration.between(lastHeard, warned.get())).as("noticed at the bound")
                .isGreaterThanOrEqualTo(SILENCE_BOUND.minusSeconds(1)).isLessThan(SILENCE_BOUND.plusSeconds(20));
        assertThat(prober.healthz()).as("a watch that went silent is no reason to restart the process").isEqualTo(200);
        assertThat(recorder.replicas(KCM)).isEqualTo(3);
    }

    /** {@code dwd_cache_age_seconds{cache}} as scraped now. */
    private static OptionalDouble cacheAge(ProberProcess prober, String cache) throws IOException {
        return PrometheusText.parse(prober.metrics()).samples().stream()
                .filter(sample -> sample.name().equals("dwd_cache_age_seconds") && cache.equals(sample.labels().get("cache")))
                .mapToDouble(PrometheusText.Sample::value).filter(value -> !Double.isNaN(value)).findFirst();
    }
}
