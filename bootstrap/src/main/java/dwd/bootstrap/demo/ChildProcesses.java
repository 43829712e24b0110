package dwd.bootstrap.demo;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * How the demo starts the processes it owns (etcd, kube-apiserver, {@code dwd prober},
 * {@code dwd weeder}), so that it can stop them in order and none outlives it.
 *
 * <ul>
 *   <li>{@code setsid}: each runs in a session of its own, so a Ctrl-C in the terminal reaches the
 *       demo alone, which then stops them in order (roles first, then the control plane) and says
 *       what it stopped; without it, the terminal would interrupt all of them at once.</li>
 *   <li>{@code setpriv --pdeathsig TERM}: if the demo dies without stopping them (SIGKILL, a crash
 *       of the JVM), the kernel sends each SIGTERM.</li>
 * </ul>
 *
 * Both are util-linux tools that {@code exec} the command, so the process keeps its pid. Where
 * they are missing the command runs as it is. The parent-death signal fires when the thread that
 * started the process ends, so the demo starts every child from its main thread.
 */
final class ChildProcesses {

    private static final List<String> PREFIX = prefix();

    private ChildProcesses() {
    }

    /** {@code command}, run in a session of its own and tied to this process's life where the tools exist. */
    static List<String> owned(List<String> command) {
        var full = new ArrayList<>(PREFIX);
        full.addAll(command);
        return full;
    }

    private static List<String> prefix() {
        var prefix = new ArrayList<String>();
        onPath("setsid").ifPresent(setsid -> prefix.add(setsid.toString()));
        onPath("setpriv").filter(ChildProcesses::knowsParentDeathSignal)
                .ifPresent(setpriv -> prefix.addAll(List.of(setpriv.toString(), "--pdeathsig", "TERM", "--")));
        return List.copyOf(prefix);
    }

    /** util-linux before 2.33 has no {@code --pdeathsig}. */
    private static boolean knowsParentDeathSignal(Path setpriv) {
        try {
            Process probe = new ProcessBuilder(setpriv.toString(), "--pdeathsig", "TERM", "--", "true")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return probe.waitFor(5, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Optional<Path> onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        return Stream.of(path.split(File.pathSeparator)).filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, tool)).filter(Files::isExecutable).findFirst();
    }
}
