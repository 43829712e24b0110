package dwd.domain.dryrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class DryRunModeTest {

    @ParameterizedTest
    @CsvSource({"none,NONE", "client,CLIENT", "server,SERVER"})
    void currentFormsParseWithoutWarning(String value, DryRunMode expected) {
        var parsed = DryRunMode.parse(Optional.of(value));
        assertThat(parsed.mode()).isEqualTo(expected);
        assertThat(parsed.deprecationWarning()).isEmpty();
    }

    @Test
    void flagWithoutValueMeansClientWithWarning() {
        var parsed = DryRunMode.parse(Optional.empty());
        assertThat(parsed.mode()).isEqualTo(DryRunMode.CLIENT);
        assertThat(parsed.deprecationWarning()).get().asString().contains("--dry-run=client");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "t", "T", "TRUE", "true", "True"})
    void goTrueMeansClientWithWarning(String value) {
        var parsed = DryRunMode.parse(Optional.of(value));
        assertThat(parsed.mode()).isEqualTo(DryRunMode.CLIENT);
        assertThat(parsed.deprecationWarning()).get().asString().contains("deprecated");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "f", "F", "FALSE", "false", "False"})
    void goFalseMeansNoneWithWarning(String value) {
        var parsed = DryRunMode.parse(Optional.of(value));
        assertThat(parsed.mode()).isEqualTo(DryRunMode.NONE);
        assertThat(parsed.deprecationWarning()).get().asString().contains("--dry-run=none");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bogus", "yes", "tRUE", "Client", "NONE", "", " none"})
    void anythingElseIsRejectedWithKubectlsMessage(String value) {
        assertThatThrownBy(() -> DryRunMode.parse(Optional.of(value)))
                .isInstanceOf(DryRunMode.InvalidDryRunValue.class)
                .hasMessage("Invalid dry-run value (" + value + "). Must be \"none\", \"server\", or \"client\".");
    }

    @Test
    void onlyNoneActsForReal() {
        assertThat(DryRunMode.NONE.isShadow()).isFalse();
        assertThat(DryRunMode.CLIENT.isShadow()).isTrue();
        assertThat(DryRunMode.SERVER.isShadow()).isTrue();
        assertThat(DryRunMode.SERVER.flagValue()).isEqualTo("server");
    }
}
