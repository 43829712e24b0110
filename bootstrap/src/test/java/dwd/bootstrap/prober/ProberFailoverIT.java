package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.ProberMeltdownIT.ANNOTATION_REPLICAS;
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
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two {@code ./dwd prober} processes with leader election: only the leader writes; the leader is
 * killed with SIGKILL in the middle of a scale-down and the standby takes over within lease
 * duration + retry period and completes the flow. Who wrote what, and when, comes from the API
 * server's own audit log (policy: every write to Deployments, their scale subresource and Leases),
 * told apart by each process's user agent, which carries its leader-election identity.
 */
@WithLocalControlPlane(apiServerFlags = {
    "--audit-policy-file=target/test-classes/dwd/it/audit-policy.yaml",
    "--audit-log-path=target/failover-audit.log",
    "--audit-log-mode=blocking"})
class ProberFailoverIT {

    static final Duration LEASE_DURATION = Duration.ofSeconds(4);
    static final Duration RETRY_PERIOD = Duration.ofSeconds(1);
    static final Path AUDIT_LOG = Path.of("target/failover-audit.log");

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    /** One audited write. */
    record Write(Instant received, String userAgent, String verb, String resource, String subresource, String name) { }

    @Test
    void theStandbyTakesOverFromAKilledLeaderMidFlowAndOnlyOneProcessEverWrites(LocalControlPlane controlPlane)
            throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--failover");
        var seed = new SeedFixture(controlPlane.apiClient(), namespace);
        cleanup.add(seed);
        seed.createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
        seed.createGardenerDependents();
        List<String> nodes = seed.createNodes(5);
        seed.startKubelets();
        seed.createCluster("8s");
        var recorder = new DeploymentRecorder(controlPlane.newApiClient(Duration.ZERO), namespace);
        cleanup.add(recorder);
        Path dir = Files.createTempDirectory("dwd-failover");
        // KCM (level 1) waits 4 s before its scale-down: the window in which the leader is killed.
        Path config = Files.writeString(dir.resolve("prober-config.yaml"), ProberMeltdownIT.gardenerConfigShortened()
                .replaceFirst("    scaleDown:\n      level: 1\n", "    scaleDown:\n      level: 1\n      initialDelay: 4s\n"));
        Path kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), controlPlane.kubeconfig());
        String[] election = {"--enable-leader-election", "--leader-election-namespace=" + namespace,
            "--leader-elect-lease-duration=" + LEASE_DURATION.toSeconds() + "s", "--leader-elect-renew-deadline=3s",
            "--leader-elect-retry-period=" + RETRY_PERIOD.toSeconds() + "s", "--zap-log-level=debug"};
        var lease = new CoordinationV1Api(controlPlane.apiClient());

        var first = ProberProcess.start(dir, "first", config, kubeconfig, election);
        cleanup.add(first);
        await("the first process leads").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> holder(lease, namespace).isPresent());
        String firstIdentity = holder(lease, namespace).orElseThrow();
        var second = ProberProcess.start(dir, "second", config, kubeconfig, election);
        cleanup.add(second);
        await("the second process is a ready standby").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> second.readyz() == 200);
        assertThat(PrometheusText.parse(second.metrics()).sum("dwd_leader_status", Map.of())).isZero();
        assertThat(PrometheusText.parse(first.metrics()).sum("dwd_leader_status", Map.of())).isEqualTo(1);
        await("a healthy probe").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> first.log().contains(namespace + ": lease probe: SCALE_UP"));
        assertThat(second.log()).doesNotContain(namespace + ": lease probe");

        seed.stopRenewing(nodes.subList(0, 3));
        await("level 0 scaled down, KCM waiting for its delay").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> Objects.equals(recorder.replicas(MCM), 0) && Objects.equals(recorder.replicas(CA), 0));
        assertThat(recorder.replicas(KCM)).as("KCM not yet scaled when the leader dies").isEqualTo(3);
        Instant killedAt = Instant.now();
        first.kill();

        await("the standby takes over").atMost(LEASE_DURATION.plus(RETRY_PERIOD).plusSeconds(5))
                .pollInterval(Duration.ofMillis(25))
                .until(() -> holder(lease, namespace).filter(id -> !id.equals(firstIdentity)).isPresent());
        Instant takenOverAt = Instant.now();
        String secondIdentity = holder(lease, namespace).orElseThrow();
        System.out.println("ProberFailoverIT: takeover " + Duration.between(killedAt, takenOverAt).toMillis()
                + " ms after SIGKILL (bound: " + LEASE_DURATION.plus(RETRY_PERIOD).toMillis() + " ms)");
        assertThat(Duration.between(killedAt, takenOverAt)).as("takeover after SIGKILL of the leader")
                .isLessThanOrEqualTo(LEASE_DURATION.plus(RETRY_PERIOD));
        await("the new leader completes the scale-down").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> Objects.equals(recorder.replicas(KCM), 0));
        assertThat(recorder.annotations(KCM)).containsEntry(ANNOTATION_REPLICAS, "3");
        assertThat(recorder.annotations(MCM)).containsEntry(ANNOTATION_REPLICAS, "2");
        await("ready as the leader").atMost(Duration.ofSeconds(10)).until(() -> second.readyz() == 200);
        assertThat(PrometheusText.parse(second.metrics()).sum("dwd_leader_status", Map.of())).isEqualTo(1);

        // The API server's record of every write in the shoot namespace.
        List<Write> writes = audit(namespace);
        List<Write> deploymentWrites = writes.stream().filter(write -> write.resource().equals("deployments"))
                .filter(write -> !write.verb().equals("create")) // the test's own set-up
                .toList();
        Map<String, List<Write>> byProcess = deploymentWrites.stream().collect(Collectors.groupingBy(
                write -> write.userAgent().contains(firstIdentity) ? "first"
                        : write.userAgent().contains(secondIdentity) ? "second" : "other: " + write.userAgent()));
        assertThat(byProcess.keySet()).as("writers of Deployments").containsExactlyInAnyOrder("first", "second");
        Instant acquiredAt = writes.stream()
                .filter(write -> write.resource().equals("leases") && write.userAgent().contains(secondIdentity))
                .map(Write::received).min(Instant::compareTo).orElseThrow();
        assertThat(byProcess.get("first")).as("the first process wrote only before it was killed")
                .allSatisfy(write -> assertThat(write.received()).isBefore(killedAt));
        assertThat(byProcess.get("second")).as("the second process wrote only after it acquired the Lease")
                .allSatisfy(write -> assertThat(write.received()).isAfterOrEqualTo(acquiredAt));
        assertThat(acquiredAt).as("the second process wrote nothing, not even the Lease, while the first one lived")
                .isAfter(killedAt);
        assertThat(names(byProcess.get("first"))).containsExactlyInAnyOrder(MCM, CA);
        assertThat(names(byProcess.get("second"))).as("no Deployment written by both").containsExactly(KCM);
        assertThat(byProcess.get("second")).as("a Deployment's scale and record are one patch")
                .extracting(Write::verb).containsOnly("patch");

        assertThat(second.terminate()).isEqualTo(143);
    }

    private static Set<String> names(List<Write> writes) {
        return writes.stream().map(Write::name).collect(Collectors.toSet());
    }

    private static java.util.Optional<String> holder(CoordinationV1Api api, String namespace) {
        try {
            V1Lease lease = api.readNamespacedLease("dwd-prober-leader-election", namespace).execute();
            return java.util.Optional.ofNullable(lease.getSpec().getHolderIdentity()).filter(id -> !id.isEmpty());
        } catch (Exception e) {
            return java.util.Optional.empty();
        }
    }

    private static List<Write> audit(String namespace) throws Exception {
        var writes = new ArrayList<Write>();
        for (String line : Files.readAllLines(AUDIT_LOG)) {
            JsonObject event = JsonParser.parseString(line).getAsJsonObject();
            JsonObject ref = event.getAsJsonObject("objectRef");
            if (ref == null || !ref.has("namespace") || !namespace.equals(ref.get("namespace").getAsString())) {
                continue;
            }
            writes.add(new Write(Instant.parse(event.get("requestReceivedTimestamp").getAsString()),
                    event.has("userAgent") ? event.get("userAgent").getAsString() : "",
                    event.get("verb").getAsString(), ref.get("resource").getAsString(),
                    ref.has("subresource") ? ref.get("subresource").getAsString() : "",
                    ref.has("name") ? ref.get("name").getAsString() : ""));
        }
        return writes;
    }
}
