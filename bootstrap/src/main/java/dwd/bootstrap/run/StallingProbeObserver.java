package dwd.bootstrap.run;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ProberObserver;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Test hook (hidden flag {@code --x-test-stall-file}): while the file exists, every probe run blocks
 * when it reports its result, as a probe loop stuck in a call without timeout would. Proves that
 * {@code /healthz} notices a stuck loop. Never wired unless the flag is given.
 */
public final class StallingProbeObserver implements ProberObserver {

    private final Path file;

    public StallingProbeObserver(Path file) {
        this.file = file;
    }

    @Override
    public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
        stallWhileFileExists();
    }

    @Override
    public void probeFailed(String ns, ProbeStage stage, ApiFailure failure, Instant nextProbe) {
        stallWhileFileExists();
    }

    private void stallWhileFileExists() {
        while (Files.exists(file) && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(100_000_000L);
        }
    }
}
