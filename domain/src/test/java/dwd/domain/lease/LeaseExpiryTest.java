package dwd.domain.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LeaseExpiryTest {

    private static final Instant RENEWED = Instant.parse("2026-03-01T12:00:00.123456Z");

    @ParameterizedTest(name = "0.75 × {0} ns = {1} ns")
    @CsvSource({
        "40000000000, 30000000000",
        "0, 0",
        "1, 0",
        "3, 2",
        "333, 249",
        "-4, -3",
        // Go truncates towards zero: -0.75 ns becomes 0, not -1.
        "-1, 0",
        // float64 cannot hold 2^60 + 3, so Go computes 0.75 × 2^60; exact integer arithmetic would give ...234.
        "1152921504606846979, 864691128455135232",
    })
    void bufferIsThreeQuartersOfGraceTruncatedLikeGo(long graceNanos, long bufferNanos) {
        assertThat(LeaseExpiry.buffer(Duration.ofNanos(graceNanos))).isEqualTo(Duration.ofNanos(bufferNanos));
    }

    @Test
    void graceBeyondLongNanosIsClamped() {
        long threeQuartersOfMax = (long) (Long.MAX_VALUE * 0.75);
        assertThat(LeaseExpiry.buffer(Duration.ofSeconds(Long.MAX_VALUE)))
                .isEqualTo(Duration.ofNanos(threeQuartersOfMax));
        assertThat(LeaseExpiry.buffer(Duration.ofSeconds(Long.MIN_VALUE)))
                .isEqualTo(Duration.ofNanos((long) (Long.MIN_VALUE * 0.75)));
        assertThat(LeaseExpiry.buffer(Duration.ofNanos(Long.MAX_VALUE)))
                .isEqualTo(Duration.ofNanos(threeQuartersOfMax));
        assertThat(LeaseExpiry.buffer(Duration.ofNanos(Long.MAX_VALUE).plusNanos(1)))
                .isEqualTo(Duration.ofNanos(threeQuartersOfMax));
        assertThat(LeaseExpiry.buffer(Duration.ofNanos(Long.MIN_VALUE)))
                .isEqualTo(Duration.ofNanos((long) (Long.MIN_VALUE * 0.75)));
    }

    @Test
    void expiresThreeQuartersOfTheGraceAfterRenewal() {
        assertThat(LeaseExpiry.expiresAt(RENEWED, Duration.ofSeconds(40))).isEqualTo(RENEWED.plusSeconds(30));
    }

    @Test
    void reachingTheExpiryInstantCountsAsExpired() {
        Duration grace = Duration.ofSeconds(40);
        assertThat(LeaseExpiry.isExpired(LeaseExpiry.expiresAt(RENEWED, grace), RENEWED.plusSeconds(30))).isTrue();
        assertThat(LeaseExpiry.isExpired(LeaseExpiry.expiresAt(RENEWED, grace), RENEWED.plusSeconds(30).minusNanos(1))).isFalse();
        assertThat(LeaseExpiry.isExpired(LeaseExpiry.expiresAt(RENEWED, grace), RENEWED.plusSeconds(31))).isTrue();
    }

    @Test
    void zeroGraceExpiresAtRenewal() {
        assertThat(LeaseExpiry.isExpired(LeaseExpiry.expiresAt(RENEWED, Duration.ZERO), RENEWED)).isTrue();
        assertThat(LeaseExpiry.isExpired(LeaseExpiry.expiresAt(RENEWED, Duration.ZERO), RENEWED.minusNanos(1))).isFalse();
    }

    @Test
    void expirySaturatesAtTheEndsOfTheTimeLine() {
        assertThat(LeaseExpiry.expiresAt(Instant.MAX, Duration.ofSeconds(40))).isEqualTo(Instant.MAX);
        assertThat(LeaseExpiry.expiresAt(Instant.MIN, Duration.ofSeconds(-40))).isEqualTo(Instant.MIN);
        assertThat(LeaseExpiry.expiresAt(Instant.MAX, Duration.ofSeconds(-40)))
                .isEqualTo(Instant.MAX.minusSeconds(30));
        assertThat(LeaseExpiry.isExpired(LeaseExpiry.expiresAt(Instant.MAX, Duration.ofSeconds(40)), Instant.MAX)).isTrue();
        assertThat(LeaseExpiry.isExpired(LeaseExpiry.expiresAt(Instant.MAX, Duration.ofSeconds(40)), RENEWED)).isFalse();
    }
}
