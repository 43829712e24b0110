package dwd.bootstrap.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A dwd role ({@code dwd prober} or {@code dwd weeder}) that the demo runs as a process of its own:
 * started the way the demo itself was started ({@link #launcher()}), with its metrics and health
 * servers on free loopback ports. Its output (stdout and stderr) is read line by line and handed
 * to a listener; its last lines are kept to explain an early exit.
 */
final class RoleProcess {

    /** The dwd entrypoint: what {@code ./dwd} and a container image run. */
    static final String MAIN_MODULE = "dwd.bootstrap/dwd.bootstrap.Main";

    private static final int LAST_LINES = 12;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1)).build();

    private final String role;
    private final List<String> command;
    private final Process process;
    private final int metricsPort;
    private final int healthPort;
    private final Instant started = Instant.now();
    private final Deque<String> lastLines = new ArrayDeque<>();
    private volatile boolean runningWhenStopped = true;
    private volatile Instant terminatedAt;
    /** When the process was seen to exit. */
    private final CompletableFuture<Instant> exited;

    private RoleProcess(String role, List<String> command, Process process, int metricsPort, int healthPort) {
        this.role = role;
        this.command = command;
        this.process = process;
        this.metricsPort = metricsPort;
        this.healthPort = healthPort;
        this.exited = process.onExit().thenApply(ended -> Instant.now());
    }

    /**
     * Starts {@code dwd <role> <arguments>} with {@code --metrics-bind-addr} and {@code --health-bind-addr}
     * on free loopback ports. Call from a thread that lives as long as the process (see {@link ChildProcesses}).
     *
     * @param lines told of every line the process writes, in order, from a thread of its own
     */
    static RoleProcess start(String role, List<String> arguments, Consumer<String> lines) {
        try {
            int metricsPort = LocalKubernetes.freePort();
            int healthPort = LocalKubernetes.freePort();
            var command = new ArrayList<>(launcher());
            command.add(role);
            command.addAll(arguments);
            command.add("--metrics-bind-addr=127.0.0.1:" + metricsPort);
            command.add("--health-bind-addr=127.0.0.1:" + healthPort);
            Process process = new ProcessBuilder(ChildProcesses.owned(command)).redirectErrorStream(true).start();
            var started = new RoleProcess(role, List.copyOf(command), process, metricsPort, healthPort);
            Thread.ofPlatform().daemon().name("dwd-demo-" + role + "-output").start(() -> started.pump(lines));
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start dwd " + role + ": " + e.getMessage(), e);
        }
    }

    /**
     * The command that runs dwd, as this process was started: its java, JVM flags and argfiles,
     * module path and main module (from {@code /proc}, through {@link ProcessHandle}), less flags that
     * would write an AOT cache. So the roles run exactly what the demo runs, from {@code ./dwd} as from
     * a container image. If this process was not started through the main module, the same launch is
     * rebuilt from {@code java.home}, {@code dwd.home}'s {@code deploy/jvm.args} and the module path
     * (or class path).
     */
    static List<String> launcher() {
        ProcessHandle.Info self = ProcessHandle.current().info();
        if (self.command().isPresent() && self.arguments().isPresent()) {
            String[] arguments = self.arguments().get();
            for (int i = 0; i < arguments.length; i++) {
                boolean moduleFlag = (arguments[i].equals("--module") || arguments[i].equals("-m")) && i + 1 < arguments.length;
                if (moduleFlag || arguments[i].startsWith("--module=")) {
                    var command = new ArrayList<String>();
                    command.add(self.command().get());
                    List.of(arguments).subList(0, moduleFlag ? i + 2 : i + 1).stream()
                            .filter(argument -> !writesAotCache(argument)).forEach(command::add);
                    return command;
                }
            }
        }
        var command = new ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Optional.ofNullable(System.getProperty("dwd.home")).ifPresent(home -> {
            Path argfile = Path.of(home, "deploy", "jvm.args");
            if (Files.isRegularFile(argfile)) {
                command.add("@" + argfile);
            }
            command.add("-Ddwd.home=" + home);
        });
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null) {
            command.addAll(List.of("--module-path", modulePath, "--module", MAIN_MODULE));
        } else {
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dwd.bootstrap.Main"));
        }
        return command;
    }

    /**
     * A JVM flag that records or writes an AOT cache (a launcher's training run): the roles use a
     * cache the launcher made, but must not write one, let alone three processes the same file.
     */
    static boolean writesAotCache(String argument) {
        return argument.startsWith("-XX:AOTCacheOutput=") || argument.startsWith("-XX:AOTConfiguration=")
                || argument.equals("-XX:AOTMode=record") || argument.equals("-XX:AOTMode=create");
    }

    private void pump(Consumer<String> lines) {
        try (var reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                synchronized (lastLines) {
                    lastLines.addLast(line);
                    if (lastLines.size() > LAST_LINES) {
                        lastLines.removeFirst();
                    }
                }
                lines.accept(line);
            }
        } catch (IOException | RuntimeException ended) {
            // The process is gone or the demo stops; nothing more to read.
        }
    }

    String role() {
        return role;
    }

    /** The full command line, as {@code ps} shows it. */
    List<String> command() {
        return command;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    CompletableFuture<Process> onExit() {
        return process.onExit();
    }

    String metricsUrl(String path) {
        return "http://127.0.0.1:" + metricsPort + path;
    }

    String healthUrl(String path) {
        return "http://127.0.0.1:" + healthPort + path;
    }

    /** The last lines the process wrote, oldest first. */
    List<String> lastLines() {
        synchronized (lastLines) {
            return List.copyOf(lastLines);
        }
    }

    /** Whether {@code /readyz} answers 200; throws if the process has exited. */
    boolean ready() {
        if (!process.isAlive()) {
            throw new IllegalStateException(exitReport());
        }
        try {
            return get(healthUrl("/readyz")).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** {@code dwd prober (pid 42) exited with status 1; its last lines: …}. */
    String exitReport() {
        var report = new StringBuilder(name() + " exited with status " + describe(process.exitValue()));
        List<String> last = lastLines();
        if (!last.isEmpty()) {
            report.append("; its last lines:");
            last.forEach(line -> report.append("\n    ").append(line));
        }
        return report.toString();
    }

    /** {@code dwd prober (pid 42)}. */
    String name() {
        return "dwd " + role + " (pid " + process.pid() + ")";
    }

    /** Sends SIGTERM (the role shuts down as in a pod); a no-op once it has exited. */
    void terminate() {
        runningWhenStopped = process.isAlive();
        terminatedAt = Instant.now();
        process.destroy();
    }

    /** Waits for the exit after {@link #terminate()} (SIGKILL after 20 s) and says how it ended. */
    String awaitStopped() {
        if (!runningWhenStopped) {
            return name() + " had exited already, with status " + describe(process.exitValue());
        }
        try {
            Instant exitedAt = exited.get(20, TimeUnit.SECONDS);
            return "stopped " + name() + " in " + Narrator.seconds(Duration.between(terminatedAt, exitedAt))
                    + " (SIGTERM, exit status " + process.exitValue() + ")";
        } catch (TimeoutException e) {
            try {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            return "stopped " + name() + ": no exit 20s after SIGTERM, killed";
        } catch (ExecutionException e) {
            return "stopped " + name() + ": " + e.getCause();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return "stopped " + name() + ": killed (interrupted while waiting)";
        }
    }

    /** {@code 137, killed by SIGKILL} for a process that ended on a signal, else the number. */
    static String describe(int status) {
        return switch (status) {
            case 130 -> "130, on SIGINT";
            case 137 -> "137, killed by SIGKILL";
            case 143 -> "143, on SIGTERM";
            default -> Integer.toString(status);
        };
    }

    Duration uptime() {
        return Duration.between(started, Instant.now());
    }

    Instant startedAt() {
        return started;
    }

    /** A response of a role's endpoint. */
    record Response(int statusCode, String body) { }

    static Response get(String url) throws IOException {
        var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build();
        try {
            var response = HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Response(response.statusCode(), response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking " + url, e);
        }
    }
}
