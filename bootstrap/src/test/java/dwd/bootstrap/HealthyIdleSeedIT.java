package dwd.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.prober.PrometheusText;
import dwd.bootstrap.prober.SeedFixture;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.DiscoveryV1Api;
import io.kubernetes.client.openapi.models.V1Endpoint;
import io.kubernetes.client.openapi.models.V1EndpointConditions;
import io.kubernetes.client.openapi.models.V1EndpointSlice;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A healthy, idle seed is quiet: {@code ./dwd prober} and {@code ./dwd weeder}, started as Gardener
 * starts them (leader election on), watch a seed on which nothing they watch changes for five
 * minutes — the shoot's node leases are renewed every second (another resource), its Cluster,
 * Machines, access Secret and dependents stay as they are, and a weeder's window stays open over a
 * namespace without crash-looping pods. No watch is taken for dead, nothing is listed again, no
 * cache grows older than its bound, and neither role logs a warning or an error. Every watch is
 * ended by the API server within a minute and goes on from where it was: so the watch requests
 * grow, and the list requests do not.
 *
 * <p>The API server is the test's own, started for it, so that nothing other tests left behind (a
 * Cluster of a shoot long gone) is on it. Five minutes of wall time, on purpose: kube-apiserver may leave an idle watch without a
 * bookmark for two minutes and more (docs/watches.md), so the bounds are proven at their real
 * values, not shortened ones. It is the one test of {@code make test} that waits this long.
 */
@WithLocalControlPlane(apiServerFlags = "--watch-cache=true") // a server of its own: nothing of other tests on it
class HealthyIdleSeedIT {

    private static final Duration IDLE = Duration.ofMinutes(5);
    /** A cache that heard nothing for longer would be taken for dead and listed afresh. */
    private static final double SILENCE_BOUND_SECONDS = 75;

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @TempDir
    Path dir;

    @Test
    void theProberAndTheWeederWatchAnIdleSeedForFiveMinutesWithoutAWordAndWithoutAList(LocalControlPlane controlPlane,
            ApiClient client) throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--idle");
        var shoot = new SeedFixture(client, namespace);
        cleanup.add(shoot);
        shoot.createRenewingShoot(controlPlane.selfContainedKubeconfig(), 3);
        new DiscoveryV1Api(client).createNamespacedEndpointSlice(namespace, new V1EndpointSlice()
                .metadata(new V1ObjectMeta().name("etcd-main-client-x")
                        .labels(Map.of("kubernetes.io/service-name", "etcd-main-client")))
                .addressType("IPv4")
                .endpoints(List.of(new V1Endpoint().addresses(List.of("10.0.0.1"))
                        .conditions(new V1EndpointConditions().ready(false))))).execute();

        Path seed = Files.writeString(dir.resolve("seed.kubeconfig"), controlPlane.kubeconfig());
        Path proberConfig = Files.writeString(dir.resolve("prober-config.yaml"),
                Files.readString(DwdProcess.REPOSITORY.resolve("deploy/examples/prober-config.yaml"))
                        .replace("probeInterval: 30s", "probeInterval: 2s\ninitialDelay: 1s"));
        Path weederConfig = Files.writeString(dir.resolve("weeder-config.yaml"),
                Files.readString(DwdProcess.REPOSITORY.resolve("deploy/examples/weeder-config.yaml")));
        List<String> flags = List.of("--enable-leader-election", "--leader-election-namespace=" + namespace,
                "--log-format=text");
        var prober = DwdProcess.launch("prober", dir, "prober", proberConfig, seed, flags);
        cleanup.add(prober);
        var weeder = DwdProcess.launch("weeder", dir, "weeder", weederConfig, seed, flags);
        cleanup.add(weeder);

