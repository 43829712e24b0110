package dwd.domain.time;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.domain.testing.PropertyCheck;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
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

    private record Pair(long a, long b) { }

    @Test
    void nanosecondSumsAndDifferencesAreExactOrSaturated() {
        long[] edges = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        var edgePairs = new java.util.ArrayList<Pair>();
        for (long a : edges) {
            for (long b : edges) {
                edgePairs.add(new Pair(a, b));
            }
        }
        PropertyCheck.forAll(edgePairs, random -> new Pair(random.nextLong(), random.nextLong()), pair -> {
            BigInteger a = BigInteger.valueOf(pair.a());
            BigInteger b = BigInteger.valueOf(pair.b());
            assertThat(SaturatingTime.plus(pair.a(), pair.b())).isEqualTo(clamp(a.add(b)));
            assertThat(SaturatingTime.minus(pair.a(), pair.b())).isEqualTo(clamp(a.subtract(b)));
        });
    }

    private static long clamp(BigInteger exact) {
        return exact.max(BigInteger.valueOf(Long.MIN_VALUE)).min(BigInteger.valueOf(Long.MAX_VALUE)).longValueExact();
    }
}
