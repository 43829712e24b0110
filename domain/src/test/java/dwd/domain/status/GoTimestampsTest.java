package dwd.domain.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What Go's {@code time.Parse(time.RFC3339, s)} accepts and what it makes of it (checked against Go 1.26). */
class GoTimestampsTest {

    @ParameterizedTest
    @CsvSource({
        "2026-11-28T10:00:00Z,             2026-11-28T10:00:00Z",
        "2026-11-28T10:00:00.5Z,           2026-11-28T10:00:00.500Z",
        "'2026-11-28T10:00:00,25Z',        2026-11-28T10:00:00.250Z",
        "2026-11-28T10:00:00.1234567891Z,  2026-11-28T10:00:00.123456789Z",
        "2026-11-28T1:00:00Z,              2026-11-28T01:00:00Z",
        "2026-11-28T10:00:00+02:00,        2026-11-28T08:00:00Z",
        "2026-11-28T10:00:00-00:30,        2026-11-28T10:30:00Z",
        "2026-11-28T10:00:00+24:00,        2026-11-27T10:00:00Z",
        "2026-11-28T10:00:00+00:60,        2026-11-28T09:00:00Z",
        "2024-02-29T00:00:00Z,             2024-02-29T00:00:00Z",
        "0000-01-01T00:00:00Z,             0000-01-01T00:00:00Z",
    })
    void acceptsWhatGoAccepts(String text, String instant) {
        assertThat(GoTimestamps.parseRfc3339(text)).contains(Instant.parse(instant));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "null", "2026-11-28t10:00:00Z", "2026-11-28T10:00:00z", "29999-11-28T10:00:00Z", "+2026-11-28T10:00:00Z",
        "2026-11-28 10:00:00Z", "2026-11-28T10:00:00", "2026-11-28T10:00Z", "2026-1-28T10:00:00Z", "2026-11-28T24:00:00Z",
        "2026-11-28T10:60:00Z", "2026-11-28T10:00:60Z", "2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-11-31T00:00:00Z", "2026-11-28T10:00:00.Z", "2026-11-28T10:00:00+25:00", "2026-11-28T10:00:00+0200",
        "2026-11-28T10:00:00+02:00:00", "2026-11-28T10:00:00Z ", "2026-11-28T10:00:00UTC", "2026-11-28T100:00:00Z",
    })
    void rejectsWhatGoRejects(String text) {
        assertThat(GoTimestamps.parseRfc3339(text)).isEmpty();
    }
}
