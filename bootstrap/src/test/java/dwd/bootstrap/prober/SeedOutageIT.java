package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.ProberMeltdownIT.CA;
import static dwd.bootstrap.prober.ProberMeltdownIT.KCM;
import static dwd.bootstrap.prober.ProberMeltdownIT.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.WeederObjects;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's API server goes away for 10 s under a running {@code ./dwd prober} and {@code ./dwd
 * weeder} (both leading, a weeder running): each role says so in one warning, without a stack
 * trace, and both carry on by themselves when it comes back (the prober scales a meltdown down, the
 * weeder deletes a crash-looping pod). A leader whose renew deadline passes during an outage exits
 * with status 1. The seed is reached through a loopback proxy that can be stopped (new connections
 * refused, open ones cut) and started again on the same port; the shoot is reached directly, so
 * that probes go on during the outage.
 */
@WithLocalControlPlane
class SeedOutageIT {

    private static final Duration OUTAGE = Duration.ofSeconds(10);
    /** At most one warning in any such window, per role. */
    private static final Duration WARNING_SPACING = Duration.ofSeconds(5);

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @TempDir
    Path dir;

    @Test
    void bothRolesReportATenSecondOutageOnceAndResumeByThemselves(LocalControlPlane controlPlane, ApiClient client)
            throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--outage");
        var seed = new SeedFixture(client, namespace);
        cleanup.add(seed);
        seed.createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        seed.createGardenerDependents();
        List<String> nodes = seed.createNodes(5);
        seed.startKubelets();
        seed.createCluster("8s");
        WeederObjects.createEtcdSlice(client, namespace, false);

