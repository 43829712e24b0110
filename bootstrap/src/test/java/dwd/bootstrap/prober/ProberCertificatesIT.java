package dwd.bootstrap.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.TestCertificates;
import dwd.adapters.k8s.testing.TlsFront;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shoots whose API server presents a certificate that does not verify — from another authority,
 * expired, for another host — are told apart from an outage and from each other by
 * {@code ./dwd prober}: a kind of their own on {@code /probes} and in
 * {@code dwd_probe_failures_total{reason}}, one warning each in dwd's words, and nothing scaled,
 * although every shoot's leases have expired. The real API server is behind a TLS front that
 * presents the certificate; once the fronts present good ones, the three shoots are probed, said to
 * work again, and scaled down.
 */
@WithLocalControlPlane
class ProberCertificatesIT {

    private static final Duration AT_MOST = Duration.ofSeconds(60);
    private static final String KCM = "kube-controller-manager";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @TempDir
    Path dir;

    @Test
    void eachCertificateProblemIsItsOwnKindLoggedOnceAndNothingIsScaled(LocalControlPlane controlPlane) throws Exception {
        var authority = TestCertificates.Authority.create("shoot-ca");
        var other = TestCertificates.Authority.create("another-ca");
        Instant now = Instant.now();
        Map<String, TestCertificates.Serving> presented = new LinkedHashMap<>();
        presented.put("certificate-not-trusted", other.issue("kube-apiserver", List.of("127.0.0.1")));
        presented.put("certificate-expired", authority.issue("kube-apiserver", List.of("127.0.0.1"),
                now.minus(Duration.ofDays(30)), now.minus(Duration.ofHours(1))));
        presented.put("certificate-host-mismatch", authority.issue("kube-apiserver", List.of("api.elsewhere.example")));

        Map<String, SeedFixture> shoots = new LinkedHashMap<>();
        Map<String, TlsFront> fronts = new LinkedHashMap<>();
        for (var problem : presented.entrySet()) {
            var shoot = new SeedFixture(controlPlane.apiClient(), controlPlane.createNamespace("shoot--dev--tls"));
            cleanup.add(shoot);
            for (int i = 0; i < 3; i++) {
                shoot.createNodeRenewedAt(shoot.namespace() + "-node-" + i, SeedFixture.now().minusHours(1));
            }
            shoot.createGardenerDependents();
            var front = TlsFront.inFrontOf(controlPlane, problem.getValue());
            cleanup.add(front);
            shoot.createKubeconfigSecret(front.kubeconfig("127.0.0.1", authority));
            shoot.createCluster("8s");
            shoots.put(problem.getKey(), shoot);
            fronts.put(problem.getKey(), front);
        }
        Path config = Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened());
        Path seed = Files.writeString(dir.resolve("seed.kubeconfig"), controlPlane.kubeconfig());
        var prober = ProberProcess.start(dir, "prober", config, seed, "--log-format=text");
        cleanup.add(prober);

        await("each shoot failing with its kind, three probes each").atMost(AT_MOST).pollInterval(Duration.ofMillis(500))
                .until(() -> shoots.entrySet().stream().allMatch(entry -> failures(prober, entry.getValue().namespace(),
                        entry.getKey()) >= 3));
        String probes = prober.probes();
        for (var entry : shoots.entrySet()) {
            String ns = entry.getValue().namespace();
            JsonObject lastFailure = shoot(probes, ns).getAsJsonObject("lastFailure");
            assertThat(lastFailure.get("kind").getAsString()).as("/probes of %s", ns).isEqualTo(entry.getKey());
            assertThat(shoot(probes, ns).get("state").getAsString()).isEqualTo("probe-failing");
            assertThat(entry.getValue().replicas(KCM)).as("never scaled").isEqualTo(3);
        }
        assertThat(message(probes, shoots.get("certificate-expired").namespace())).contains(" expired at ")
                .contains("(valid from ");
        assertThat(message(probes, shoots.get("certificate-host-mismatch").namespace()))
                .contains("is for api.elsewhere.example, not for 127.0.0.1");
        assertThat(message(probes, shoots.get("certificate-not-trusted").namespace()))
                .contains("issued by CN=another-ca) is not signed by a certificate authority the kubeconfig trusts");

        List<String> warnings = prober.log().lines().filter(line -> line.contains(" WARN ")).toList();
        for (var entry : shoots.entrySet()) {
            assertThat(warnings).as("one warning for %s", entry.getKey())
                    .filteredOn(line -> line.contains(entry.getValue().namespace())).singleElement().asString()
                    .contains("API server probe failed (" + entry.getKey() + "): shoot " + entry.getValue().namespace());
        }
        assertThat(prober.log()).as("in dwd's words").doesNotContain("Exception", "sun.security", "PKIX", "com.google",
                "javax.net", "java.security");

        fronts.values().forEach(front -> front.present(authority.issue("kube-apiserver", List.of("127.0.0.1"))));
        await("the shoots probed and scaled down once their certificates verify").atMost(AT_MOST)
                .pollInterval(Duration.ofMillis(500)).until(() -> {
                    for (SeedFixture shoot : shoots.values()) {
                        if (shoot.replicas(KCM) != 0) {
                            return false;
                        }
                    }
                    return true;
                });
        for (var entry : shoots.entrySet()) {
            assertThat(prober.log()).contains(entry.getValue().namespace() + ": probes work again, after ");
        }
    }

    /** {@code dwd_probe_failures_total{shoot, reason}} as scraped now. */
    private static double failures(ProberProcess prober, String shoot, String reason) {
        String metrics;
        try {
            metrics = prober.metrics();
        } catch (IOException notYet) {
            return 0;
        }
        return PrometheusText.parse(metrics).samples().stream()
                .filter(sample -> sample.name().equals("dwd_probe_failures_total")
                        && shoot.equals(sample.labels().get("shoot")) && reason.equals(sample.labels().get("reason")))
                .mapToDouble(PrometheusText.Sample::value).sum();
    }

    private static JsonObject shoot(String probes, String namespace) {
        Optional<JsonElement> found = JsonParser.parseString(probes).getAsJsonObject().getAsJsonArray("shoots").asList()
                .stream().filter(entry -> entry.getAsJsonObject().get("namespace").getAsString().equals(namespace))
                .findFirst();
        return found.orElseThrow(() -> new AssertionError(namespace + " not on /probes")).getAsJsonObject();
    }

    private static String message(String probes, String namespace) {
        return shoot(probes, namespace).getAsJsonObject("lastFailure").get("message").getAsString();
    }
}
