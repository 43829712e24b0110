package dwd.bootstrap.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * How fast the machine's cores work at the moment, apart from waiting for one: once a second a thread
 * of its own does a fixed amount of work and reads the CPU time it took (its own, so time spent
 * waiting for a core does not count). Two kinds of work: arithmetic in registers (slower when the
 * core runs at a lower clock or shares its physical core with another tenant's thread) and a
 * pointer chase through 128 MiB (slower when the memory or the last-level cache is contended).
 * Costs about 1 % of a core.
 */
final class CpuGauge implements AutoCloseable {

    /** One second's reading: CPU nanoseconds per step of each kind of work. */
    record Reading(Instant at, double arithmeticNanos, double memoryNanos) {
    }

    private static final int ARITHMETIC_STEPS = 2_000_000;
    private static final int MEMORY_STEPS = 100_000;

    private final int[] next;
    private final List<Reading> readings = new ArrayList<>();
    private final Thread thread;
    private volatile boolean closed;
    /** Keeps the work's results observable, so that the compiler cannot drop the work. */
    private volatile long sink;

    private CpuGauge(int[] next) {
        this.next = next;
        this.thread = Thread.ofPlatform().name("cpu-gauge").daemon().start(this::run);
    }

    /** Builds the pointer-chase cycle (a random single cycle through every slot) and starts reading. */
    static CpuGauge start() {
        var next = new int[1 << 25];
        for (int i = 0; i < next.length; i++) {
            next[i] = i;
        }
        var random = new SplittableRandom(20_261_125);
        for (int i = next.length - 1; i > 0; i--) { // Sattolo's shuffle: one cycle through all slots
            int j = random.nextInt(i);
            int swap = next[i];
            next[i] = next[j];
            next[j] = swap;
        }
        return new CpuGauge(next);
    }

    private void run() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int slot = 0;
        long state = 1;
        while (!closed) {
            long t0 = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < ARITHMETIC_STEPS; i++) {
                state ^= state << 13;
                state ^= state >>> 7;
                state ^= state << 17;
            }
            long t1 = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < MEMORY_STEPS; i++) {
                slot = next[slot];
            }
            long t2 = threads.getCurrentThreadCpuTime();
            sink = state + slot;
            synchronized (readings) {
                readings.add(new Reading(Instant.now(), (double) (t1 - t0) / ARITHMETIC_STEPS,
                        (double) (t2 - t1) / MEMORY_STEPS));
            }
            LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
        }
    }

    /** The readings taken in [from, to). */
    List<Reading> between(Instant from, Instant to) {
        synchronized (readings) {
            return readings.stream().filter(r -> !r.at().isBefore(from) && r.at().isBefore(to)).toList();
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.interrupt();
        thread.join();
    }
}
