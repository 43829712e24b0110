package dwd.adapters.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The token file is read again on the monotonic clock, and outside anything the process's requests
 * share: while one request's read hangs (a stuck volume, here a FIFO nobody writes yet), the others go
 * on with the token in hand.
 */
class ServiceAccountTokenTest {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private final AtomicLong nanos = new AtomicLong(-42);

    @Test
    void aReadThatHangsHoldsUpNoOtherRequest(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("token"), "first\n");
        var token = ServiceAccountToken.read(file, nanos::get);
        Files.delete(file);
        mkfifo(file);
        nanos.addAndGet(ServiceAccountToken.REREAD_AFTER.plusSeconds(1).toNanos());

        // Daemon threads, never waited for: a request stuck on the FIFO must not hang the test when it fails.
        ExecutorService threads = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().factory());
        try {
            // Opening a FIFO's writing end returns once a reader has opened the other: then the read has begun,
            // and it waits for what the writer sends.
            var writer = CompletableFuture.supplyAsync(() -> open(file), threads);
            var reading = CompletableFuture.supplyAsync(token::current, threads);
            try (OutputStream out = writer.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
                var other = CompletableFuture.supplyAsync(token::current, threads);
                assertThat(other.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("goes on with the token in hand")
                        .isEqualTo("first");
                assertThat(reading).isNotDone();
                out.write("second\n".getBytes(StandardCharsets.UTF_8));
            }
            assertThat(reading.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("second");
            assertThat(token.current()).isEqualTo("second");
        } finally {
            threads.shutdownNow();
        }
    }

    private static OutputStream open(Path file) {
        try {
            return Files.newOutputStream(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void mkfifo(Path file) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("mkfifo", file.toString()).inheritIO().start();
        assertThat(process.waitFor()).as("mkfifo").isZero();
    }
}
