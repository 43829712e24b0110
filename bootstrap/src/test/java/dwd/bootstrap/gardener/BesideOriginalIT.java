package dwd.bootstrap.gardener;

import static dwd.bootstrap.gardener.BesideOriginalStage.episodes;
import static dwd.bootstrap.gardener.BesideOriginalStage.labels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Cleanup;
import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.prober.SeedFixture;
import dwd.bootstrap.weeder.CrashLoopingApiServer;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opt-in ({@code make test-beside-original}, which builds the original with Go through {@code scripts/original-dwd}):
 * the real original dependency-watchdog v1.7.0 protects a seed of three shoots with Gardener's configs and flags
 * (the delays both sides share shortened), and dwd runs beside it in shadow mode with
 * {@code --compare-with-original}, under Gardener's ClusterRoles and the additions of
 * {@code deploy/beside-original/rbac.yaml}.
 *
 * <p>Shown: the meltdown and recovery of two shoots and a crash-looping kube-apiserver after etcd recovers are each
 * an episode of both, with the same dependents in the same order, dwd's lead at least 10 s in the meltdowns (each
 * cut right after the original probed the shoot, so its next probe is an interval away); a dependent scaled by hand
 * is listed as someone else's change, not the original's; with the original prober stopped ({@code SIGSTOP})
 * through the third shoot's meltdown and recovery, both are dwd's only; the API server's audit log shows no write
 * of dwd's identities but dry runs and their own Leases, and none to the original's Leases. {@code dwd compare}'s
 * table is written to {@code bootstrap/target/beside-original/compare.txt}.
 */
@WithLocalControlPlane(apiServerFlags = {
        "--audit-policy-file=target/test-classes/dwd/it/beside-original-audit-policy.yaml",
        "--audit-log-path=target/beside-original-audit.log"})
@EnabledIf(value = "dwd.bootstrap.gardener.BesideOriginalIT#originalGiven",
        disabledReason = "opt-in: make test-beside-original (builds the original dependency-watchdog with Go)")
class BesideOriginalIT {

    static final Path OUT = DwdProcess.REPOSITORY.resolve("bootstrap/target/beside-original");
    static final String KCM = "kube-controller-manager";
    static final String MCM = "machine-controller-manager";
    static final String CA = "cluster-autoscaler";
    static final String DWD_PROBER = "system:serviceaccount:garden:dwd-prober-comparison";
    static final String DWD_WEEDER = "system:serviceaccount:garden:dwd-weeder-comparison";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    static boolean originalGiven() {
        String path = System.getProperty("dwd.original", "");
        return !path.isEmpty() && Files.isExecutable(Path.of(path));
    }

    private record Shoot(String namespace, SeedFixture seed, List<String> nodes) {
        List<String> cut() {
            return nodes.subList(0, 3); // 3 of 5 = 0.6: the threshold
        }
    }

    @Test
    void dwdBesideTheOriginalReportsEachEpisodeAsBothAndTheOriginalStoppedAsDwdOnly(LocalControlPlane controlPlane,
            @TempDir Path dir) throws Exception {
        Instant started = Instant.now();
        Files.createDirectories(OUT);
        Path binary = Path.of(System.getProperty("dwd.original"));
        ApiClient admin = controlPlane.apiClient();
        var stage = new BesideOriginalStage(controlPlane, dir);
        stage.applyRbac();

        String probeKubeconfig = stage.probeKubeconfig();
        var shoots = new ArrayList<Shoot>();
        for (String name : List.of("alpha", "beta", "gamma")) {
            String namespace = controlPlane.createNamespace("shoot--dev--" + name);
            var seed = new SeedFixture(admin, namespace);
            cleanup.add(seed);
            seed.createKubeconfigSecret(probeKubeconfig);
            seed.createGardenerDependents();
            List<String> nodes = seed.createNodes(5);
            seed.startKubelets();
            seed.createCluster("8s");
            cleanup.add(new DeploymentController(admin, controlPlane.newApiClient(Duration.ZERO), namespace));
            shoots.add(new Shoot(namespace, seed, nodes));
        }
        Shoot alpha = shoots.get(0);
        Shoot beta = shoots.get(1);
        Shoot gamma = shoots.get(2);
        var crashLoop = CrashLoopingApiServer.create(admin, alpha.namespace());

        Path proberConfig = stage.proberConfig();
        Path weederConfig = stage.weederConfig();
        OriginalProcess originalProber = stage.original(binary, "prober", proberConfig,
                stage.kubeconfig("garden", "dependency-watchdog-prober"), OUT);
        cleanup.add(originalProber);
        OriginalProcess originalWeeder = stage.original(binary, "weeder", weederConfig,
                stage.kubeconfig("garden", "dependency-watchdog-weeder"), OUT);
        cleanup.add(originalWeeder);
        DwdProcess dwdProber = stage.dwd("prober", proberConfig, stage.kubeconfig("garden", "dwd-prober-comparison"), OUT);
        cleanup.add(dwdProber);
        DwdProcess dwdWeeder = stage.dwd("weeder", weederConfig, stage.kubeconfig("garden", "dwd-weeder-comparison"), OUT);
        cleanup.add(dwdWeeder);

        await("dwd ready (its own Lease, caches synced) and the original probing every shoot")
                .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> dwdProber.readyz() == 200 && dwdWeeder.readyz() == 200
                        && shoots.stream().allMatch(shoot -> probed(originalProber, shoot)));

