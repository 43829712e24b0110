package dwd.bootstrap.cli;

import dwd.bootstrap.training.TrainingSeed;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dwd aot-training} (hidden): the AOT cache's training run. Starts both roles as their commands do, with
 * leader election, against a seed on loopback ({@link TrainingSeed}) served by a child process of its own, until each
 * has done its first work (the weeder a deletion, the prober two probe runs), then exits; the JVM writes the cache on
 * exit. So the cache holds what a role's start loads and links (TLS, the seed clients, leader election, metrics, the
 * watches), and a role that starts from it leads sooner; the seed's own classes (a TLS server, certificate making)
 * stay out of it, since every class in the cache is loaded at every start. Nothing is read or written outside the
 * processes but a temporary directory. {@code --serve} is the child: it serves the seed, prints its kubeconfig and
 * each kind of request it answers, and ends when its standard input does.
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

    /** The seed's requests that show both roles did their first work: a weeding, a lease probe, the slice watch. */
    private static final Set<String> FIRST_WORK = Set.of(
            "DELETE /api/v1/namespaces/" + TrainingSeed.NAMESPACE + "/pods/kube-apiserver-0",
            "GET /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases",
            "WATCH /apis/discovery.k8s.io/v1/endpointslices");

    @Spec
    CommandSpec spec;

    @Option(names = "--limit", defaultValue = "PT60S", hidden = true,
            description = "How long the roles may take to do their first work.")
    Duration limit;

    @Option(names = "--serve", hidden = true, description = "Serve the training seed (the child process).")
    boolean serve;

    private final Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Override
    public Integer call() throws Exception {
        if (serve) {
            return TrainingSeed.serve();
        }
        Path dir = Files.createTempDirectory("dwd-aot-training");
        // Not stopped: the roles' shutdown hooks, which run as this process exits, still talk to it (releasing
        // leases); it ends when its standard input, this process's pipe, does.
        Process seed = new ProcessBuilder(seedCommand()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        var lines = new java.io.BufferedReader(new java.io.InputStreamReader(seed.getInputStream(),
                java.nio.charset.StandardCharsets.UTF_8));
        String first = lines.readLine();
        if (first == null || !first.startsWith(TrainingSeed.KUBECONFIG_LINE)) {
            System.err.println("dwd aot-training: the training seed did not start (" + first + ")");
            return 1;
        }
        String seedKubeconfig = new String(java.util.Base64.getDecoder().decode(
                first.substring(TrainingSeed.KUBECONFIG_LINE.length())), java.nio.charset.StandardCharsets.UTF_8);
        var firstWorkSeen = new CountDownLatch(1);
        Thread.ofVirtual().start(() -> lines.lines().filter(line -> line.startsWith(TrainingSeed.SAW_LINE))
                .forEach(line -> {
                    seen.add(line.substring(TrainingSeed.SAW_LINE.length()));
                    if (seen.containsAll(FIRST_WORK)) {
                        firstWorkSeen.countDown();
                    }
                }));
        try {
            Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), seedKubeconfig);
            Path weederConfig = Files.writeString(dir.resolve("weeder-config.yaml"), WEEDER_CONFIG);
            Path proberConfig = Files.writeString(dir.resolve("prober-config.yaml"), PROBER_CONFIG);
            List<String> common = List.of("--kubeconfig=" + kubeconfig, "--enable-leader-election=true",
                    "--metrics-bind-addr=127.0.0.1:0", "--health-bind-addr=127.0.0.1:0");
            start("weeder", concat("weeder", "--config-file=" + weederConfig, common));
            start("prober", concat("prober", "--config-file=" + proberConfig, common));
            boolean done = firstWorkSeen.await(limit.toMillis(), TimeUnit.MILLISECONDS);
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

    /** This JVM's java and module path, without its options (no AOT cache for the seed), running {@code --serve}. */
    private static List<String> seedCommand() {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin",
                "java").toString());
        return List.of(java, "-Xshare:auto", "--module-path", System.getProperty("jdk.module.path"), "--add-modules",
                "ALL-MODULE-PATH", "--module", "dwd.bootstrap/dwd.bootstrap.Main", "aot-training", "--serve");
    }

    private static String[] concat(String role, String config, List<String> common) {
        var args = new java.util.ArrayList<String>(List.of(role, config));
        args.addAll(common);
        return args.toArray(String[]::new);
    }

    /**
     * Runs a role as {@code dwd <args>} would, on a daemon thread (it returns only when the process stops): a
     * command line of its own, built from the root command's class, since picocli's parsed state is not shared.
     */
    private void start(String role, String[] args) {
        Class<?> root = spec.root().userObject().getClass();
        Thread.ofPlatform().name("dwd-training-" + role).daemon().start(() -> new CommandLine(root)
                .setOut(new PrintWriter(System.out, true)).setErr(new PrintWriter(System.err, true)).execute(args));
    }
}
