package dwd.application.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.runtime.Recurrences.Report;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecurrencesTest {

    private final AtomicLong nanos = new AtomicLong();
    private final Recurrences<String> problems = new Recurrences<>(nanos::get);

    private void pass(Duration time) {
        nanos.addAndGet(time.toNanos());
    }

    @Test
    void aProblemAppearsOnceRepeatsQuietlyIsRemindedOfHourlyAndClearsWithHowLongAndHowOften() {
        assertThat(problems.seen("a", "broken")).isEqualTo(Report.APPEARED);
        for (int i = 0; i < 150; i++) {
            pass(Duration.ofSeconds(30));
            assertThat(problems.seen("a", "broken")).as("sighting %d, %ds after the first", i + 2, 30 * (i + 1))
                    .isEqualTo(30 * (i + 1) % 3600 == 0 ? Report.REMINDED : Report.REPEATED);
        }
        pass(Duration.ofSeconds(30));
        assertThat(problems.clear("a")).hasValueSatisfying(cleared -> {
            assertThat(cleared.problem()).isEqualTo("broken");
            assertThat(cleared.lasted()).isEqualTo(Duration.ofSeconds(30 * 151));
            assertThat(cleared.sightings()).isEqualTo(151);
            assertThat(cleared.summary()).isEqualTo("1h15m30s, seen 151 times");
        });
        assertThat(problems.clear("a")).as("cleared once").isEmpty();
    }

    @Test
    void anotherProblemIsNewsAndKeysAreApart() {
        assertThat(problems.seen("a", "broken")).isEqualTo(Report.APPEARED);
        assertThat(problems.seen("b", "broken")).isEqualTo(Report.APPEARED);
        assertThat(problems.seen("a", "broken differently")).isEqualTo(Report.APPEARED);
        assertThat(problems.seen("a", "broken differently")).isEqualTo(Report.REPEATED);
        assertThat(problems.ongoingSummary("a")).contains("0s, seen 2 times");
        assertThat(problems.clear("b")).hasValueSatisfying(cleared -> assertThat(cleared.summary()).isEqualTo("0s, seen once"));
    }

    @Test
    void aForgottenOrNeverSeenKeyClearsWithoutAWord() {
        problems.seen("gone", "broken");
        problems.forget("gone");
        assertThat(problems.clear("gone")).isEmpty();
        assertThat(problems.clear("never")).isEmpty();
        problems.seen("ns|UP|x", "broken");
        problems.seen("ns|UP|y", "broken");
        problems.seen("other|UP|x", "broken");
        assertThat(problems.clearIf(key -> key.startsWith("ns|"))).containsOnlyKeys("ns|UP|x", "ns|UP|y");
        assertThat(problems.ongoingSummary("other|UP|x")).isPresent();
    }
}
