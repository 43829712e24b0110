package dwd.bootstrap.demo;

import dwd.adapters.k8s.ApiClients;
import dwd.application.port.out.Scheduler;
import dwd.bootstrap.run.Readiness;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.VersionApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real etcd + kube-apiserver on loopback, for the demo: started from the binaries that
 * {@code scripts/control-plane} builds, with static-token authentication (an admin token and,
 * for shadow-mode demos, more identities), RBAC, and everything in a throw-away directory.
 * {@link #close()} stops both processes and removes the directory.
 */
public final class LocalKubernetes implements AutoCloseable {

    /** A bearer token and the user it authenticates as. */
    public record Identity(String token, String user, String group) { }

    static final Identity ADMIN = new Identity("dwd-demo-admin-token", "demo-admin", "system:masters");

    private final Path workDirectory;
    private final Path binaries;
    private final List<Process> processes = new ArrayList<>();
    private final List<String> logFiles = new ArrayList<>();
    private final int apiServerPort;
    private boolean stopped;
    private String caData;

    private LocalKubernetes(Path workDirectory, Path binaries, int apiServerPort) {
        this.workDirectory = workDirectory;
        this.binaries = binaries;
        this.apiServerPort = apiServerPort;
    }

    /** Where the binaries are: {@code DWD_CONTROL_PLANE_DIR}, else the build script's cache. */
    public static Optional<Path> findBinaries(Path cacheDirectory) {
        Path versions = cacheDirectory.resolve("k8s");
        if (!Files.isDirectory(versions)) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.list(versions)) {
            return dirs.filter(dir -> Files.isExecutable(dir.resolve("kube-apiserver")) && Files.isExecutable(dir.resolve("etcd")))
                    .max(Comparator.naturalOrder());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Starts etcd and kube-apiserver from {@code binaries} and waits until the API server is ready.
     *
     * @param extraIdentities more static tokens the API server accepts
     */
    public static LocalKubernetes start(Path binaries, Scheduler scheduler, List<Identity> extraIdentities) {
        var kubernetes = create(binaries);
        try {
            kubernetes.launch(scheduler, extraIdentities);
        } catch (RuntimeException e) {
            kubernetes.close();
            throw e;
        }
        return kubernetes;
    }

    /** A control plane not started yet: its work directory and API server port; {@link #stop()} removes them. */
    public static LocalKubernetes create(Path binaries) {
        try {
            return new LocalKubernetes(Files.createTempDirectory("dwd-demo-"), binaries, freePort());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the local control plane: " + e.getMessage(), e);
        }
    }

    /**
     * Starts etcd and kube-apiserver and waits until the API server is ready.
     *
     * @throws IllegalStateException if either exits or the API server is not ready within 90 s, or
     *                               {@link #stop()} was called meanwhile; what it started keeps running
     *                               until {@link #stop()}
     */
    public void launch(Scheduler scheduler, List<Identity> extraIdentities) {
        try {
            launchProcesses(scheduler, extraIdentities);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the local control plane: " + e.getMessage(), e);
        }
    }

    private void launchProcesses(Scheduler scheduler, List<Identity> extraIdentities) throws IOException {
        int etcdPort = freePort();
        int peerPort = freePort();
        Files.createDirectories(workDirectory.resolve("certs"));
        start(List.of(binaries.resolve("etcd").toString(),
                "--data-dir", workDirectory.resolve("etcd").toString(),
                "--listen-client-urls", "http://127.0.0.1:" + etcdPort,
                "--advertise-client-urls", "http://127.0.0.1:" + etcdPort,
                "--listen-peer-urls", "http://127.0.0.1:" + peerPort,
                "--initial-advertise-peer-urls", "http://127.0.0.1:" + peerPort,
                "--initial-cluster", "default=http://127.0.0.1:" + peerPort,
                "--log-level", "warn"), "etcd.log");

        Path serviceAccountKey = workDirectory.resolve("service-account.key");
        Files.writeString(serviceAccountKey, newRsaKeyPem());
        var tokens = new StringBuilder();
        for (Identity identity : concat(List.of(ADMIN), extraIdentities)) {
            tokens.append(identity.token()).append(',').append(identity.user()).append(',').append(identity.user())
                    .append(identity.group() == null ? "" : ",\"" + identity.group() + "\"").append('\n');
        }
        Path tokenFile = Files.writeString(workDirectory.resolve("tokens.csv"), tokens);
        start(List.of(binaries.resolve("kube-apiserver").toString(),
                "--etcd-servers", "http://127.0.0.1:" + etcdPort,
                "--bind-address", "127.0.0.1",
                "--advertise-address", "127.0.0.1",
                "--secure-port", Integer.toString(apiServerPort),
                "--cert-dir", workDirectory.resolve("certs").toString(),
                "--token-auth-file", tokenFile.toString(),
                "--authorization-mode", "RBAC",
                "--service-account-issuer", "https://localhost",
                "--service-account-key-file", serviceAccountKey.toString(),
                "--service-account-signing-key-file", serviceAccountKey.toString(),
                "--service-cluster-ip-range", "10.0.0.0/24",
                "--disable-admission-plugins", "ServiceAccount",
                "--allow-privileged"), "kube-apiserver.log");

        Path servingCertificate = workDirectory.resolve("certs").resolve("apiserver.crt");
        Readiness.await(scheduler, "the local kube-apiserver", Duration.ofSeconds(90), () -> {
            ensureRunning();
            return Files.exists(servingCertificate) && answers(servingCertificate);
        });
    }

    private boolean answers(Path servingCertificate) {
        try {
            caData = Base64.getEncoder().encodeToString(Files.readAllBytes(servingCertificate));
            new VersionApi(client(ADMIN, Duration.ofSeconds(2))).getCode().execute();
            return true;
        } catch (Exception notYet) {
            return false;
        }
    }

    private synchronized void ensureRunning() {
        if (stopped) {
            throw new IllegalStateException("the local control plane was stopped while it started");
        }
        for (int i = 0; i < processes.size(); i++) {
            Process process = processes.get(i);
            if (!process.isAlive()) {
                throw new IllegalStateException(logFiles.get(i).replace(".log", "") + " exited with status "
                        + process.exitValue() + "; its last output:\n" + tail(workDirectory.resolve(logFiles.get(i))));
            }
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 8), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private synchronized void start(List<String> command, String logFile) throws IOException {
        if (stopped) {
            throw new IllegalStateException("the local control plane was stopped while it started");
        }
        logFiles.add(logFile);
        processes.add(new ProcessBuilder(ChildProcesses.owned(command))
                .redirectErrorStream(true)
                .redirectOutput(workDirectory.resolve(logFile).toFile())
                .start());
    }

    /** A self-contained kubeconfig for {@code identity} (what goes into a shoot's kubeconfig secret). */
    public String kubeconfig(Identity identity) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: local
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: %s
                  user:
                    token: %s
                contexts:
                - name: local
                  context:
                    cluster: local
                    user: %s
                current-context: local
                """.formatted(server(), caData, identity.user(), identity.token(), identity.user());
    }

    public String server() {
        return "https://127.0.0.1:" + apiServerPort;
    }

    public ApiClient client(Identity identity, Duration timeout) {
        return ApiClients.fromKubeconfig(kubeconfig(identity), timeout);
    }

    /** Writes the admin kubeconfig to the work directory and returns its path (for a seed connection). */
    public Path writeKubeconfig(Identity identity) {
        try {
            return Files.writeString(workDirectory.resolve(identity.user() + ".kubeconfig"), kubeconfig(identity));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<Long> pids() {
        return processes.stream().map(Process::pid).toList();
    }

    /** The kubectl built with the control plane, if it was. */
    public Optional<Path> kubectl() {
        return Optional.of(binaries.resolve("kubectl")).filter(Files::isExecutable);
    }

    public Path workDirectory() {
        return workDirectory;
    }

    /** Stops kube-apiserver, then etcd (SIGTERM, then SIGKILL after 10 s), and removes the work directory. */
    @Override
    public void close() {
        stop();
    }

    /**
     * Stops kube-apiserver, then etcd (SIGTERM, then SIGKILL after 10 s), and removes the work
     * directory; safe to call twice. Returns what it did, one line each.
     */
    public synchronized List<String> stop() {
        stopped = true;
        var report = new ArrayList<String>();
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process process = processes.get(i);
            String name = logFiles.get(i).replace(".log", "") + " (pid " + process.pid() + ")";
            boolean wasAlive = process.isAlive();
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                    report.add("stopped " + name + ": no exit 10s after SIGTERM, killed");
                } else {
                    report.add(wasAlive ? "stopped " + name : name + " had already exited with status " + process.exitValue());
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                report.add("stopped " + name + ": killed (interrupted while waiting)");
            }
        }
        processes.clear();
        logFiles.clear();
        if (Files.exists(workDirectory)) {
            try (Stream<Path> files = Files.walk(workDirectory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException | UncheckedIOException ignored) {
                // reported below
            }
            report.add(Files.exists(workDirectory) ? "could not remove the work directory " + workDirectory
                    : "removed the work directory " + workDirectory);
        }
        return report;
    }

    /** Where {@link #freePort} looks first: above the well-known and commonly configured ports. */
    static final int LOWEST_PORT = 10_000;

    /**
     * A free loopback port, below the system's ephemeral range where it can: a port from that range
     * can be handed to any process's outgoing connection between this check and the bind of the
     * server it is meant for (a role then fails with "Address already in use"). Taken by another
     * server before it is bound, rarely: the demo tries the control plane again once.
     */
    public static int freePort() throws IOException {
        int ephemeralFrom = ephemeralPortsFrom();
        var random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 50 && ephemeralFrom > LOWEST_PORT; attempt++) {
            int port = random.nextInt(LOWEST_PORT, ephemeralFrom);
            try (var socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return socket.getLocalPort();
            } catch (IOException taken) {
                // another server has it: try the next
            }
        }
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The first port of the kernel's range for outgoing connections (Linux's default where unknown). */
    static int ephemeralPortsFrom() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).strip();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException unknown) {
            return 32_768;
        }
    }

    private static String newRsaKeyPem() {
        try {
            var generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            byte[] pkcs8 = generator.generateKeyPair().getPrivate().getEncoded();
            return "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pkcs8)
                    + "\n-----END PRIVATE KEY-----\n";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no RSA", e);
        }
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        var all = new ArrayList<T>(a);
        all.addAll(b);
        return all;
    }
}
