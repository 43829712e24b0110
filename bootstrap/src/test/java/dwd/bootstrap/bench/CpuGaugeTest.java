package dwd.bootstrap.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gauge's readings say what they measured; how fast the machine is, is for the benchmarks to report. */
class CpuGaugeTest {

    @Test
    void aReadingTimesBothKindsOfWork() throws Exception {
        Instant start = Instant.now();
        List<CpuGauge.Reading> readings;
        try (var gauge = CpuGauge.start()) {
            readings = await("a first reading").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> gauge.between(start, Instant.MAX), taken -> !taken.isEmpty());
        }

        CpuGauge.Reading first = readings.getFirst();
        assertThat(first.at()).isAfterOrEqualTo(start);
        assertThat(first.arithmeticNanos()).as("CPU time of the arithmetic, per step").isPositive();
        assertThat(first.memoryNanos()).as("CPU time of the pointer chase, per step").isPositive();
    }
}
