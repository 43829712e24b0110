package dwd.bootstrap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class CpuGaugeTest {

    @Test
    void aReadingTimesBothKindsOfWorkAndAMissedCacheLineCostsMoreThanAnArithmeticStep() throws Exception {
        Instant start = Instant.now();
        List<CpuGauge.Reading> readings;
        try (var gauge = CpuGauge.start()) {
            Instant deadline = Instant.now().plusSeconds(30);
            do {
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
                readings = gauge.between(start, Instant.MAX);
            } while (readings.isEmpty() && Instant.now().isBefore(deadline));
        }

        assertThat(readings).isNotEmpty();
        CpuGauge.Reading first = readings.getFirst();
        assertThat(first.arithmeticNanos()).isPositive();
        assertThat(first.memoryNanos()).isGreaterThan(first.arithmeticNanos());
    }
}
