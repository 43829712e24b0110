package dwd.bootstrap;

import com.google.gson.Gson;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The image {@code make image} builds ({@code scripts/image}; built or found up to date once per test
 * JVM), and containers of it run as docs/deploy.md and the manifests prescribe: read-only root, a tmpfs at
 * {@code /tmp}, user 65532, no capabilities; on the host network, so the local API server is reachable.
 */
public final class ContainerImage {

    /** The condition of the image tests ({@code @EnabledIf}), and why they skip on a machine without podman. */
    public static final String PODMAN_INSTALLED = "dwd.bootstrap.ContainerImage#podmanInstalled";
    public static final String PODMAN_MISSING =
            "podman is not installed: the image tests skip (Debian: apt-get install -y podman runc)";

    private static ContainerImage built;

    /** The image ID. */
    public final String id;

    /** A finished container run: exit status and output (stdout and stderr together). */
    public record Result(int exitCode, String output) { }

    private ContainerImage(String id) {
        this.id = id;
    }

    public static boolean podmanInstalled() {
        return onPath("podman");
    }

    private static boolean onPath(String command) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, command)));
    }

    /** The image, built by {@code scripts/image} on first use (minutes on a fresh machine; seconds when up to date). */
    public static synchronized ContainerImage get() throws IOException, InterruptedException {
        if (built == null) {
            Path out = DwdProcess.REPOSITORY.resolve("bootstrap/target/image-build.out");
            Path log = DwdProcess.REPOSITORY.resolve("bootstrap/target/image-build.log");
            Process process = new ProcessBuilder(DwdProcess.REPOSITORY.resolve("scripts/image").toString())
                    .redirectOutput(out.toFile()).redirectError(log.toFile()).start();
            if (!process.waitFor(30, TimeUnit.MINUTES)) {
                process.destroy();
                throw new AssertionError("scripts/image did not finish within 30 minutes; its output: " + log);
            }
            List<String> lines = Files.readAllLines(out);
            if (process.exitValue() != 0 || lines.isEmpty()) {
                throw new AssertionError("scripts/image failed (exit " + process.exitValue() + "):\n" + Files.readString(log));
            }
            built = new ContainerImage(lines.getLast().strip());
        }
        return built;
    }

    /** podman with the OCI runtime (runc where installed) and the process limits this machine grants. */
    public static List<String> podman(String... args) throws IOException, InterruptedException {
        var command = new ArrayList<String>(List.of("podman"));
        if (onPath("runc")) {
            command.addAll(List.of("--runtime", "runc"));
        }
        command.addAll(List.of(args));
        return command;
    }

    private static List<String> containerFlags(String name) throws IOException, InterruptedException {
        String files = run(List.of("sh", "-c", "ulimit -n")).output().strip();
        return List.of("--name", name, "--network=host", "--read-only", "--tmpfs", "/tmp", "--user", "65532",
                "--cap-drop=ALL", "--ulimit", "nofile=" + files + ":" + files, "--ulimit", "nproc=4096:4096");
    }

    /**
     * Starts {@code dwd <args>} in a container named {@code name} (output in {@code dir/name.log}), with each
     * host file of {@code mounts} mounted read-only at its container path. SIGTERM to the returned process
     * ({@link DwdProcess#terminate()}) reaches the container through podman's signal proxy; closing it also
     * removes the container.
     */
    public Container start(Path dir, String name, Map<Path, String> mounts, int metricsPort, int healthPort, List<String> args)
            throws IOException, InterruptedException {
        var command = new ArrayList<>(podman("run", "--rm"));
        command.addAll(containerFlags(name));
        for (var mount : mounts.entrySet()) {
            Files.setPosixFilePermissions(mount.getKey(), PosixFilePermissions.fromString("rw-r--r--"));
            command.addAll(List.of("-v", mount.getKey().toAbsolutePath() + ":" + mount.getValue() + ":ro"));
        }
        command.add(id);
        command.addAll(args);
        return new Container(name, DwdProcess.start(command, dir.resolve(name + ".log"), metricsPort, healthPort));
    }

    /**
     * Starts a container of the image named {@code name} with exactly {@code podmanFlags} (and the machine's
     * process limits) and the image's entrypoint or the one the flags name, with {@code args} after the
     * image (output in {@code dir/name.log}); {@code metricsPort} is where the test reads its metrics.
     */
    public Container startWith(Path dir, String name, List<String> podmanFlags, List<String> args, int metricsPort)
            throws IOException, InterruptedException {
        String files = run(List.of("sh", "-c", "ulimit -n")).output().strip();
        var command = new ArrayList<>(podman("run", "--rm", "--name", name, "--ulimit", "nofile=" + files + ":" + files,
                "--ulimit", "nproc=4096:4096"));
        command.addAll(podmanFlags);
        command.add(id);
        command.addAll(args);
        return new Container(name, DwdProcess.start(command, dir.resolve(name + ".log"), metricsPort, -1));
    }

    /**
     * Runs a container of the image to its end with exactly {@code podmanFlags} (and the machine's process
     * limits) and {@code args} after the image.
     */
    public Result runWith(String name, List<String> podmanFlags, String... args) throws IOException, InterruptedException {
        String files = run(List.of("sh", "-c", "ulimit -n")).output().strip();
        var command = new ArrayList<>(podman("run", "--rm", "--name", name, "--ulimit", "nofile=" + files + ":" + files,
                "--ulimit", "nproc=4096:4096"));
        command.addAll(podmanFlags);
        command.add(id);
        command.addAll(List.of(args));
        try {
            return run(command);
        } finally {
            remove(name);
        }
    }

    /** Runs {@code dwd <args>} in a container to its end. */
    public Result run(String name, String... args) throws IOException, InterruptedException {
        var command = new ArrayList<>(podman("run", "--rm"));
        command.addAll(containerFlags(name));
        command.add(id);
        command.addAll(List.of(args));
        try {
            return run(command);
        } finally {
            remove(name);
        }
    }

    /** Runs {@code podman <args>} to its end (within 2 minutes). */
    public static Result podmanCommand(String... args) throws IOException, InterruptedException {
        return run(podman(args));
    }

    /** The image's labels. */
    @SuppressWarnings("unchecked")
    public Map<String, String> labels() throws IOException, InterruptedException {
        Result inspect = run(podman("image", "inspect", "--format", "{{json .Labels}}", id));
        return new Gson().fromJson(inspect.output(), Map.class);
    }

    /** The image's configured user and entrypoint. */
    public String configuration(String field) throws IOException, InterruptedException {
        return run(podman("image", "inspect", "--format", "{{json .Config." + field + "}}", id)).output().strip();
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within 2 minutes");
        }
        return new Result(process.exitValue(), output);
    }

    private static void remove(String name) throws IOException, InterruptedException {
        run(podman("rm", "--force", "--ignore", name));
    }

    /** A container of the image: a {@link DwdProcess} whose process is {@code podman run}. */
    public static final class Container extends DwdProcess {

        private final String name;

        Container(String name, DwdProcess launched) {
            super(launched);
            this.name = name;
        }

        @Override
        public void close() throws InterruptedException {
            try {
                remove(name);
            } catch (IOException e) {
                throw new IllegalStateException("cannot remove container " + name + ": " + e.getMessage(), e);
            }
            super.close();
        }
    }
}
