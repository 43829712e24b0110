package dwd.domain.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SaturatingTimeTest {

    @Test
    void durationsBeyondNanosecondsSaturate() {
        Duration hundredYears = Duration.ofDays(36_525);
        assertThat(SaturatingTime.nanos(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
        assertThat(SaturatingTime.nanos(Duration.ofSeconds(Long.MIN_VALUE))).isEqualTo(-Long.MAX_VALUE);
        assertThat(SaturatingTime.plus(SaturatingTime.MAX, Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(SaturatingTime.MAX);
        assertThat(SaturatingTime.times(SaturatingTime.MAX, 1.2)).isEqualTo(SaturatingTime.MAX);
        assertThat(SaturatingTime.times(hundredYears, 0.5)).isEqualTo(hundredYears.dividedBy(2));
        assertThat(SaturatingTime.times(hundredYears, Double.NaN)).isZero();
        assertThat(SaturatingTime.plus(Instant.MAX, Duration.ofSeconds(1))).isEqualTo(Instant.MAX);
        assertThat(SaturatingTime.plus(Instant.EPOCH, Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Instant.MAX);
        assertThat(SaturatingTime.plus(Instant.EPOCH, Duration.ofSeconds(Long.MIN_VALUE))).isEqualTo(Instant.MIN);
    }

    @Test
    void nanosecondSumsAndDifferencesAreExactOrSaturated() {
        long[] edges = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        var random = new SplittableRandom(2026_11_27);
        for (int i = 0; i < 10_000; i++) {
            long a = i < 49 ? edges[i / 7] : random.nextLong();
            long b = i < 49 ? edges[i % 7] : random.nextLong();
            assertThat(SaturatingTime.plus(a, b)).as("%d + %d", a, b)
                    .isEqualTo(clamp(java.math.BigInteger.valueOf(a).add(java.math.BigInteger.valueOf(b))));
            assertThat(SaturatingTime.minus(a, b)).as("%d - %d", a, b)
                    .isEqualTo(clamp(java.math.BigInteger.valueOf(a).subtract(java.math.BigInteger.valueOf(b))));
        }
    }

    private static long clamp(java.math.BigInteger exact) {
        return exact.max(java.math.BigInteger.valueOf(Long.MIN_VALUE)).min(java.math.BigInteger.valueOf(Long.MAX_VALUE))
                .longValueExact();
    }
}
