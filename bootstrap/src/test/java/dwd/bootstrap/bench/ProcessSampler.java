package dwd.bootstrap.bench;

import java.util.concurrent.atomic.AtomicLong;

/** Samples a process's RSS and OS threads once a second, on a thread of its own, and keeps the maxima. */
final class ProcessSampler implements AutoCloseable {

    private final long pid;
    private final AtomicLong maxRss = new AtomicLong();
    private final AtomicLong maxThreads = new AtomicLong();
    private final Thread thread;
    private volatile boolean closed;

    private ProcessSampler(long pid) {
        this.pid = pid;
        this.thread = Thread.ofPlatform().daemon().name("sampler-" + pid).start(this::sample);
    }

    static ProcessSampler start(long pid) {
        return new ProcessSampler(pid);
    }

    private void sample() {
        while (!closed) {
            maxRss.accumulateAndGet(ProcFs.rssBytes(pid), Math::max);
            maxThreads.accumulateAndGet(ProcFs.threads(pid), Math::max);
            ScaleBenchIT.pause(java.time.Duration.ofSeconds(1));
        }
    }

    long maxRss() {
        return maxRss.get();
    }

    long maxThreads() {
        return maxThreads.get();
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.join(5_000);
    }
}
