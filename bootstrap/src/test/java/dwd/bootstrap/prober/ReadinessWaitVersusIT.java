package dwd.bootstrap.prober;

import static dwd.bootstrap.prober.ProberMeltdownIT.CA;
import static dwd.bootstrap.prober.ProberMeltdownIT.KCM;
import static dwd.bootstrap.prober.ProberMeltdownIT.MCM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.prober.DeploymentRecorder.Change;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opt-in, not part of {@code make test}: the scale-up's levels of {@code ./dwd prober} beside those of
 * the original dependency-watchdog, whose binary {@code -Ddwd.original=<path>} names (nothing of it is
 * in this repository; docs/prober.md says how to build v1.7.0). Each runs alone against the local
 * API server with Gardener's prober config (the first probe after 1 s instead of 30 s), on a shoot
 * whose dependents a meltdown left at 0 and whose leases are fresh; no Deployment ever has a ready pod.
 * The gaps between the three scale-ups, as the API server's watch saw them, are written to
 * {@code bootstrap/target/readiness-wait-versus.md}, the table of docs/prober.md.
 *
 * <pre>
 * DWD_CONTROL_PLANE_DIR="$(scripts/control-plane --path)" scripts/mvn -pl bootstrap -am verify -Dtest=none \
 *   -Dit.test=ReadinessWaitVersusIT -Ddwd.original=/path/to/dependency-watchdog \
 *   -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false
 * </pre>
 */
@WithLocalControlPlane
@EnabledIfSystemProperty(named = "dwd.original", matches = ".+")
class ReadinessWaitVersusIT {

    /** The gaps between one implementation's scale-ups. */
    record Gaps(String implementation, Duration kcmToMcm, Duration mcmToCa) { }

    @TempDir
    Path dir;

    @Test
    void withGardenersConfigAndNoReadyPodsMcmFollowsKcmAsInTheOriginalAndCaFollowsMcmWithoutASecondDelay(
            LocalControlPlane controlPlane) throws Exception {
        Path original = Path.of(System.getProperty("dwd.original"));
        assertThat(original).as("-Ddwd.original").isExecutable();
        Path config = Files.writeString(dir.resolve("prober-config.yaml"),
                Files.readString(ProberMeltdownIT.REPOSITORY.resolve("deploy/examples/prober-config.yaml"))
                        .replace("probeInterval: 30s", "probeInterval: 30s\ninitialDelay: 1s"));
        Path kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), controlPlane.kubeconfig());

        Gaps theOriginal = measure(controlPlane, "original", namespace -> {
            var command = List.of(original.toString(), "prober", "--config-file=" + config,
                    "--metrics-bind-addr=0", "--health-bind-addr=0", "--pprof-bind-addr=0");
            var builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("original.log").toFile());
            builder.environment().put("KUBECONFIG", kubeconfig.toString());
            return builder.start();
        });
        Gaps dwd = measure(controlPlane, "dwd",
                namespace -> DwdProcess.launch("prober", dir, "dwd", config, kubeconfig, List.of()).process);

        String table = """
                | Implementation | KCM → MCM | MCM → CA |
                |---|---|---|
                %s
                %s

                Measured %s on the local control plane: `%s`.
                """.formatted(row(theOriginal), row(dwd), LocalDate.now(ZoneOffset.UTC),
                "ReadinessWaitVersusIT -Ddwd.original=<dependency-watchdog v1.7.0>");
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "readiness-wait-versus.md"), table);
        System.out.println(table);

        assertThat(dwd.kcmToMcm()).as("MCM after KCM: the original's 5 s wait and MCM's 30 s delay")
                .isBetween(theOriginal.kcmToMcm().minusSeconds(2), theOriginal.kcmToMcm().plusSeconds(2));
        assertThat(dwd.mcmToCa()).as("CA after MCM: the 5 s wait, without the original's second sleep of 30 s")
                .isBetween(Duration.ofSeconds(4), Duration.ofSeconds(8));
        assertThat(theOriginal.mcmToCa()).isGreaterThan(Duration.ofSeconds(30));
    }

    @FunctionalInterface
    private interface Launcher {
        Process start(String namespace) throws IOException;
    }

    /** One implementation alone against a fresh shoot: its scale-ups, then it is stopped and the Cluster removed. */
    private Gaps measure(LocalControlPlane controlPlane, String implementation, Launcher launcher) throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--versus-" + implementation);
        try (var seed = new SeedFixture(controlPlane.apiClient(), namespace);
             var recorder = new DeploymentRecorder(controlPlane.newApiClient(Duration.ZERO), namespace)) {
            seed.createKubeconfigSecret(controlPlane.selfContainedKubeconfig());
            seed.createGardenerDependentsScaledDown(); // no pod ever becomes ready here
            seed.createNodes(5);
            seed.startKubelets();
            seed.createCluster("40s");
            Process prober = launcher.start(namespace);
            try {
                await(implementation + " scales all three up").atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> recorder.replicas(KCM) == 3 && recorder.replicas(MCM) == 2 && recorder.replicas(CA) == 1);
            } finally {
                prober.destroy();
                if (!prober.waitFor(30, TimeUnit.SECONDS)) {
                    prober.destroyForcibly();
                }
                seed.deleteCluster();
            }
            List<Change> ups = recorder.changes().stream().filter(change -> change.from() == 0).toList();
            assertThat(ups).extracting(Change::name).as(implementation).containsExactly(KCM, MCM, CA);
            return new Gaps(implementation, Duration.between(ups.get(0).seenAt(), ups.get(1).seenAt()),
                    Duration.between(ups.get(1).seenAt(), ups.get(2).seenAt()));
        }
    }

    private static String row(Gaps gaps) {
        return "| %s | %.1f s | %.1f s |".formatted(gaps.implementation(), gaps.kcmToMcm().toMillis() / 1000.0,
                gaps.mcmToCa().toMillis() / 1000.0);
    }
}
