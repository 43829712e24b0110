package dwd.bootstrap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which shoots the scale benchmark melts, in the warm-up and in the measured meltdown. */
class BenchSettingsTest {

    private static BenchSettings settings(double meltdown, double warmUpMeltdown) {
        return new BenchSettings(10_000, 3, Duration.ofMinutes(5), Duration.ofMinutes(1), false, Duration.ZERO,
                meltdown, warmUpMeltdown, false, 32, "", 0, false, "", Path.of("target"));
    }

    @Test
    void theWarmUpMeltsItsFractionOfTheShootsAndNoneOfThoseTheMeasuredMeltdownMelts() {
        BenchSettings settings = settings(0.1, 0.05);

        assertThat(IntStream.range(0, 10_000).filter(settings::melts).count()).isEqualTo(1_000);
        assertThat(IntStream.range(0, 10_000).filter(settings::meltsInWarmUp).count()).isEqualTo(500);
        assertThat(IntStream.range(0, 10_000).filter(shoot -> settings.melts(shoot) && settings.meltsInWarmUp(shoot)))
                .isEmpty();
    }

    @Test
    void withoutAWarmUpNoShootMeltsBeforeTheMeasuredMeltdown() {
        assertThat(IntStream.range(0, 10_000).filter(settings(0.1, 0)::meltsInWarmUp)).isEmpty();
    }
}
