package dwd.bootstrap.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a process's memory and threads are made of, read from outside: {@code /proc} for any process (resident
 * anonymous and file-backed memory, threads by name), and for a JVM started with
 * {@code -XX:NativeMemoryTracking=summary} its committed memory by category ({@code jcmd VM.native_memory}) and
 * its heap ({@code jcmd GC.heap_info}), both written beside the run's logs.
 */
final class Footprint {

    private static final Pattern NMT_CATEGORY = Pattern.compile("^-\\s+(.+?) \\(reserved=(\\d+)KB, committed=(\\d+)KB");
    private static final Pattern NMT_TOTAL = Pattern.compile("^Total: reserved=(\\d+)KB, committed=(\\d+)KB");

    private Footprint() {
    }

    /** Resident memory now: anonymous and file-backed (MiB), e.g. {@code 120 anon + 38 file}. */
    static String residentSplit(long pid) {
        String status = read(Path.of("/proc", Long.toString(pid), "status"));
        return String.format(Locale.ROOT, "%d anon + %d file", kib(status, "RssAnon") / 1024,
                kib(status, "RssFile") / 1024);
    }

    /** Threads now by name group, most first: {@code 8 GC Thread, 2 C2 CompilerThread, …}. */
    static String threadsByName(long pid) {
        Map<String, Long> groups = ProcFs.cpuByThread(pid).values().stream()
                .collect(Collectors.groupingBy(ProcFs.ThreadCpu::group, TreeMap::new, Collectors.counting()));
        return groups.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .map(group -> group.getValue() + " " + group.getKey()).collect(Collectors.joining(", "));
    }

    /** A window's CPU by thread group, most first, those above 1 % of it: {@code main 41 %, …}. */
    static String cpuByGroup(Map<String, Double> seconds) {
        double total = seconds.values().stream().mapToDouble(Double::doubleValue).sum();
        if (total <= 0) {
            return "none";
        }
        return seconds.entrySet().stream().filter(group -> group.getValue() / total >= 0.01)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .map(group -> String.format(Locale.ROOT, "%s %.0f %%", group.getKey(), 100 * group.getValue() / total))
                .collect(Collectors.joining(", "));
    }

    /**
     * The JVM's committed memory by Native Memory Tracking category (MiB, those of 1 MiB or more, most first) and its
     * heap, written to {@code dir}; "not tracked" unless the JVM runs with native memory tracking.
     */
    static String nativeMemory(long pid, Path dir) {
        try {
            String summary = Jcmd.run(pid, "VM.native_memory", "summary");
            Files.writeString(dir.resolve("native-memory.txt"), summary);
            Files.writeString(dir.resolve("heap-info.txt"), Jcmd.run(pid, "GC.heap_info"));
            if (summary.contains("not enabled")) {
                return "not tracked (-XX:NativeMemoryTracking=summary)";
            }
            var parts = new ArrayList<String>();
            long total = 0;
            var categories = new TreeMap<Long, List<String>>();
            for (String line : summary.lines().toList()) {
                Matcher totalLine = NMT_TOTAL.matcher(line.strip());
                if (totalLine.find()) {
                    total = Long.parseLong(totalLine.group(2)) / 1024;
                }
                Matcher category = NMT_CATEGORY.matcher(line.strip());
                if (category.find()) {
                    long committed = Long.parseLong(category.group(3)) / 1024;
                    if (committed >= 1) {
                        categories.computeIfAbsent(-committed, c -> new ArrayList<>()).add(category.group(1));
                    }
                }
            }
            categories.forEach((negative, names) -> names.forEach(name -> parts.add(name + " " + -negative)));
            return "committed " + total + ": " + String.join(", ", parts);
        } catch (IOException | InterruptedException failed) {
            return "jcmd failed: " + failed.getMessage();
        }
    }

    private static long kib(String status, String field) {
        return status.lines().filter(line -> line.startsWith(field + ":")).findFirst()
                .map(line -> Long.parseLong(line.replaceAll("\\D", ""))).orElse(0L);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException gone) {
            return "";
        }
    }

    /** {@code jcmd} of the JDK that runs the harness. */
    static final class Jcmd {
        private Jcmd() {
        }

        static String run(long pid, String... command) throws IOException, InterruptedException {
            var arguments = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(pid)));
            arguments.addAll(List.of(command));
            Process process = new ProcessBuilder(arguments).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(1, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException("jcmd " + String.join(" ", command) + " did not end");
            }
            return out;
        }
    }
}