        await("both roles lead and are ready, the shoot probed with its dependents in the cache")
                .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                .until(() -> prober.readyz() == 200 && weeder.readyz() == 200
                        && prober.log().contains(namespace + ": lease probe: SCALE_UP")
                        && metrics(prober).sum("dwd_cache_age_seconds", Map.of("cache", "deployments")) >= 0);
        // etcd-main-client turns ready: a weeder's window opens, watching the namespace's pods (there are none to weed).
        PatchUtils.patch(Object.class, () -> new DiscoveryV1Api(client).patchNamespacedEndpointSlice("etcd-main-client-x",
                namespace, new V1Patch("{\"endpoints\":[{\"addresses\":[\"10.0.0.1\"],\"conditions\":{\"ready\":true}}]}"))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
        await("the weeder's window open, its pods listed").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> weeder.metricsPage("/weeders").contains("\"namespace\":\"" + namespace + "\"")
                        && metrics(weeder).sum("dwd_cache_age_seconds", Map.of("cache", "pods")) >= 0);

        double proberLists = seedRequests(prober, "get");
        double weederLists = seedRequests(weeder, "get");
        double proberWatches = seedRequests(prober, "watch");
        double weederWatches = seedRequests(weeder, "watch");
        Instant idleFrom = Instant.now();
        var oldestCache = new ConcurrentHashMap<String, Double>();
        await("five idle minutes").atMost(IDLE.plusMinutes(1)).pollInterval(Duration.ofSeconds(5)).until(() -> {
            for (var role : Map.of("prober", prober, "weeder", weeder).entrySet()) {
                assertThat(role.getValue().healthz()).as("%s /healthz", role.getKey()).isEqualTo(200);
                for (PrometheusText.Sample age : metrics(role.getValue()).find("dwd_cache_age_seconds", Map.of())) {
                    if (!Double.isNaN(age.value())) {
                        oldestCache.merge(role.getKey() + " " + age.labels().get("cache"), age.value(), Math::max);
                    }
                }
            }
            return Duration.between(idleFrom, Instant.now()).compareTo(IDLE) >= 0;
        });

        for (var role : Map.of("prober", prober, "weeder", weeder).entrySet()) {
            assertThat(role.getValue().log().lines().filter(line -> line.contains(" WARN ") || line.contains(" ERROR ")))
                    .as("%s: no warning, no error", role.getKey()).isEmpty();
            assertThat(role.getValue().log()).as("%s: no watch taken for dead", role.getKey()).doesNotContain("nothing heard");
        }
        assertThat(seedRequests(prober, "get")).as("the prober listed nothing again and read nothing").isEqualTo(proberLists);
        assertThat(seedRequests(weeder, "get")).as("the weeder listed nothing again").isEqualTo(weederLists);
        assertThat(seedRequests(prober, "watch") - proberWatches)
                .as("the prober's six watches (Clusters, Machines, Secrets, three dependents), each ended by the server"
                        + " within a minute and watched on").isGreaterThanOrEqualTo(6 * 4);
        assertThat(seedRequests(weeder, "watch") - weederWatches)
                .as("the weeder's EndpointSlice and pod watches, likewise").isGreaterThanOrEqualTo(2 * 4);
        assertThat(oldestCache).as("every cache seen by prober and weeder")
                .containsKeys("prober clusters", "prober machines", "prober secrets", "prober deployments",
                        "weeder endpointslices")
                .allSatisfy((cache, oldest) -> assertThat(oldest).as(cache).isLessThan(SILENCE_BOUND_SECONDS));
        assertThat(shoot.replicas("kube-controller-manager")).isEqualTo(3);
        System.out.printf("idle for %s: prober %+.0f lists, %+.0f watches; weeder %+.0f lists, %+.0f watches;"
                + " oldest cache ages seen (s): %s%n", Duration.between(idleFrom, Instant.now()),
                seedRequests(prober, "get") - proberLists, seedRequests(prober, "watch") - proberWatches,
                seedRequests(weeder, "get") - weederLists, seedRequests(weeder, "watch") - weederWatches,
                new java.util.TreeMap<>(oldestCache));
    }

    private static PrometheusText metrics(DwdProcess role) throws IOException {
        return PrometheusText.parse(role.metrics());
    }

    /** {@code dwd_api_requests_total{target="seed", verb}}, every code. */
    private static double seedRequests(DwdProcess role, String verb) throws IOException {
        return metrics(role).sum("dwd_api_requests_total", Map.of("target", "seed", "verb", verb));
    }
}
