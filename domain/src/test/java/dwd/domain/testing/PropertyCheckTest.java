package dwd.domain.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PropertyCheckTest {

    @Test
    void aFailingPropertyNamesTheSampleAndTheSeed() {
        assertThatThrownBy(() -> PropertyCheck.forAll(random -> random.nextInt(100), n -> assertThat(n).isLessThan(50)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("property failed (try ")
                .hasMessageContaining("seed ")
                .hasMessageContaining("for sample: ");
    }

    @Test
    void theSameSeedGivesTheSameSamples() {
        List<Integer> first = new ArrayList<>();
        List<Integer> second = new ArrayList<>();
        PropertyCheck.forAll(20, random -> random.nextInt(), first::add);
        PropertyCheck.forAll(20, random -> random.nextInt(), second::add);
        assertThat(first).hasSize(20).isEqualTo(second);
    }

    @Test
    void edgeCasesAreCheckedBeforeGeneratedSamples() {
        List<Integer> seen = new ArrayList<>();
        PropertyCheck.forAll(List.of(-1, -2), random -> random.nextInt(10), seen::add);
        assertThat(seen).startsWith(-1, -2).hasSize(2 + PropertyCheck.DEFAULT_TRIES);
    }
}
