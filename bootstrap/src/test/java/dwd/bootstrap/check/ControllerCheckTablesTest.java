package dwd.bootstrap.check;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.check.CheckResult;
import dwd.application.check.StatusChecker;
import dwd.domain.status.CheckCode;
import dwd.domain.status.CheckConditions;
import dwd.domain.status.Finding;
import dwd.domain.status.ObjectDocument;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * controller-check's own test tables, case by case, read as {@code dwd check --file} reads them: its module is not on the
 * Go module proxy, so its tests stand in for it. Each object of {@code corpus/controller-check-tests.yaml} carries the
 * case's conditions and what controller-check's test expects (see the file's header); dwd must answer the same.
 */
class ControllerCheckTablesTest {

    private static final String TABLES = "src/test/resources/check/corpus/controller-check-tests.yaml";
    private static final String ANNOTATION = "corpus.dwd.dev/";

    private static List<SourceDocument> cases() {
        var cases = new ArrayList<SourceDocument>();
        ObjectFiles.read(TABLES, InputStream.nullInputStream(), cases::add);
        return cases;
    }

    private static Optional<String> annotation(SourceDocument document, String name) {
        return Optional.ofNullable((String) ObjectDocument.of(document.content()).fieldOrAbsent("metadata.annotations")
                .map(annotations -> ((Map<?, ?>) annotations).get(ANNOTATION + name)).orElse(null));
    }

    private static List<String> list(Optional<String> commaSeparated) {
        return commaSeparated.map(text -> Arrays.asList(text.split(","))).orElse(List.of());
    }

    @Test
    void dwdAnswersEveryCaseAsControllerChecksTestsExpect() {
        List<SourceDocument> cases = cases();
        assertThat(cases).as("cases of controller-check's tests").hasSize(54);
        var softly = new SoftAssertions();
        for (SourceDocument document : cases) {
            String name = ObjectDocument.of(document.content()).identity().name();
            assertThat(document.problem()).as(name).isEmpty();
            var conditions = new CheckConditions(list(annotation(document, "negative-polarity")), List.of());
            CheckResult result = StatusChecker.of(conditions).check(document.content());
            String check = annotation(document, "check").orElseThrow();
            if (check.equals("all")) {
                softly.assertThat(!result.warnings().isEmpty()).as(name + ": some warning")
                        .isEqualTo(Boolean.parseBoolean(annotation(document, "warns").orElseThrow()));
                softly.assertThat(result.hasFailures()).as(name + ": some failure")
                        .isEqualTo(Boolean.parseBoolean(annotation(document, "fails").orElseThrow()));
                continue;
            }
            Optional<Finding> finding = result.findings().stream()
                    .filter(candidate -> candidate.code() == CheckCode.valueOf(check)).findFirst();
            softly.assertThat(finding.isPresent()).as(name + ": " + check + " fires")
                    .isEqualTo(Boolean.parseBoolean(annotation(document, "fires").orElseThrow()));
            String message = finding.map(Finding::message).orElse("");
            list(annotation(document, "message-contains")).forEach(type -> softly.assertThat(message).as(name).contains(type));
            list(annotation(document, "message-lacks")).forEach(type -> softly.assertThat(message).as(name).doesNotContain(type));
        }
        softly.assertAll();
    }

    @Test
    void everyCheckHasCasesThatFireAndCasesThatDoNot() {
        var cases = cases();
        for (CheckCode code : CheckCode.values()) {
            if (code == CheckCode.FAIL0000) {
                continue; // dwd's own: controller-check has no such check
            }
            Stream<String> verdicts = cases.stream()
                    .filter(document -> annotation(document, "check").orElseThrow().equals(code.name()))
                    .map(document -> annotation(document, "fires").orElseThrow());
            assertThat(verdicts.distinct().sorted()).as(code.name()).containsExactly("false", "true");
        }
    }
}
