package dwd.domain.gosyntax;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GoBoolTest {

    @ParameterizedTest
    @ValueSource(strings = {"1", "t", "T", "TRUE", "true", "True"})
    void goTrueSpellings(String value) {
        assertThat(GoBool.parse(value)).contains(true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "f", "F", "FALSE", "false", "False"})
    void goFalseSpellings(String value) {
        assertThat(GoBool.parse(value)).contains(false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tRUE", "fALSE", "yes", "no", "on", "", " true", "true ", "2", "-1"})
    void anythingElseIsNoBoolean(String value) {
        assertThat(GoBool.parse(value)).isEmpty();
    }

    @Test
    void nullIsNoBoolean() {
        assertThat(GoBool.parse(null)).isEmpty();
    }
}
