package dwd.bootstrap.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What Linux's {@code /proc} says about a process and the machine: CPU time, RSS, threads, load. */
final class ProcFs {

    /** Clock ticks per second of {@code /proc/…/stat} times (USER_HZ, 100 on Linux). */
    private static final double TICKS = ticks();

    private ProcFs() {
    }

    /** User + system CPU seconds the process has used since it started (all its threads). */
    static double cpuSeconds(long pid) {
        return cpuOfStat(read(Path.of("/proc", Long.toString(pid), "stat")));
    }

    /** Resident set size in bytes, 0 when the process is gone. */
    static long rssBytes(long pid) {
        return statusField(pid, "VmRSS:") * 1024;
    }

    /** Threads of the process (platform threads; virtual threads are not OS threads). */
    static long threads(long pid) {
        return statusField(pid, "Threads:");
    }

    /** A thread's CPU seconds so far, and the group it is counted in. */
    record ThreadCpu(String group, double seconds) {
    }

    /** CPU seconds per thread of the process, by OS thread id. */
    static Map<Long, ThreadCpu> cpuByThread(long pid) {
        var threads = new HashMap<Long, ThreadCpu>();
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (var list = Files.list(tasks)) {
            for (Path task : list.toList()) {
                try {
                    threads.put(Long.parseLong(task.getFileName().toString()), new ThreadCpu(
                            group(Files.readString(task.resolve("comm")).strip()),
                            cpuOfStat(Files.readString(task.resolve("stat")))));
                } catch (IOException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException gone) {
            return threads;
        }
        return threads;
    }

    /**
     * CPU seconds per thread group between two readings, each thread counted under its later name:
     * threads rename themselves (OkHttp's task runner threads take the name of the task they run), and
     * summing by name at each reading would move a thread's whole past between groups. A thread that
     * ended between the readings is not counted (the JVM may stop compiler threads it no longer needs).
     */
    static Map<String, Double> cpuByGroupBetween(Map<Long, ThreadCpu> earlier, Map<Long, ThreadCpu> later) {
        var groups = new TreeMap<String, Double>();
        later.forEach((tid, thread) -> {
            ThreadCpu before = earlier.get(tid);
            groups.merge(thread.group(), thread.seconds() - (before == null ? 0 : before.seconds()), Double::sum);
        });
        return groups;
    }

    /** A thread's group: its name without trailing numbers ("GC Thread#3" is "GC Thread"); OkHttp's task threads as one. */
    static String group(String threadName) {
        return threadName.startsWith("OkHttp ") ? "OkHttp tasks" : threadName.replaceAll("[-#]?\\d+$", "");
    }

    /**
     * Busy and total CPU seconds of the whole machine since boot ({@code /proc/stat}); busy includes
     * steal, the time the hypervisor gave this machine's virtual CPUs to others.
     */
    record MachineCpu(double busy, double total, double steal) {
        MachineCpu minus(MachineCpu earlier) {
            return new MachineCpu(busy - earlier.busy, total - earlier.total, steal - earlier.steal);
        }
    }

    static MachineCpu machineCpu() {
        String[] fields = read(Path.of("/proc/stat")).lines().findFirst().orElseThrow().trim().split("\\s+");
        double total = 0;
        double idle = 0;
        for (int i = 1; i < fields.length && i <= 8; i++) {
            double value = Double.parseDouble(fields[i]);
            total += value;
            if (i == 4 || i == 5) { // idle, iowait
                idle += value;
            }
        }
        double steal = fields.length > 8 ? Double.parseDouble(fields[8]) : 0;
        return new MachineCpu((total - idle) / TICKS, total / TICKS, steal / TICKS);
    }

    /** Sets the nice value of every thread of {@code pids} (Linux keeps one per thread; new threads inherit it). */
    static void renice(int nice, List<Long> pids) throws IOException, InterruptedException {
        var command = new ArrayList<>(List.of("renice", "-n", Integer.toString(nice), "-p"));
        for (long pid : pids) {
            try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                tasks.forEach(task -> command.add(task.getFileName().toString()));
            }
        }
        Process renice = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(renice.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (renice.waitFor() != 0) {
            throw new IOException("renice -n " + nice + " failed (it needs root for a value below 0): " + output.strip());
        }
    }

    /** The 1-, 5- and 15-minute load averages, as {@code uptime} prints them. */
    static String loadAverage() {
        String[] fields = read(Path.of("/proc/loadavg")).trim().split("\\s+");
        return fields[0] + ", " + fields[1] + ", " + fields[2];
    }

    /**
     * The kernel's transparent huge page mode ({@code always}, {@code madvise} or {@code never}): whether
     * the processes' heaps get 2 MiB pages, which spare them most misses of the address translation cache.
     */
    static String transparentHugePages() {
        Path setting = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        if (!Files.isReadable(setting)) {
            return "unknown";
        }
        return selectedMode(read(setting));
    }

    /** The bracketed choice of a kernel setting that lists its modes ({@code always [madvise] never}). */
    static String selectedMode(String modes) {
        int open = modes.indexOf('[');
        int close = modes.indexOf(']');
        return open >= 0 && close > open ? modes.substring(open + 1, close) : modes.strip();
    }

    /** MemAvailable in bytes. */
    static long memAvailable() {
        return memInfo("MemAvailable:");
    }

    /** MemTotal in bytes. */
    static long memTotal() {
        return memInfo("MemTotal:");
    }

    private static long memInfo(String field) {
        for (String line : read(Path.of("/proc/meminfo")).split("\n")) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        throw new IllegalStateException("no " + field + " in /proc/meminfo");
    }

    /** The processes this JVM started, and theirs. */
    static List<Long> descendants() {
        return new ArrayList<>(ProcessHandle.current().descendants().map(ProcessHandle::pid).toList());
    }

    static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** utime + stime (fields 14 and 15) of a stat line; the command name may contain spaces, so count after ')'. */
    private static double cpuOfStat(String stat) {
        if (stat.isEmpty()) {
            return 0;
        }
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS;
    }

    private static long statusField(long pid, String field) {
        for (String line : read(Path.of("/proc", Long.toString(pid), "status")).split("\n")) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        return 0;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException gone) {
            return "";
        }
    }

    private static double ticks() {
        try {
            Process getconf = new ProcessBuilder(List.of("getconf", "CLK_TCK")).redirectErrorStream(true).start();
            String out = new String(getconf.getInputStream().readAllBytes()).strip();
            getconf.waitFor();
            return Double.parseDouble(out);
        } catch (IOException | InterruptedException | NumberFormatException e) {
            return 100;
        }
    }
}
