package dwd.bootstrap.training;

import dwd.bootstrap.cli.DwdCommand;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dwd aot-training} (hidden): the AOT cache's training run. Starts both roles as their commands do, with
 * leader election, against a seed of its own on loopback ({@link TrainingSeed}), until each has done its first work
 * (the weeder a deletion, the prober two probe runs), then exits; the JVM writes the cache on exit. So the cache
 * holds what a role's start loads and links (TLS, the seed clients, leader election, metrics, the watches), and a
 * role that starts from it leads sooner. Nothing is read or written outside the process but a temporary directory.
 */
@Command(name = "aot-training", hidden = true, mixinStandardHelpOptions = true,
        description = "Train the AOT cache: run both roles' start against a loopback seed of this process, then exit.")
public final class AotTrainingCommand implements Callable<Integer> {

    private static final String WEEDER_CONFIG = """
            watchDuration: 5m0s
            servicesAndDependantSelectors:
              etcd-main-client:
                podSelectors:
                  - matchExpressions:
                      - {key: gardener.cloud/role, operator: In, values: [controlplane]}
                      - {key: role, operator: In, values: [apiserver]}
              kube-apiserver:
                podSelectors:
                  - matchExpressions:
                      - {key: gardener.cloud/role, operator: In, values: [controlplane]}
                      - {key: role, operator: NotIn, values: [main, apiserver]}
            """;

    private static final String PROBER_CONFIG = """
            kubeConfigSecretName: shoot-access-dependency-watchdog-probe
            probeInterval: 1s
            initialDelay: 0s
            dependentResourceInfos:
              - ref: {kind: Deployment, name: kube-controller-manager, apiVersion: apps/v1}
                optional: false
                scaleUp: {level: 0}
                scaleDown: {level: 1}
              - ref: {kind: Deployment, name: machine-controller-manager, apiVersion: apps/v1}
                optional: false
                scaleUp: {level: 1, initialDelay: 30s}
                scaleDown: {level: 0}
              - ref: {kind: Deployment, name: cluster-autoscaler, apiVersion: apps/v1}
                optional: true
                scaleUp: {level: 2}
                scaleDown: {level: 0}
            """;

    @Option(names = "--limit", defaultValue = "PT60S", hidden = true,
            description = "How long the roles may take to do their first work.")
    Duration limit;

    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("dwd-aot-training");
        // Not closed: the roles' shutdown hooks, which run as the process exits, still talk to it (releasing leases).
        var seed = new TrainingSeed();
        try {
            Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), seed.kubeconfig());
            Path weederConfig = Files.writeString(dir.resolve("weeder-config.yaml"), WEEDER_CONFIG);
            Path proberConfig = Files.writeString(dir.resolve("prober-config.yaml"), PROBER_CONFIG);
            List<String> common = List.of("--kubeconfig=" + kubeconfig, "--enable-leader-election=true",
                    "--metrics-bind-addr=127.0.0.1:0", "--health-bind-addr=127.0.0.1:0");
            start("weeder", concat("weeder", "--config-file=" + weederConfig, common));
            start("prober", concat("prober", "--config-file=" + proberConfig, common));
            boolean done = await(() -> seed.saw("DELETE /api/v1/namespaces/" + TrainingSeed.NAMESPACE + "/pods/kube-apiserver-0")
                    && seed.saw("GET /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases")
                    && seed.saw("WATCH /apis/discovery.k8s.io/v1/endpointslices"));
            Thread.sleep(Duration.ofSeconds(2)); // a few more probe runs, renewals and timer rounds

            System.err.println("dwd aot-training: " + (done ? "both roles did their first work" : "timed out after "
                    + limit + "; the cache holds what ran until then"));
            return 0; // Main exits: the roles' shutdown hooks run, then the JVM writes the cache
        } finally {
            try (var files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private static String[] concat(String role, String config, List<String> common) {
        var args = new java.util.ArrayList<String>(List.of(role, config));
        args.addAll(common);
        return args.toArray(String[]::new);
    }

    /** Runs a role as {@code dwd <args>} would, on a daemon thread (it returns only when the process stops). */
    private static void start(String role, String[] args) {
        Thread.ofPlatform().name("dwd-training-" + role).daemon().start(() -> new CommandLine(new DwdCommand())
                .setOut(new PrintWriter(System.out, true)).setErr(new PrintWriter(System.err, true)).execute(args));
    }

    private boolean await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(50);
        }
        return condition.getAsBoolean();
    }
}