        FaultProxy proxy = proxyTo(controlPlane);
        Path seedKubeconfig = Files.writeString(dir.resolve("seed.kubeconfig"), proxy.kubeconfig());
        String[] election = {"--enable-leader-election", "--leader-election-namespace=" + namespace,
            "--leader-elect-lease-duration=30s", "--leader-elect-renew-deadline=20s", "--leader-elect-retry-period=2s"};
        Path proberConfig = Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened());
        var prober = ProberProcess.start(dir, "prober", proberConfig, seedKubeconfig, election);
        cleanup.add(prober);
        Path weederConfig = Files.writeString(dir.resolve("weeder-config.yaml"),
                Files.readString(DwdProcess.REPOSITORY.resolve("deploy/examples/weeder-config.yaml")));
        var weeder = DwdProcess.launch("weeder", dir, "weeder", weederConfig, seedKubeconfig, List.of(election));
        cleanup.add(weeder);

        await("both roles lead and work").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> prober.log().contains(namespace + ": lease probe: SCALE_UP")
                        && weeder.log().contains("weeder running"));
        // etcd-main-client turns ready: a weeder starts and watches the namespace's pods.
        WeederObjects.markEtcdSliceReady(client, namespace);
        await("a weeder watches the pods").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> weeder.metricsPage("/weeders").contains(namespace));

        Instant outageStart = Instant.now();
        proxy.stop();
        await("both roles report the outage").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> prober.log().contains("is unreachable") && weeder.log().contains("is unreachable"));
        await("the outage lasts 10 s; both roles keep running").during(OUTAGE.minus(Duration.between(outageStart,
                        Instant.now()))).atMost(OUTAGE.plusSeconds(5)).pollInterval(Duration.ofMillis(500))
                .until(() -> prober.process.isAlive() && weeder.process.isAlive());
        proxy.start();
        Instant outageEnd = Instant.now();

        await("both roles notice that the seed answers again").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> prober.log().contains("answers again") && weeder.log().contains("answers again"));
        // The prober acts on the seed again: 3 of 5 leases expire, the dependents are scaled down.
        seed.stopRenewing(nodes.subList(0, 3));
        await("the prober scales down after the outage").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> seed.replicas(KCM) == 0 && seed.replicas(MCM) == 0 && seed.replicas(CA) == 0);
        // The weeder's pod watch resumed: a pod that starts crash-looping now is deleted.
        WeederObjects.createCrashLoopingPod(client, namespace, "kube-apiserver-after-outage");
        await("the weeder deletes the crash-looping pod").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> weeder.log().contains(namespace + ": deleted pod kube-apiserver-after-outage"));

        Instant observedUntil = Instant.now();
        assertThat(prober.terminate()).as("prober's exit status after SIGTERM").isEqualTo(143);
        assertThat(weeder.terminate()).as("weeder's exit status after SIGTERM").isEqualTo(143);
        for (DwdProcess role : List.of(prober, weeder)) {
            String log = keep(role, "outage");
            List<JsonObject> lines = jsonLines(log);
            assertThat(lines).as("every line is a JSON log line: no stack trace printed outside the log").hasSize(
                    (int) log.lines().filter(line -> !line.isBlank()).count());
            List<JsonObject> warnings = lines.stream()
                    .filter(line -> !line.get("level").getAsString().equals("INFO"))
                    .filter(line -> !time(line).isBefore(outageStart) && !time(line).isAfter(observedUntil))
                    .toList();
            assertThat(warnings).as("warnings from the outage's start on, in %s", role.log).isNotEmpty();
            for (int i = 1; i < warnings.size(); i++) {
                assertThat(Duration.between(time(warnings.get(i - 1)), time(warnings.get(i))))
                        .as("time between two warnings (outage %s to %s): %s", outageStart, outageEnd, warnings)
                        .isGreaterThanOrEqualTo(WARNING_SPACING);
            }
            assertThat(lines).as("no ERROR, also not at shutdown").noneMatch(line ->
                    List.of("ERROR", "FATAL").contains(line.get("level").getAsString()));
            assertThat(lines).as("no stack trace at info level").noneMatch(line -> line.has("error"));
            assertThat(log).as("durations as users write them").doesNotContainPattern("\\bPT\\d")
                    .contains("seed API server " + proxy.url() + " is unreachable");
        }
    }

    @Test
    void aLeaderWhoseRenewDeadlinePassesDuringAnOutageExitsWithOne(LocalControlPlane controlPlane) throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--outage-lost");
        FaultProxy proxy = proxyTo(controlPlane);
        Path seedKubeconfig = Files.writeString(dir.resolve("seed.kubeconfig"), proxy.kubeconfig());
        Path proberConfig = Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened());
        var prober = ProberProcess.start(dir, "prober", proberConfig, seedKubeconfig, "--enable-leader-election",
                "--leader-election-namespace=" + namespace, "--leader-elect-lease-duration=3s",
                "--leader-elect-renew-deadline=2s", "--leader-elect-retry-period=500ms");
        cleanup.add(prober);
        await("the prober leads").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> prober.log().contains("prober running"));

        proxy.stop();
        await("the prober exits").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> !prober.process.isAlive());
        assertThat(prober.process.exitValue()).as("exit status after losing leadership").isEqualTo(1);
        String log = keep(prober, "lost-leadership");
        assertThat(log).contains("is unreachable").contains("lost leadership").contains("renew deadline of 2s");
        assertThat(jsonLines(log)).as("no stack trace at info level").noneMatch(line -> line.has("error"));
    }

    private FaultProxy proxyTo(LocalControlPlane controlPlane) throws IOException {
        ApiClient upstream = controlPlane.newApiClient(Duration.ZERO); // no read timeout: watches pass through
        var proxy = new FaultProxy(upstream.getHttpClient(), upstream.getBasePath());
        cleanup.add(proxy);
        return proxy;
    }

    /** The role's log, also kept under target/ for a look after the run (the temporary directory goes). */
    private static String keep(DwdProcess role, String test) throws IOException {
        Path kept = Path.of("target", "it-logs", SeedOutageIT.class.getSimpleName(),
                test + "-" + role.log.getFileName());
        Files.createDirectories(kept.getParent());
        Files.copy(role.log, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return role.log();
    }

    private static Instant time(JsonObject line) {
        return Instant.parse(line.get("time").getAsString());
    }

    private static List<JsonObject> jsonLines(String log) {
        return log.lines().filter(line -> line.startsWith("{"))
                .map(line -> JsonParser.parseString(line).getAsJsonObject()).toList();
    }
}
