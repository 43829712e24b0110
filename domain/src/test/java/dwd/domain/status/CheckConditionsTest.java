package dwd.domain.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckConditionsTest {

    @Test
    void keepsThePriorityOrder() {
        var conditions = new CheckConditions(List.of("Stalled", "Reconciling", "FetchFailed"), List.of("RemoteAvailable"));
        assertThat(conditions.negativePolarity()).containsExactly("Stalled", "Reconciling", "FetchFailed");
        assertThat(conditions.positivePolarity()).containsExactly("RemoteAvailable");
    }

    @Test
    void emptyListsAreFine() {
        assertThat(CheckConditions.problems(List.of(), List.of())).isEmpty();
    }

    @Test
    void everyProblemIsReportedWithItsEntry() {
        assertThat(CheckConditions.problems(
                Arrays.asList("FetchFailed", "Ready", " ", "FetchFailed", null),
                List.of("RemoteAvailable", "FetchFailed")))
                .extracting(CheckConditions.Problem::toString)
                .containsExactly(
                        "negativePolarity[1]: Ready cannot be listed: every check already treats it as the summary condition",
                        "negativePolarity[2]: must be a condition type, found an empty entry",
                        "negativePolarity[3]: FetchFailed is already listed at negativePolarity[0]",
                        "negativePolarity[4]: must be a condition type, found an empty entry",
                        "positivePolarity[1]: FetchFailed is already listed at negativePolarity[0]");
    }

    @Test
    void theConstructorRejectsWhatProblemsReports() {
        assertThatThrownBy(() -> CheckConditions.negative("A", "A"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("negativePolarity[1]: A is already listed at negativePolarity[0]");
    }

    @Test
    void aMissingListIsAProblem() {
        assertThat(CheckConditions.problems(null, List.of())).extracting(CheckConditions.Problem::field)
                .containsExactly("negativePolarity");
    }
}
