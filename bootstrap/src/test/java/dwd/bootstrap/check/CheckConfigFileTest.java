package dwd.bootstrap.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckConfigFileTest {

    @TempDir
    Path directory;

    private Path config(String content) throws Exception {
        return Files.writeString(directory.resolve("cc.yaml"), content);
    }

    @Test
    void readsTheConditionsInPriorityOrder() throws Exception {
        var config = CheckConfigFile.read(config("""
                conditions:
                  negativePolarity: [Stalled, Reconciling, FetchFailed]
                  positivePolarity:
                  - RemoteAvailable
                """));
        assertThat(config.conditions().negativePolarity()).containsExactly("Stalled", "Reconciling", "FetchFailed");
        assertThat(config.conditions().positivePolarity()).containsExactly("RemoteAvailable");
        assertThat(config.warnings()).isEmpty();
    }

    @Test
    void readsTheBareFormOfTheGoLibraryWithKeysInAnyCase() throws Exception {
        var config = CheckConfigFile.read(config("NegativePolarity: [FetchFailed]\n"));
        assertThat(config.conditions().negativePolarity()).containsExactly("FetchFailed");
        assertThat(config.conditions().positivePolarity()).isEmpty();
    }

    @Test
    void readsJson() throws Exception {
        var config = CheckConfigFile.read(config("{\"conditions\": {\"negativePolarity\": [\"A\", \"B\"]}}"));
        assertThat(config.conditions().negativePolarity()).containsExactly("A", "B");
    }

    @Test
    void anEmptyConditionsMappingMeansNoCustomConditions() throws Exception {
        assertThat(CheckConfigFile.read(config("conditions: {}\n")).conditions().negativePolarity()).isEmpty();
        assertThat(CheckConfigFile.read(config("conditions:\n")).conditions().negativePolarity()).isEmpty();
    }

    @Test
    void unknownKeysAreIgnoredWithAWarningThatSaysWhere() throws Exception {
        Path file = config("""
                conditions:
                  negativPolarity: [FetchFailed]
                kind: Whatever
                """);
        var config = CheckConfigFile.read(file);
        assertThat(config.conditions().negativePolarity()).isEmpty();
        assertThat(config.warnings()).containsExactly(
                file + ":3:1: unknown key 'kind' ignored (known keys: conditions, negativePolarity, positivePolarity)",
                file + ":2:3: unknown key 'negativPolarity' ignored (known keys: negativePolarity, positivePolarity)");
    }

    @Test
    void everyBadEntryIsReportedWithItsLocation() throws Exception {
        Path file = config("""
                conditions:
                  negativePolarity:
                  - FetchFailed
                  - Ready
                  - 12
                  - FetchFailed
                """);
        assertThatThrownBy(() -> CheckConfigFile.read(file))
                .isInstanceOf(InputException.class)
                .hasMessage(file + ":5:5: conditions.negativePolarity[2]: expected a condition type (a string), found 12");
        Path duplicates = config("""
                conditions:
                  negativePolarity: [FetchFailed, Ready, FetchFailed]
                  positivePolarity: [FetchFailed]
                """);
        assertThatThrownBy(() -> CheckConfigFile.read(duplicates)).hasMessage(String.join("\n",
                duplicates + ":2:35: conditions.negativePolarity[1]: Ready cannot be listed: every check already treats it as the summary condition",
                duplicates + ":2:42: conditions.negativePolarity[2]: FetchFailed is already listed at negativePolarity[0]",
                duplicates + ":3:22: conditions.positivePolarity[0]: FetchFailed is already listed at negativePolarity[0]"));
    }

    @Test
    void aListWrittenAsAStringIsAnError() throws Exception {
        Path file = config("conditions:\n  negativePolarity: FetchFailed\n");
        assertThatThrownBy(() -> CheckConfigFile.read(file))
                .hasMessage(file + ":2:3: conditions.negativePolarity must be a list of condition types, e.g. [FetchFailed]");
    }

    @Test
    void bothFormsAtOnceAreAnError() throws Exception {
        Path file = config("conditions: {}\nnegativePolarity: [A]\n");
        assertThatThrownBy(() -> CheckConfigFile.read(file)).hasMessageStartingWith(
                file + ":2:1: negativePolarity belongs under conditions; write either conditions: {negativePolarity: [...], ");
    }

    @Test
    void aConfigWithoutConditionsIsAnError() throws Exception {
        Path file = config("something: else\n");
        assertThatThrownBy(() -> CheckConfigFile.read(file)).hasMessage(file
                + ":1:1: no conditions found; expected conditions: {negativePolarity: [...], positivePolarity: [...]}");
    }

    @Test
    void anEmptyConfigIsAnError() throws Exception {
        Path file = config("# nothing\n");
        assertThatThrownBy(() -> CheckConfigFile.read(file)).hasMessage("config " + file
                + ": is empty; it needs conditions: {negativePolarity: [...], positivePolarity: [...]}");
    }

    @Test
    void aSecondDocumentIsAnError() throws Exception {
        Path file = config("conditions: {}\n---\nconditions: {}\n");
        assertThatThrownBy(() -> CheckConfigFile.read(file))
                .hasMessage(file + ":3:1: the config is one document, found a second one");
    }

    @Test
    void keysRepeatedInAnotherCaseAreAnError() throws Exception {
        Path file = config("negativePolarity: [A]\nNegativePolarity: [B]\n");
        assertThatThrownBy(() -> CheckConfigFile.read(file))
                .hasMessage(file + ":2:1: 'NegativePolarity' repeats 'negativePolarity' (keys are matched case-insensitively)");
    }

    @Test
    void aMissingConfigIsAnError() {
        Path file = directory.resolve("none.yaml");
        assertThatThrownBy(() -> CheckConfigFile.read(file)).hasMessage("config " + file + ": no such file");
    }
}
