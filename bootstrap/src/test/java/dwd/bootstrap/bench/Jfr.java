package dwd.bootstrap.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Java Flight Recorder on another JVM, through {@code jcmd}: a recording of TLS handshakes only (no
 * measurable cost), or the JDK's {@code profile} settings for CPU profiles; then counts and top frames.
 */
final class Jfr {

    /** A frame and its share of the execution samples. */
    record Frame(String method, long samples, double share) { }

    /** What a recording holds: TLS handshakes, and where the CPU samples were. */
    record Figures(long handshakes, long samples, List<Frame> topSelf, List<Frame> topDwd) { }

    private static final String HANDSHAKES_ONLY = """
            <?xml version="1.0" encoding="UTF-8"?>
            <configuration version="2.0" label="handshakes">
              <event name="jdk.TLSHandshake"><setting name="enabled">true</setting><setting name="stackTrace">false</setting></event>
            </configuration>
            """;

    private Jfr() {
    }

    /** Starts recording {@code pid} into {@code file}: handshakes only, or the {@code profile} settings as well. */
    static void start(long pid, Path file, boolean profile) throws IOException, InterruptedException {
        String settings;
        if (profile) {
            settings = "settings=profile";
        } else {
            Path jfc = file.resolveSibling("handshakes.jfc");
            Files.writeString(jfc, HANDSHAKES_ONLY);
            settings = "settings=" + jfc;
        }
        // The recording's chunks go next to the file, not to the JVM's temporary directory.
        jcmd(pid, "JFR.configure", "repositorypath=" + Files.createDirectories(file.resolveSibling("jfr-repository")));
        var command = new ArrayList<>(List.of("JFR.start", "name=bench", settings, "filename=" + file));
        if (profile) {
            command.add("jdk.TLSHandshake#enabled=true");
        }
        jcmd(pid, command.toArray(String[]::new));
    }

    /** Stops the recording; the file is complete afterwards. */
    static void stop(long pid) throws IOException, InterruptedException {
        jcmd(pid, "JFR.stop", "name=bench");
    }

    /** Runs a full GC and returns the heap in use after it, in bytes (from {@code GC.heap_info}). */
    static long heapAfterFullGc(long pid) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        String info = jcmd(pid, "GC.heap_info");
        var used = java.util.regex.Pattern.compile("used (\\d+)K").matcher(info);
        return used.find() ? Long.parseLong(used.group(1)) * 1024 : -1;
    }

    /** The class histogram (live objects), top lines. */
    static String classHistogram(long pid, int lines) throws IOException, InterruptedException {
        return jcmd(pid, "GC.class_histogram").lines().limit(lines + 3L).reduce("", (a, b) -> a + b + "\n");
    }

    /**
     * Reads a recording through the JDK's {@code jfr} tool (the benchmark's code is compiled into a
     * module that does not read {@code jdk.jfr}): the handshake count from its summary, the samples'
     * stacks from {@code jfr print}, streamed.
     */
    static Figures read(Path file, int top) throws IOException, InterruptedException {
        long handshakes = 0;
        for (String line : jfrTool("summary", file.toString()).lines().toList()) {
            String[] columns = line.trim().split("\\s+");
            if (columns.length >= 2 && columns[0].equals("jdk.TLSHandshake")) {
                handshakes = Long.parseLong(columns[1]);
            }
        }
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> dwd = new HashMap<>();
        long samples = 0;
        Process print = new ProcessBuilder(tool("jfr"), "print", "--events", "jdk.ExecutionSample", "--stack-depth", "64",
                file.toString()).redirectErrorStream(true).start();
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(print.getInputStream()))) {
            List<String> frames = new ArrayList<>();
            boolean inStack = false;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String trimmed = line.trim();
                if (trimmed.startsWith("stackTrace = [")) {
                    inStack = true;
                    frames.clear();
                } else if (inStack && trimmed.startsWith("]")) {
                    inStack = false;
                    if (!frames.isEmpty()) {
                        samples++;
                        self.merge(frames.getFirst(), 1L, Long::sum);
                        // The dwd method closest to the sample: which of dwd's operations the time went to.
                        String owner = frames.stream().filter(Jfr::isDwdOperation).findFirst()
                                .orElse("(no dwd frame; outermost: " + frames.getLast() + ")");
                        dwd.merge(owner, 1L, Long::sum);
                    }
                } else if (inStack && !trimmed.equals("...")) {
                    int paren = trimmed.indexOf('(');
                    frames.add(paren > 0 ? trimmed.substring(0, paren) : trimmed);
                }
            }
        }
        print.waitFor();
        return new Figures(handshakes, samples, top(self, samples, top), top(dwd, samples, top));
    }

    /** dwd's frames, except those every request passes through (metering, JSON calls, error translation). */
    private static boolean isDwdOperation(String frame) {
        return frame.startsWith("dwd.") && !frame.startsWith("dwd.adapters.k8s.RequestMetering.")
                && !frame.startsWith("dwd.adapters.k8s.JsonCalls.execute")
                && !frame.startsWith("dwd.adapters.k8s.ApiFailures.");
    }

    private static List<Frame> top(Map<String, Long> counts, long total, int top) {
        var frames = new ArrayList<Frame>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())).limit(top)
                .forEach(entry -> frames.add(new Frame(entry.getKey(), entry.getValue(),
                        total == 0 ? 0 : 100.0 * entry.getValue() / total)));
        return frames;
    }

    private static String jcmd(long pid, String... command) throws IOException, InterruptedException {
        var arguments = new ArrayList<>(List.of(Long.toString(pid)));
        arguments.addAll(List.of(command));
        return run("jcmd", arguments);
    }

    private static String jfrTool(String... arguments) throws IOException, InterruptedException {
        return run("jfr", List.of(arguments));
    }

    private static String run(String tool, List<String> arguments) throws IOException, InterruptedException {
        var command = new ArrayList<>(List.of(tool(tool)));
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException(tool + " " + String.join(" ", arguments) + " failed: " + out);
        }
        return out;
    }

    private static String tool(String name) {
        return Path.of(System.getProperty("java.home"), "bin", name).toString();
    }
}
