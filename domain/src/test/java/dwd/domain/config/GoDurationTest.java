package dwd.domain.config;

import static dwd.domain.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationTest {

    private static final long GO_MAX_NANOS = Long.MAX_VALUE;
    private static final long GO_MIN_NANOS = Long.MIN_VALUE;

    @ParameterizedTest(name = "{0} = {1} ns")
    @CsvSource({
            "0, 0",
            "-0, 0",
            "+0, 0",
            "0s, 0",
            "300ms, 300000000",
            "1.5h, 5400000000000",
            "1m40s, 100000000000",
            "-2s, -2000000000",
            "+5s, 5000000000",
            ".5s, 500000000",
            "1.s, 1000000000",
            "5m0s, 300000000000",
            "2h30m0s, 9000000000000",
            "1h0m0s, 3600000000000",
            "10ns, 10",
            "7us, 7000",
            "1.5\u00B5s, 1500",
            "1.5\u03BCs, 1500",
            "500ms, 500000000",
            "1h1m1s1ms1us1ns, 3661001001001",
            "30s1ms, 30001000000",
            "0.000000001s, 1",
            "1.0000000001s, 1000000000",
            "0.1ns, 0",
            "2562047h47m16.854775807s, 9223372036854775807",
            "-2562047h47m16.854775808s, -9223372036854775808",
            "9223372036854775807ns, 9223372036854775807",
            "-9223372036854775808ns, -9223372036854775808",
            "00010s, 10000000000",
            "0.9223372036854775808s, 922337203",
            "-9223372036.854775808s, -9223372036854775808",
            "1.00000000000000000000000000001s, 1000000000",
    })
    void parsesWhatGoParses(String text, long nanos) {
        assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofNanos(nanos));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "10|missing unit after 10; add one of ns, us, ms, s, m, h, e.g. 10s",
            "-10|missing unit after 10",
            "0.0|missing unit after 0.0",
            "1.5.5s|missing unit after 1.5",
            "10x|unknown unit \"x\"; use one of ns, us, ms, s, m, h",
            "1d|unknown unit \"d\"; Go durations have no day unit: write 24h for a day",
            "1h 30m|unknown unit \"h \"; spaces are not allowed",
            "10S|unknown unit \"S\"",
            "1sec|unknown unit \"sec\"",
            "s|expected a number at \"s\"",
            "-|a sign must be followed by a number and a unit",
            "+-1s|expected a number at \"-1s\"",
            ".|a number needs at least one digit",
            ".s|a number needs at least one digit",
            "9223372036854775808ns|out of range",
            "2562048h|out of range",
            "2562047h47m16.854775808s|out of range",
            "-2562047h47m16.854775809s|out of range",
            "99999999999999999999s|out of range",
            "5124095576030431h|out of range",
            "9223372036854775808ns9223372036854775808ns|out of range",
    })
    void rejectsWhatGoRejectsAndSaysWhy(String text, String reason) {
        assertThatThrownBy(() -> GoDuration.parse(text))
                .isInstanceOfSatisfying(InvalidGoDuration.class, e -> {
                    assertThat(e.text()).isEqualTo(text);
                    assertThat(e.reason()).contains(reason);
                    assertThat(e.getMessage()).startsWith("invalid duration \"" + text + "\": ");
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t", " 10s", "10s "})
    void rejectsEmptyAndBlankTextAndSurroundingWhitespace(String text) {
        assertThatThrownBy(() -> GoDuration.parse(text))
                .isInstanceOf(InvalidGoDuration.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("e.g. 30s");
    }

    @Test
    void pointsOutSpacesOnlyWhenThereAreAny() {
        assertThatThrownBy(() -> GoDuration.parse(" 10s")).hasMessageContaining("(spaces are not allowed: write e.g. 30s or 1h30m, not 1h 30m)");
        assertThatThrownBy(() -> GoDuration.parse("s10")).hasMessageNotContaining("spaces");
    }

    @Test
    void saysWhetherTheTextIsEmptyOrBlank() {
        assertThatThrownBy(() -> GoDuration.parse("")).hasMessageStartingWith("invalid duration \"\": the text is empty; ");
        assertThatThrownBy(() -> GoDuration.parse("  ")).hasMessageStartingWith("invalid duration \"  \": the text is blank; ");
    }

    @Test
    void rejectsNullWithAMessage() {
        assertThatThrownBy(() -> GoDuration.parse(null))
                .isInstanceOf(InvalidGoDuration.class)
                .hasMessage("invalid duration: no duration given; " + GoDuration.UNITS_HINT);
    }

    @Test
    void aMessageStaysOnOneLine() {
        assertThatThrownBy(() -> GoDuration.parse("1\n\"x"))
                .hasMessageStartingWith("invalid duration \"1\\n\\\"x\":")
                .hasMessageNotContaining("\n");
    }

    @ParameterizedTest(name = "{0} ns = {1}")
    @CsvSource({
            "0, 0s",
            "1, 1ns",
            "999, 999ns",
            "1000, 1\u00B5s",
            "1500, 1.5\u00B5s",
            "1001, 1.001\u00B5s",
            "300000000, 300ms",
            "1000001, 1.000001ms",
            "999999, 999.999\u00B5s",
            "1000000, 1ms",
            "999999999, 999.999999ms",
            "1000000000, 1s",
            "1000000001, 1.000000001s",
            "-2000000000, -2s",
            "-1, -1ns",
            "-1500, -1.5\u00B5s",
            "100000000000, 1m40s",
            "300000000000, 5m0s",
            "3600000000000, 1h0m0s",
            "9000000000000, 2h30m0s",
            "5400000000000, 1h30m0s",
            "61000000000, 1m1s",
            "3601500000000, 1h0m1.5s",
            "9223372036854775807, 2562047h47m16.854775807s",
            "-9223372036854775808, -2562047h47m16.854775808s",
    })
    void formatsLikeGo(long nanos, String expected) {
        assertThat(GoDuration.format(Duration.ofNanos(nanos))).isEqualTo(expected);
    }

    @Test
    void formatsDurationsBeyondGosRangeInTheSameStyle() {
        assertThat(GoDuration.format(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)))
                .isEqualTo("2562047788015215h30m7.999999999s");
        assertThat(GoDuration.format(Duration.ofSeconds(Long.MIN_VALUE)))
                .isEqualTo("-2562047788015215h30m8s");
    }

    @Test
    void formatThenParseGivesBackEveryDurationInGosRange() {
        forAll(
                List.of(GO_MAX_NANOS, GO_MIN_NANOS, 0L, 1L, -1L, 999L, 1_000L, 999_999L, 1_000_000L, 999_999_999L,
                        1_000_000_000L, 59_999_999_999L, 60_000_000_000L, 3_600_000_000_000L),
                random -> switch (random.nextInt(4)) {
                    case 0 -> random.nextLong();
                    case 1 -> random.nextLong(-2_000_000_000L, 2_000_000_000L);
                    case 2 -> random.nextLong(-100_000, 100_000) * 1_000_000_000L;
                    default -> random.nextLong(-10_000_000_000_000L, 10_000_000_000_000L);
                },
                nanos -> {
                    Duration duration = Duration.ofNanos(nanos);
                    assertThat(GoDuration.parse(GoDuration.format(duration))).isEqualTo(duration);
                });
    }

    @Test
    void aSumOfWholeUnitsParsesToTheSum() {
        forAll(random -> new long[] {random.nextLong(0, 1_000), random.nextLong(0, 1_000), random.nextLong(0, 1_000),
                        random.nextLong(0, 1_000), random.nextBoolean() ? 1 : -1},
                parts -> {
                    String text = (parts[4] < 0 ? "-" : "") + parts[0] + "h" + parts[1] + "m" + parts[2] + "s" + parts[3] + "ms";
                    Duration expected = Duration.ofHours(parts[0]).plusMinutes(parts[1]).plusSeconds(parts[2])
                            .plusMillis(parts[3]).multipliedBy(parts[4]);
                    assertThat(GoDuration.parse(text)).as(text).isEqualTo(expected);
                });
    }

    @Test
    void parseNeverThrowsAnythingButInvalidGoDuration() {
        forAll(5_000, random -> dwd.domain.testing.PropertyCheck.stringOf(random, "0123456789.+-nsuµμmhd x", 12),
                text -> {
                    try {
                        Duration parsed = GoDuration.parse(text);
                        assertThat(GoDuration.parse(GoDuration.format(parsed))).isEqualTo(parsed);
                    } catch (InvalidGoDuration expected) {
                        assertThat(expected.getMessage()).isNotBlank();
                    }
                });
    }
}
