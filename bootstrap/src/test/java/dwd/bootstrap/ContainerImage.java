package dwd.bootstrap;

import com.google.gson.Gson;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * An image of the manifest list {@code make image} builds ({@code scripts/image}; built or found up to date
 * once per test JVM): the host architecture's, or another's run under emulation ({@code --platform}). Containers
 * of it run as docs/deploy.md and the manifests prescribe: read-only root, a tmpfs at {@code /tmp}, user 65532,
 * no capabilities; on the host network, so the local API server is reachable.
 */
public final class ContainerImage {

    /** The condition of the image tests ({@code @EnabledIf}), and why they skip on a machine without podman. */
    public static final String PODMAN_INSTALLED = "dwd.bootstrap.ContainerImage#podmanInstalled";
    public static final String PODMAN_MISSING =
            "podman is not installed: the image tests skip (Debian: apt-get install -y podman runc)";

    /** The platform of the images this machine runs without emulation. */
    public static final String HOST_PLATFORM = "linux/" + switch (System.getProperty("os.arch")) {
        case "amd64", "x86_64" -> "amd64";
        case "aarch64", "arm64" -> "arm64";
        default -> System.getProperty("os.arch");
    };

    /** The platform the image tests run ({@code -Ddwd.image.platform}, {@code make image-arm64-smoke}); the host's by default. */
    public static final String TEST_PLATFORM = System.getProperty("dwd.image.platform", HOST_PLATFORM);

    /** Each platform's image of the manifest list scripts/image built, the host's first. */
    private static Map<String, ContainerImage> built;
    private static String buildLog;

    /** The image ID. */
    public final String id;

    /** The image's platform, {@code linux/<arch>}. */
    public final String platform;

    /** A finished container run: exit status and output (stdout and stderr together). */
    public record Result(int exitCode, String output) { }

    private ContainerImage(String id, String platform) {
        this.id = id;
        this.platform = platform;
    }

    /** Whether the image's JVM runs under emulation here (qemu-user through binfmt_misc). */
    public boolean emulated() {
        return !platform.equals(HOST_PLATFORM);
    }

    /** The flags that run the image without podman's warning that its platform is not the machine's. */
    private List<String> platformFlags() {
        return emulated() ? List.of("--platform", platform) : List.of();
    }

    public static boolean podmanInstalled() {
        return onPath("podman");
    }

    private static boolean onPath(String command) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, command)));
    }

    /**
     * The host architecture's image of the manifest list {@code scripts/image} builds on first use (minutes on a
     * fresh machine; seconds when up to date).
     */
    public static ContainerImage get() throws IOException, InterruptedException {
        return build().get(HOST_PLATFORM);
    }

    /**
     * The image of {@code platform} ({@code linux/arm64}), or empty where scripts/image left it out; {@link
     * #leftOut(String)} says why.
     */
    public static Optional<ContainerImage> get(String platform) throws IOException, InterruptedException {
        return Optional.ofNullable(build().get(platform));
    }

    /** Every image of the manifest list, by platform. */
    public static Map<String, ContainerImage> all() throws IOException, InterruptedException {
        return build();
    }

    /** The line in which scripts/image said why it built only the host's architecture, or a line naming {@code platform}. */
    public static String leftOut(String platform) throws IOException, InterruptedException {
        build();
        return buildLog.lines().filter(line -> line.contains("only:")).findFirst()
                .orElse("scripts/image built no " + platform + " image");
    }

    private static synchronized Map<String, ContainerImage> build() throws IOException, InterruptedException {
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
            buildLog = Files.readString(log);
            if (process.exitValue() != 0 || lines.isEmpty()) {
                throw new AssertionError("scripts/image failed (exit " + process.exitValue() + "):\n" + buildLog);
            }
            var images = new LinkedHashMap<String, ContainerImage>();
            images.put(HOST_PLATFORM, new ContainerImage(lines.getLast().strip(), HOST_PLATFORM));
            for (String line : lines) {
                String[] platformAndId = line.strip().split(" ");
                if (platformAndId.length == 2 && platformAndId[0].startsWith("linux/")) {
                    images.putIfAbsent(platformAndId[0], new ContainerImage(platformAndId[1], platformAndId[0]));
                }
            }
            built = Collections.unmodifiableMap(images);
        }
        return built;
    }

    /** The image {@link #TEST_PLATFORM} names, or the test is skipped with the line that says why there is none. */
    public static ContainerImage forTest() throws IOException, InterruptedException {
        var image = get(TEST_PLATFORM);
        Assumptions.assumeTrue(image.isPresent(), () -> leftOutQuietly(TEST_PLATFORM));
        return image.orElseThrow();
    }

    private static String leftOutQuietly(String platform) {
        try {
            return leftOut(platform);
        } catch (IOException | InterruptedException e) {
            return "scripts/image built no " + platform + " image";
        }
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
        command.addAll(platformFlags());
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
        command.addAll(platformFlags());
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
        command.addAll(platformFlags());
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
        command.addAll(platformFlags());
        command.addAll(containerFlags(name));
        command.add(id);
        command.addAll(List.of(args));
        try {
            return run(command);
        } finally {
            remove(name);
        }
    }

    /** Runs {@code podman <args>} to its end (within 5 minutes: a JVM under emulation is slow). */
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
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within 5 minutes");
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