        // A person scales beta's kube-controller-manager by hand: someone else's change, not the original's.
        kubectlScale(controlPlane, dir, beta.namespace(), KCM, 2);
        await("the hand's scale listed as someone else's").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> BesideOriginalStage.comparison(dwdProber).getAsJsonArray("otherChanges").toString()
                        .contains("\"target\":\"" + KCM + "\",\"change\":\"replicas 3→2\""));

        // Meltdowns of alpha and beta, each cut right after the original probed the shoot.
        for (Shoot shoot : List.of(alpha, beta)) {
            long probes = originalProber.probes(shoot.namespace());
            await("the original probes " + shoot.namespace()).atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(50)).until(() -> originalProber.probes(shoot.namespace()) > probes);
            shoot.seed().stopRenewing(shoot.cut());
        }
        awaitDecided(dwdProber, List.of(alpha, beta), "meltdown", Duration.ofSeconds(120));

        for (Shoot shoot : List.of(alpha, beta)) {
            shoot.seed().resumeRenewing(shoot.cut());
        }
        awaitDecided(dwdProber, List.of(alpha, beta), "recovery", Duration.ofSeconds(150));

        crashLoop.etcdTurnsReady();
        await("the weeding decided").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> episodes(BesideOriginalStage.comparison(dwdWeeder), alpha.namespace(), "weeding").size() == 1);
        assertThat(crashLoop.podDeleted()).as("the original deleted the crash-looping pod").isTrue();

        // The original prober stopped through gamma's meltdown and recovery.
        originalProber.pause();
        try {
            gamma.seed().stopRenewing(gamma.cut());
            awaitDecided(dwdProber, List.of(gamma), "meltdown", Duration.ofSeconds(120));
            gamma.seed().resumeRenewing(gamma.cut());
            awaitDecided(dwdProber, List.of(gamma), "recovery", Duration.ofSeconds(150));
        } finally {
            originalProber.resume();
        }

        String table = compare(dwdProber, dwdWeeder);
        JsonObject prober = BesideOriginalStage.comparison(dwdProber);
        JsonObject weeder = BesideOriginalStage.comparison(dwdWeeder);
        for (Shoot shoot : List.of(alpha, beta)) {
            JsonObject meltdown = episodes(prober, shoot.namespace(), "meltdown").getFirst();
            assertThat(meltdown.get("outcome").getAsString()).as("%s: %s", shoot.namespace(), meltdown).isEqualTo("both");
            assertThat(labels(meltdown, "dwd").subList(0, 2)).containsExactlyInAnyOrder(MCM, CA);
            assertThat(labels(meltdown, "dwd").get(2)).isEqualTo(KCM);
            assertThat(labels(meltdown, "original").subList(0, 2)).containsExactlyInAnyOrder(MCM, CA);
            assertThat(labels(meltdown, "original").get(2)).isEqualTo(KCM);
            assertThat(meltdown.get("leadSeconds").getAsDouble()).as("dwd's lead in %s", shoot.namespace())
                    .isGreaterThanOrEqualTo(10.0);
            JsonObject recovery = episodes(prober, shoot.namespace(), "recovery").getFirst();
            assertThat(recovery.get("outcome").getAsString()).as("%s: %s", shoot.namespace(), recovery).isEqualTo("both");
            assertThat(labels(recovery, "dwd")).containsExactly(KCM, MCM, CA);
            assertThat(labels(recovery, "original")).containsExactly(KCM, MCM, CA);
        }
        assertThat(episodes(prober, beta.namespace(), "meltdown").getFirst().toString())
                .as("beta's kube-controller-manager from the hand's 2, on both sides")
                .contains("\"label\":\"" + KCM + "\",\"from\":2,\"to\":0");
        JsonObject weeding = episodes(weeder, alpha.namespace(), "weeding").getFirst();
        assertThat(weeding.get("outcome").getAsString()).as(weeding.toString()).isEqualTo("both");
        assertThat(labels(weeding, "dwd")).containsExactly("kube-apiserver-0");
        assertThat(episodes(prober, gamma.namespace(), "meltdown")).singleElement()
                .satisfies(episode -> assertThat(episode.get("outcome").getAsString()).isEqualTo("dwd_only"));
        assertThat(episodes(prober, gamma.namespace(), "recovery")).singleElement()
                .satisfies(episode -> assertThat(episode.get("outcome").getAsString()).isEqualTo("dwd_only"));
        assertThat(prober.getAsJsonObject("totals").toString())
                .isEqualTo("{\"both\":4,\"dwd_only\":2,\"original_only\":0,\"different\":0}");
        assertThat(weeder.getAsJsonObject("totals").get("both").getAsLong()).isEqualTo(1);
        assertThat(table).contains("Disagreements (2)").contains(gamma.namespace() + "  meltdown: dwd only");

        AuditLog audit = AuditLog.read(Path.of("target/beside-original-audit.log"), started);
        List<AuditLog.Request> dwdWrites = audit.requests().stream()
                .filter(request -> request.user().equals(DWD_PROBER) || request.user().equals(DWD_WEEDER))
                .filter(request -> List.of("create", "update", "patch", "delete", "deletecollection").contains(request.verb()))
                .toList();
        assertThat(dwdWrites).as("dwd's writes").isNotEmpty()
                .allSatisfy(write -> assertThat(write.dryRun() || ownLease(write) || review(write))
                        .as("a dry run, dwd's own Lease or an access review: %s", write).isTrue())
                .noneSatisfy(write -> assertThat(write.target()).containsAnyOf(" dwd-prober-leader-election",
                        " dwd-weeder-leader-election").doesNotContain("-dry-run"));
        assertThat(dwdWrites).filteredOn(AuditLog.Request::dryRun).extracting(AuditLog.Request::target)
                .anyMatch(target -> target.startsWith("apps/deployments in " + alpha.namespace()))
                .anyMatch(target -> target.startsWith("core/pods in " + alpha.namespace()));
        assertThat(audit.requests()).filteredOn(request -> request.user().endsWith(":dependency-watchdog-prober"))
                .extracting(AuditLog.Request::target).as("the original's own writes are in the log too")
                .anyMatch(target -> target.startsWith("apps/deployments/scale in " + alpha.namespace()));
        assertThat(audit.answered(403)).as("requests answered 403").isEmpty();
    }

    private static boolean probed(OriginalProcess original, Shoot shoot) {
        try {
            return original.probes(shoot.namespace()) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean ownLease(AuditLog.Request write) {
        return write.target().startsWith("coordination.k8s.io/leases in garden")
                && (write.target().endsWith("-dry-run") || write.target().equals("coordination.k8s.io/leases in garden"));
    }

    private static boolean review(AuditLog.Request write) {
        return write.target().startsWith("authorization.k8s.io/selfsubject");
    }

    private static void awaitDecided(DwdProcess dwd, List<Shoot> shoots, String kind, Duration within) {
        await(kind + " of " + shoots.stream().map(Shoot::namespace).toList() + " decided").atMost(within)
                .pollInterval(Duration.ofMillis(500)).until(() -> {
                    JsonObject page = BesideOriginalStage.comparison(dwd);
                    return shoots.stream().allMatch(shoot -> episodes(page, shoot.namespace(), kind).size() == 1);
                });
    }

    /** {@code kubectl scale}, as a person would, with the admin's kubeconfig. */
    private static void kubectlScale(LocalControlPlane controlPlane, Path dir, String namespace, String deployment,
            int replicas) throws IOException, InterruptedException {
        Path kubeconfig = Files.writeString(dir.resolve("admin.kubeconfig"), controlPlane.selfContainedKubeconfig());
        String base = System.getProperty("dwd.controlPlane.dir", System.getenv("DWD_CONTROL_PLANE_DIR"));
        Path kubectl;
        try (var versions = Files.list(Path.of(base, "k8s"))) {
            kubectl = versions.map(version -> version.resolve("kubectl")).filter(Files::isExecutable).findFirst().orElseThrow();
        }
        Process process = new ProcessBuilder(kubectl.toString(), "--kubeconfig", kubeconfig.toString(), "-n", namespace,
                "scale", "deployment/" + deployment, "--replicas=" + replicas).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0).as(output).isTrue();
    }

    /** {@code ./dwd compare} against both roles, as an operator runs it; the table kept with its date and command. */
    private static String compare(DwdProcess prober, DwdProcess weeder) throws IOException, InterruptedException {
        var command = List.of(DwdProcess.REPOSITORY.resolve("dwd").toString(), "compare",
                "http://127.0.0.1:" + prober.metricsPort, "http://127.0.0.1:" + weeder.metricsPort);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String table = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0).as(table).isTrue();
        Files.writeString(OUT.resolve("compare.txt"), "$ ./dwd compare <prober> <weeder>   (BesideOriginalIT, "
                + LocalDate.now(ZoneOffset.UTC) + ")\n" + table);
        System.out.println(table);
        return table;
    }
}
