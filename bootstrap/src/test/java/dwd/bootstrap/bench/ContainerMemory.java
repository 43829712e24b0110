package dwd.bootstrap.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A container's memory as its cgroup counts it (what the kernel's OOM killer compares with the limit):
 * usage now, the peak, and OOM kills; cgroup v1 ({@code memory.usage_in_bytes}, {@code memory.oom_control})
 * or v2 ({@code memory.current}, {@code memory.events}).
 */
record ContainerMemory(Path cgroup, boolean v2) {

    private static final Path ROOT = Path.of("/sys/fs/cgroup");

    /** The memory cgroup of process {@code pid} (the container's init process), from {@code /proc/<pid>/cgroup}. */
    static ContainerMemory of(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"))) {
            String[] fields = line.split(":", 3);
            if (fields.length == 3 && fields[1].contains("memory")) {
                return new ContainerMemory(Path.of(ROOT + "/memory" + fields[2]), false);
            }
            if (fields.length == 3 && fields[0].equals("0") && fields[1].isEmpty()) {
                return new ContainerMemory(Path.of(ROOT + fields[2]), true);
            }
        }
        throw new IOException("no memory cgroup for process " + pid);
    }

    long usage() throws IOException {
        return number(v2 ? "memory.current" : "memory.usage_in_bytes");
    }

    /**
     * The anonymous memory (heap, native allocations, thread stacks): the part of the usage the kernel cannot
     * reclaim, unlike the page cache of the files the JVM maps and reads, which the usage also counts.
     */
    long anonymous() throws IOException {
        String key = v2 ? "anon " : "total_rss ";
        for (String line : Files.readAllLines(cgroup.resolve("memory.stat"))) {
            if (line.startsWith(key)) {
                return Long.parseLong(line.substring(key.length()).strip());
            }
        }
        throw new IOException("no " + key.strip() + " in " + cgroup.resolve("memory.stat"));
    }

    /** The peak usage, where the kernel keeps one (v1 always; v2 from Linux 5.19). */
    Optional<Long> peak() throws IOException {
        String file = v2 ? "memory.peak" : "memory.max_usage_in_bytes";
        return Files.exists(cgroup.resolve(file)) ? Optional.of(number(file)) : Optional.empty();
    }

    /** The limit the container runs under. */
    long limit() throws IOException {
        String text = Files.readString(cgroup.resolve(v2 ? "memory.max" : "memory.limit_in_bytes")).strip();
        return text.equals("max") ? Long.MAX_VALUE : Long.parseLong(text);
    }

    /** Processes the OOM killer ended in this cgroup so far. */
    long oomKills() throws IOException {
        for (String line : Files.readAllLines(cgroup.resolve(v2 ? "memory.events" : "memory.oom_control"))) {
            if (line.startsWith("oom_kill ")) {
                return Long.parseLong(line.substring("oom_kill ".length()).strip());
            }
        }
        return 0;
    }

    private long number(String file) throws IOException {
        return Long.parseLong(Files.readString(cgroup.resolve(file)).strip());
    }
}
