package dwd.domain.status;

import static dwd.domain.status.Statuses.FALSE;
import static dwd.domain.status.Statuses.TRUE;
import static dwd.domain.status.Statuses.UNKNOWN;
import static dwd.domain.status.Statuses.condition;
import static dwd.domain.status.Statuses.ready;
import static dwd.domain.status.Statuses.reconciling;
import static dwd.domain.status.Statuses.stalled;
import static dwd.domain.status.Statuses.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StatusChecksTest {

    private static final CheckConditions FETCH_FAILED = CheckConditions.negative("FetchFailed");
    private static final CheckConditions FLUX_STYLE = CheckConditions.negative("Stalled", "Reconciling", "FetchFailed");

    private static Optional<String> message(CheckCode code, ObjectStatus status, CheckConditions conditions) {
        return StatusChecks.check(code, status, conditions).map(Finding::message);
    }

    private static Optional<String> message(CheckCode code, ObjectStatus status) {
        return message(code, status, CheckConditions.NONE);
    }

    @Nested
    class Warn0001NegativeConditionPresentWhileReady {

        @Test
        void firesForANegativeConditionPresentWithAnyStatus() {
            var status = status(ready(TRUE), condition("FetchFailed", FALSE));
            assertThat(message(CheckCode.WARN0001, status, FETCH_FAILED)).contains(
                    "Negative polarity condition present when Ready condition is True: [FetchFailed]");
        }

        @Test
        void listsTypesInPriorityOrderSeparatedBySingleSpaces() {
            var status = status(ready(TRUE), condition("B", UNKNOWN), condition("C", TRUE), condition("A", FALSE));
            assertThat(message(CheckCode.WARN0001, status, CheckConditions.negative("A", "B", "C"))).contains(
                    "Negative polarity condition present when Ready condition is True: [A B C]");
        }

        @Test
        void aTypePresentTwiceIsListedOnce() {
            var status = status(ready(TRUE), condition("A", FALSE), condition("A", TRUE));
            assertThat(message(CheckCode.WARN0001, status, CheckConditions.negative("A"))).contains(
                    "Negative polarity condition present when Ready condition is True: [A]");
        }

        @ParameterizedTest
        @ValueSource(strings = {"False", "Unknown", "true", ""})
        void doesNotRunUnlessReadyIsExactlyTrue(String readyStatus) {
            var status = status(ready(readyStatus), condition("FetchFailed", TRUE));
            assertThat(message(CheckCode.WARN0001, status, FETCH_FAILED)).isEmpty();
        }

        @Test
        void doesNotRunWithoutNegativeConditionsConfigured() {
            assertThat(message(CheckCode.WARN0001, status(ready(TRUE), condition("FetchFailed", TRUE)))).isEmpty();
        }

        @Test
        void passesWhenNoListedConditionIsPresent() {
            var status = status(ready(TRUE), condition("Other", TRUE));
            assertThat(message(CheckCode.WARN0001, status, FETCH_FAILED)).isEmpty();
        }

        @Test
        void usesPlainReadyTrueNotReadinessSoReconcilingDoesNotSuppressIt() {
            var status = status(ready(TRUE), reconciling(TRUE), condition("FetchFailed", FALSE));
            assertThat(message(CheckCode.WARN0001, status, FETCH_FAILED)).contains(
                    "Negative polarity condition present when Ready condition is True: [FetchFailed]");
        }

        @Test
        void reconcilingAndStalledCountOnlyWhenListed() {
            var status = status(ready(TRUE), reconciling(FALSE), stalled(FALSE));
            assertThat(message(CheckCode.WARN0001, status, FETCH_FAILED)).isEmpty();
            assertThat(message(CheckCode.WARN0001, status, FLUX_STYLE)).contains(
                    "Negative polarity condition present when Ready condition is True: [Stalled Reconciling]");
        }
    }

    @Nested
    class Warn0002ReadyMirrorsHighestPriorityNegativeCondition {

        private static final String PREFIX = "Ready condition should have the value of the negative polarity "
                + "condition that's present with the highest priority: ";

        @Test
        void firesWhenReasonAndMessageDifferShowingBoth() {
            var status = status(
                    condition("Ready", FALSE, "SomeReason", "SomeMsg"),
                    condition("FetchFailed", TRUE, "Rsn", "Msg"));
            assertThat(message(CheckCode.WARN0002, status, FETCH_FAILED)).contains(PREFIX
                    + "Ready != FetchFailed (reason \"SomeReason\" != \"Rsn\", message \"SomeMsg\" != \"Msg\")");
        }

        @Test
        void showsOnlyTheFieldThatDiffers() {
            var status = status(
                    condition("Ready", FALSE, "Rsn", "old"),
                    condition("FetchFailed", TRUE, "Rsn", "new"));
            assertThat(message(CheckCode.WARN0002, status, FETCH_FAILED))
                    .contains(PREFIX + "Ready != FetchFailed (message \"old\" != \"new\")");
        }

        @Test
        void quotesValuesSoThatEmptyAndMultiLineTextsAreVisibleOnOneLine() {
            var status = status(
                    condition("Ready", FALSE, "", "line one\nline \"two\""),
                    condition("FetchFailed", TRUE, "Rsn", "line one"));
            assertThat(message(CheckCode.WARN0002, status, FETCH_FAILED)).contains(PREFIX
                    + "Ready != FetchFailed (reason \"\" != \"Rsn\", message \"line one\\nline \\\"two\\\"\" != \"line one\")");
        }

        @Test
        void passesWhenReadyCarriesTheSameReasonAndMessage() {
            var status = status(
                    condition("Ready", FALSE, "Rsn", "Msg"),
                    condition("FetchFailed", TRUE, "Rsn", "Msg"));
            assertThat(message(CheckCode.WARN0002, status, FETCH_FAILED)).isEmpty();
        }

        @Test
        void theHighestPriorityIsTheConfiguredOrderNotTheStatusOrder() {
            var conditions = CheckConditions.negative("A", "B");
            var mirrorsA = status(
                    condition("Ready", FALSE, "ReasonA", "a"),
                    condition("B", TRUE, "ReasonB", "b"),
                    condition("A", TRUE, "ReasonA", "a"));
            var mirrorsB = status(
                    condition("Ready", FALSE, "ReasonB", "b"),
                    condition("B", TRUE, "ReasonB", "b"),
                    condition("A", TRUE, "ReasonA", "a"));
            assertThat(message(CheckCode.WARN0002, mirrorsA, conditions)).isEmpty();
            assertThat(message(CheckCode.WARN0002, mirrorsB, conditions)).hasValueSatisfying(
                    text -> assertThat(text).contains("Ready != A"));
        }

        @Test
        void theHighestNegativeConditionCountsWhateverItsStatus() {
            var status = status(
                    condition("Ready", FALSE, "Other", "other"),
                    condition("FetchFailed", FALSE, "Succeeded", "fetched"));
            assertThat(message(CheckCode.WARN0002, status, FETCH_FAILED)).hasValueSatisfying(
                    text -> assertThat(text).contains("Ready != FetchFailed"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"False", "Unknown", "anything"})
        void runsWheneverReadyIsNotTrue(String readyStatus) {
            var status = status(
                    condition("Ready", readyStatus, "A", "a"),
                    condition("FetchFailed", TRUE, "B", "b"));
            assertThat(message(CheckCode.WARN0002, status, FETCH_FAILED)).isPresent();
        }

        @Test
        void doesNotRunWhenReadyIsTrue() {
            var status = status(
                    condition("Ready", TRUE, "A", "a"),
                    condition("FetchFailed", TRUE, "B", "b"));
            assertThat(message(CheckCode.WARN0002, status, FETCH_FAILED)).isEmpty();
        }

        @Test
        void doesNotRunWithoutNegativeConditionsConfigured() {
            var status = status(condition("Ready", FALSE, "A", "a"), condition("FetchFailed", TRUE, "B", "b"));
            assertThat(message(CheckCode.WARN0002, status)).isEmpty();
        }

        @Test
        void passesWhenNoListedConditionIsPresent() {
            var status = status(condition("Ready", FALSE, "A", "a"), condition("Other", TRUE, "B", "b"));
            assertThat(message(CheckCode.WARN0002, status, FETCH_FAILED)).isEmpty();
        }

        @Test
        void readyAbsentDoesNotCrashAndLeavesTheReportToFail0002() {
            var status = status(condition("FetchFailed", TRUE, "B", "b"));
            assertThat(message(CheckCode.WARN0002, status, FETCH_FAILED)).isEmpty();
            assertThat(StatusChecks.checkAll(status, FETCH_FAILED)).extracting(Finding::code)
                    .contains(CheckCode.FAIL0002).doesNotContain(CheckCode.WARN0002);
        }

        @Test
        void reconcilingListedBeforeCustomConditionsExemptsReady() {
            var status = status(
                    condition("Ready", FALSE, "Progressing", "reconciling"),
                    condition("Reconciling", TRUE, "Progressing", "reconciling"),
                    condition("FetchFailed", TRUE, "Timeout", "no answer"));
            assertThat(message(CheckCode.WARN0002, status, CheckConditions.negative("Reconciling", "FetchFailed"))).isEmpty();
        }

        @Test
        void stalledListedBeforeCustomConditionsExemptsReady() {
            var status = status(
                    condition("Ready", FALSE, "Gave up", "stalled"),
                    condition("Stalled", TRUE, "Gave up", "stalled"),
                    condition("FetchFailed", TRUE, "Timeout", "no answer"));
            assertThat(message(CheckCode.WARN0002, status, FLUX_STYLE)).isEmpty();
        }

        @Test
        void reconcilingListedAfterCustomConditionsLetsThePresentCustomConditionWin() {
            var status = status(
                    condition("Ready", FALSE, "Progressing", "reconciling"),
                    condition("Reconciling", TRUE, "Progressing", "reconciling"),
                    condition("FetchFailed", TRUE, "Timeout", "no answer"));
            assertThat(message(CheckCode.WARN0002, status, CheckConditions.negative("FetchFailed", "Reconciling")))
                    .hasValueSatisfying(text -> assertThat(text).contains("Ready != FetchFailed"));
        }

        @Test
        void reconcilingListedAfterCustomConditionsStillExemptsWhenNoCustomConditionIsPresent() {
            var status = status(
                    condition("Ready", FALSE, "Other", "other"),
                    condition("Reconciling", TRUE, "Progressing", "reconciling"));
            assertThat(message(CheckCode.WARN0002, status, CheckConditions.negative("FetchFailed", "Reconciling"))).isEmpty();
        }

        @Test
        void reconcilingNotListedNeverExempts() {
            var status = status(
                    condition("Ready", FALSE, "Progressing", "reconciling"),
                    condition("Reconciling", TRUE, "Progressing", "reconciling"),
                    condition("FetchFailed", TRUE, "Timeout", "no answer"));
            assertThat(message(CheckCode.WARN0002, status, FETCH_FAILED))
                    .hasValueSatisfying(text -> assertThat(text).contains("Ready != FetchFailed"));
        }
    }

    @Nested
    class Warn0003And0004FalseReconcilingOrStalled {

        @Test
        void reconcilingFalseCanBeRemoved() {
            assertThat(message(CheckCode.WARN0003, status(ready(TRUE), reconciling(FALSE))))
                    .contains("Reconciling condition can be removed when its value is False");
        }

        @Test
        void stalledFalseCanBeRemoved() {
            assertThat(message(CheckCode.WARN0004, status(ready(TRUE), stalled(FALSE))))
                    .contains("Stalled condition can be removed when its value is False");
        }

        @ParameterizedTest
        @ValueSource(strings = {"True", "Unknown", "false"})
        void onlyTheExactStatusFalseFires(String value) {
            assertThat(message(CheckCode.WARN0003, status(ready(TRUE), reconciling(value)))).isEmpty();
            assertThat(message(CheckCode.WARN0004, status(ready(TRUE), stalled(value)))).isEmpty();
        }

        @Test
        void doNotRunWhenTheConditionIsAbsent() {
            assertThat(message(CheckCode.WARN0003, status(ready(TRUE)))).isEmpty();
            assertThat(message(CheckCode.WARN0004, status(ready(TRUE)))).isEmpty();
        }

        @Test
        void onlyTheFirstEntryOfATypeCounts() {
            assertThat(message(CheckCode.WARN0003, status(ready(TRUE), reconciling(TRUE), reconciling(FALSE)))).isEmpty();
            assertThat(message(CheckCode.WARN0004, status(ready(TRUE), stalled(FALSE), stalled(TRUE)))).isPresent();
        }
    }

    @Nested
    class Warn0005MissingObservedGeneration {

        @Test
        void listsConditionsWithoutObservedGenerationInStatusOrder() {
            var status = status(condition("Zeta", TRUE, 0), ready(TRUE, 1), condition("Alpha", FALSE, -2));
            assertThat(message(CheckCode.WARN0005, status))
                    .contains("Missing ObservedGeneration from status condition: [Zeta Alpha]");
        }

        @Test
        void aSingleConditionIsStillBracketed() {
            assertThat(message(CheckCode.WARN0005, status(ready(TRUE, 0))))
                    .contains("Missing ObservedGeneration from status condition: [Ready]");
        }

        @Test
        void duplicateEntriesAreEachListed() {
            var status = status(condition("A", TRUE, 0), condition("A", FALSE, 0));
            assertThat(message(CheckCode.WARN0005, status))
                    .contains("Missing ObservedGeneration from status condition: [A A]");
        }

        @Test
        void passesWhenEveryConditionHasOne() {
            assertThat(message(CheckCode.WARN0005, status(ready(TRUE, 1), condition("A", TRUE, 7)))).isEmpty();
            assertThat(message(CheckCode.WARN0005, status())).isEmpty();
        }
    }

    @Nested
    class Fail0001NegativeConditionTrueWhileReady {

        @Test
        void listsTrueNegativeConditionsInStatusOrder() {
            var status = status(ready(TRUE), condition("B", TRUE), condition("C", FALSE), condition("A", TRUE));
            assertThat(message(CheckCode.FAIL0001, status, CheckConditions.negative("A", "B", "C"))).contains(
                    "Negative polarity condition cannot be True when Ready condition is True: [B A]");
        }

        @Test
        void everyTrueEntryIsListedEvenForARepeatedType() {
            var status = status(ready(TRUE), condition("A", TRUE), condition("A", TRUE));
            assertThat(message(CheckCode.FAIL0001, status, CheckConditions.negative("A"))).contains(
                    "Negative polarity condition cannot be True when Ready condition is True: [A A]");
        }

        @Test
        void passesWhenListedConditionsAreNotTrue() {
            var status = status(ready(TRUE), condition("FetchFailed", FALSE), condition("Other", TRUE));
            assertThat(message(CheckCode.FAIL0001, status, FETCH_FAILED)).isEmpty();
        }

        @ParameterizedTest
        @ValueSource(strings = {"False", "Unknown"})
        void doesNotRunUnlessReadyIsTrue(String readyStatus) {
            assertThat(message(CheckCode.FAIL0001, status(ready(readyStatus), condition("FetchFailed", TRUE)), FETCH_FAILED))
                    .isEmpty();
        }

        @Test
        void doesNotRunWithoutNegativeConditionsConfigured() {
            assertThat(message(CheckCode.FAIL0001, status(ready(TRUE), condition("FetchFailed", TRUE)))).isEmpty();
        }

        @Test
        void reconcilingTrueIsAlsoFail0001OnlyWhenListed() {
            var status = status(ready(TRUE), reconciling(TRUE));
            assertThat(StatusChecks.checkAll(status, FETCH_FAILED)).extracting(Finding::code)
                    .contains(CheckCode.FAIL0003).doesNotContain(CheckCode.FAIL0001);
            assertThat(StatusChecks.checkAll(status, FLUX_STYLE)).extracting(Finding::code)
                    .contains(CheckCode.FAIL0001, CheckCode.FAIL0003);
            assertThat(message(CheckCode.FAIL0001, status, FLUX_STYLE)).contains(
                    "Negative polarity condition cannot be True when Ready condition is True: [Reconciling]");
        }

        @Test
        void stalledTrueIsAlsoFail0001OnlyWhenListed() {
            var status = status(ready(TRUE), stalled(TRUE));
            assertThat(StatusChecks.checkAll(status, FETCH_FAILED)).extracting(Finding::code)
                    .contains(CheckCode.FAIL0004).doesNotContain(CheckCode.FAIL0001);
            assertThat(StatusChecks.checkAll(status, FLUX_STYLE)).extracting(Finding::code)
                    .contains(CheckCode.FAIL0001, CheckCode.FAIL0004);
        }
    }

    @Nested
    class Fail0002ReadyPresent {

        @Test
        void firesWhenReadyIsAbsent() {
            assertThat(message(CheckCode.FAIL0002, status(condition("Other", TRUE))))
                    .contains("Ready condition must always be present");
            assertThat(message(CheckCode.FAIL0002, status())).isPresent();
        }

        @ParameterizedTest
        @ValueSource(strings = {"True", "False", "Unknown", ""})
        void passesWithReadyOfAnyStatus(String readyStatus) {
            assertThat(message(CheckCode.FAIL0002, status(ready(readyStatus)))).isEmpty();
        }

        @Test
        void theTypeIsMatchedCaseSensitively() {
            assertThat(message(CheckCode.FAIL0002, status(condition("ready", TRUE)))).isPresent();
        }
    }

    @Nested
    class Fail0003And0004ReadyFalseWhileReconcilingOrStalled {

        @ParameterizedTest
        @ValueSource(strings = {"True", "Unknown", "other"})
        void fireWhenReadyIsAnythingButFalse(String readyStatus) {
            assertThat(message(CheckCode.FAIL0003, status(ready(readyStatus), reconciling(TRUE))))
                    .contains("Ready condition must be False when Reconciling condition is True");
            assertThat(message(CheckCode.FAIL0004, status(ready(readyStatus), stalled(TRUE))))
                    .contains("Ready condition must be False when Stalled condition is True");
        }

        @Test
        void passWhenReadyIsFalse() {
            assertThat(message(CheckCode.FAIL0003, status(ready(FALSE), reconciling(TRUE)))).isEmpty();
            assertThat(message(CheckCode.FAIL0004, status(ready(FALSE), stalled(TRUE)))).isEmpty();
        }

        @ParameterizedTest
        @ValueSource(strings = {"False", "Unknown"})
        void passWhenTheConditionIsNotTrue(String value) {
            assertThat(message(CheckCode.FAIL0003, status(ready(TRUE), reconciling(value)))).isEmpty();
            assertThat(message(CheckCode.FAIL0004, status(ready(TRUE), stalled(value)))).isEmpty();
        }

        @Test
        void doNotRunWithoutReady() {
            assertThat(message(CheckCode.FAIL0003, status(reconciling(TRUE)))).isEmpty();
            assertThat(message(CheckCode.FAIL0004, status(stalled(TRUE)))).isEmpty();
        }

        @Test
        void applyWhateverTheConfigurationLists() {
            var status = status(ready(TRUE), reconciling(TRUE));
            assertThat(message(CheckCode.FAIL0003, status, CheckConditions.NONE)).isPresent();
            assertThat(message(CheckCode.FAIL0003, status, FLUX_STYLE)).isPresent();
        }
    }

    @Nested
    class Fail0005ReconcilingAndStalledTogether {

        @Test
        void firesWhenBothArePresentWhateverTheirStatuses() {
            assertThat(message(CheckCode.FAIL0005, status(ready(FALSE), reconciling(FALSE), stalled(FALSE))))
                    .contains("Only one of Reconciling condition or Stalled condition must be present at a time");
        }

        @Test
        void passesWithOneOrNone() {
            assertThat(message(CheckCode.FAIL0005, status(ready(FALSE), reconciling(TRUE)))).isEmpty();
            assertThat(message(CheckCode.FAIL0005, status(ready(FALSE), stalled(TRUE)))).isEmpty();
            assertThat(message(CheckCode.FAIL0005, status(ready(FALSE)))).isEmpty();
        }
    }

    @Nested
    class Fail0006To0010Generations {

        @Test
        void fail0006FiresWhenTheRootObservedGenerationIsAheadOfTheGeneration() {
            assertThat(message(CheckCode.FAIL0006, status(3, 4, ready(TRUE, 4))))
                    .contains("The ObservedGeneration must be less than or equal to the object Generation");
            assertThat(message(CheckCode.FAIL0006, status(4, 4, ready(TRUE, 4)))).isEmpty();
            assertThat(message(CheckCode.FAIL0006, status(5, 4, ready(FALSE, 4)))).isEmpty();
        }

        @Test
        void fail0006CountsAnAbsentGenerationAsZero() {
            assertThat(message(CheckCode.FAIL0006, status(0, 1, ready(FALSE, 1)))).isPresent();
        }

        @Test
        void fail0007FiresWhenReadyWhileTheGenerationIsNotObserved() {
            assertThat(message(CheckCode.FAIL0007, status(4, 3, ready(TRUE, 4))))
                    .contains("Ready condition must be False when the ObservedGeneration is less than the object Generation");
            assertThat(message(CheckCode.FAIL0007, status(4, 4, ready(TRUE, 4)))).isEmpty();
            assertThat(message(CheckCode.FAIL0007, status(4, 3, ready(FALSE, 4)))).isEmpty();
        }

        @Test
        void fail0007UsesReadinessSoAWinningReconcilingOrStalledSuppressesIt() {
            assertThat(message(CheckCode.FAIL0007, status(4, 3, ready(TRUE, 4), reconciling(TRUE)))).isEmpty();
            assertThat(message(CheckCode.FAIL0007, status(4, 3, ready(TRUE, 4), stalled(TRUE)))).isEmpty();
            // Both True: neither wins, so Ready True is ready again.
            assertThat(message(CheckCode.FAIL0007, status(4, 3, ready(TRUE, 4), reconciling(TRUE), stalled(TRUE))))
                    .isPresent();
        }

        @Test
        void fail0008ListsConditionsBehindTheGenerationReadyIncluded() {
            var status = status(4, 4, ready(TRUE, 3), condition("A", FALSE, 4), condition("B", FALSE, 2));
            assertThat(message(CheckCode.FAIL0008, status)).contains("Ready condition must be False when any of the "
                    + "status condition's ObservedGeneration is less than the object Generation: [Ready B]");
        }

        @Test
        void fail0008IsStrictlyLessSoAConditionAheadIsNotFlagged() {
            assertThat(message(CheckCode.FAIL0008, status(4, 4, ready(TRUE, 4), condition("A", FALSE, 5)))).isEmpty();
        }

        @Test
        void fail0008DoesNotRunWhenNotReady() {
            assertThat(message(CheckCode.FAIL0008, status(4, 4, ready(FALSE, 1)))).isEmpty();
            assertThat(message(CheckCode.FAIL0008, status(4, 4, ready(TRUE, 1), reconciling(TRUE)))).isEmpty();
        }

        @Test
        void fail0009ListsConditionsOffTheRootObservedGeneration() {
            var status = status(5, 4, ready(TRUE, 4), condition("A", FALSE, 5), condition("B", FALSE, 3));
            assertThat(message(CheckCode.FAIL0009, status)).contains("The status conditions' ObservedGenerations must "
                    + "be equal to the root ObservedGeneration when Ready condition is True: [A B]");
        }

        @Test
        void fail0009PassesWhenAllAgreeAndDoesNotRunWhenNotReady() {
            assertThat(message(CheckCode.FAIL0009, status(4, 4, ready(TRUE, 4), condition("A", FALSE, 4)))).isEmpty();
            assertThat(message(CheckCode.FAIL0009, status(4, 4, ready(FALSE, 4), condition("A", FALSE, 3)))).isEmpty();
            assertThat(message(CheckCode.FAIL0009, status(4, 4, ready(TRUE, 4), stalled(TRUE), condition("A", FALSE, 3))))
                    .isEmpty();
        }

        @Test
        void fail0010FiresWhenTheRootHasCaughtUpWithReconciling() {
            String expected = "The root ObservedGeneration must be less than the Reconciling condition "
                    + "ObservedGeneration when Reconciling condition is True";
            assertThat(message(CheckCode.FAIL0010, status(6, 6, ready(FALSE, 6), condition("Reconciling", TRUE, 6))))
                    .as("a periodic re-reconcile without a new generation").contains(expected);
            assertThat(message(CheckCode.FAIL0010, status(6, 7, ready(FALSE, 6), condition("Reconciling", TRUE, 6))))
                    .contains(expected);
        }

        @Test
        void fail0010PassesWhileTheRootIsStillBehind() {
            assertThat(message(CheckCode.FAIL0010, status(6, 5, ready(FALSE, 6), condition("Reconciling", TRUE, 6)))).isEmpty();
        }

        @Test
        void fail0010DoesNotRunUnlessReconcilingWins() {
            assertThat(message(CheckCode.FAIL0010, status(6, 6, ready(FALSE, 6), condition("Reconciling", FALSE, 6)))).isEmpty();
            assertThat(message(CheckCode.FAIL0010,
                    status(6, 6, ready(FALSE, 6), condition("Reconciling", TRUE, 6), condition("Stalled", TRUE, 6)))).isEmpty();
        }
    }

    @Nested
    class AllChecksTogether {

        @Test
        void theWorkedExampleGivesItsWarningsThenItsFailures() {
            var status = status(3, 3,
                    ready(TRUE, 3), condition("Reconciling", FALSE, 2), condition("FetchFailed", FALSE, 0));
            assertThat(StatusChecks.checkAll(status, FETCH_FAILED)).containsExactly(
                    new Finding(CheckCode.WARN0001,
                            "Negative polarity condition present when Ready condition is True: [FetchFailed]"),
                    new Finding(CheckCode.WARN0003, "Reconciling condition can be removed when its value is False"),
                    new Finding(CheckCode.WARN0005, "Missing ObservedGeneration from status condition: [FetchFailed]"),
                    new Finding(CheckCode.FAIL0008, "Ready condition must be False when any of the status condition's "
                            + "ObservedGeneration is less than the object Generation: [Reconciling FetchFailed]"),
                    new Finding(CheckCode.FAIL0009, "The status conditions' ObservedGenerations must be equal to the "
                            + "root ObservedGeneration when Ready condition is True: [Reconciling FetchFailed]"));
        }

        @Test
        void aCleanMidReconcileStatePassesEveryCheck() {
            var status = status(6, 5,
                    new Condition("Reconciling", TRUE, "NewGeneration", "reconciling new generation 6", 6),
                    new Condition("Ready", FALSE, "NewGeneration", "reconciling new generation 6", 6));
            assertThat(StatusChecks.checkAll(status, FLUX_STYLE)).isEmpty();
        }

        @Test
        void aCleanReadyStatePassesEveryCheck() {
            var status = status(7, 7, ready(TRUE, 7), condition("RemoteAvailable", TRUE, 7));
            assertThat(StatusChecks.checkAll(status, new CheckConditions(
                    List.of("Stalled", "Reconciling", "FetchFailed"), List.of("RemoteAvailable")))).isEmpty();
        }

        @Test
        void positivePolarityConditionsAreNotCheckedAtAll() {
            var status = status(7, 7, ready(TRUE, 7), condition("RemoteAvailable", FALSE, 7));
            assertThat(StatusChecks.checkAll(status, new CheckConditions(List.of(), List.of("RemoteAvailable")))).isEmpty();
        }

        @Test
        void everyFindingCarriesTheSeverityOfItsCode() {
            var status = status(2, 3, condition("Reconciling", FALSE, 0), condition("Stalled", TRUE, 0));
            List<Finding> findings = StatusChecks.checkAll(status, CheckConditions.NONE);
            assertThat(findings).extracting(Finding::code).containsExactly(
                    CheckCode.WARN0003, CheckCode.WARN0005, CheckCode.FAIL0002, CheckCode.FAIL0005, CheckCode.FAIL0006);
            assertThat(findings).allSatisfy(finding -> assertThat(finding.severity())
                    .isEqualTo(finding.code().name().startsWith("WARN") ? Severity.WARNING : Severity.FAILURE));
        }

        @Test
        void highestPriorityNegativeConditionIsEmptyWhenNoneIsPresent() {
            assertThat(StatusChecks.highestPriorityNegative(status(ready(FALSE)), FETCH_FAILED)).isEmpty();
        }
    }

    @Nested
    class Fail0000UnreadableParts {

        @Test
        void aPartThatCannotBeReadIsOneFailureNamingTheFieldAndTheChecksThatDidNotRun() {
            var reading = StatusReading.read(Documents.map(
                    "metadata", Documents.map("generation", 12),
                    "status", Documents.map("observedGeneration", "12", "conditions", Documents.list(
                            Documents.map("type", "Available", "status", "True", "observedGeneration", 12)))));
            List<Finding> findings = StatusChecks.checkAll(reading, FETCH_FAILED);
            assertThat(findings).extracting(Finding::code).containsExactly(CheckCode.FAIL0000, CheckCode.FAIL0002);
            assertThat(findings.getFirst().message()).isEqualTo("The object cannot be read as the checks need it: "
                    + "status.observedGeneration: expected an integer, found \"12\" (a string); "
                    + "not run: [FAIL0006 FAIL0007 FAIL0009 FAIL0010]");
            assertThat(findings.getFirst().field()).isEqualTo("status.observedGeneration");
            assertThat(findings.getFirst().severity()).isEqualTo(Severity.FAILURE);
        }

        @Test
        void oneProblemThatKeepsTwoPartsFromBeingReadIsOneFinding() {
            var reading = StatusReading.read(Documents.map("metadata", Documents.map("generation", 1), "status", "broken"));
            List<Finding> findings = StatusChecks.checkAll(reading, FETCH_FAILED);
            assertThat(findings).singleElement().extracting(Finding::message).isEqualTo(
                    "The object cannot be read as the checks need it: status: expected a mapping, found \"broken\" (a string); "
                            + "not run: [WARN0001 WARN0002 WARN0003 WARN0004 WARN0005 FAIL0001 FAIL0002 FAIL0003 FAIL0004 "
                            + "FAIL0005 FAIL0006 FAIL0007 FAIL0008 FAIL0009 FAIL0010]");
        }

        @Test
        void neverFiresOnAStatusThatWasRead() {
            assertThat(StatusChecks.check(CheckCode.FAIL0000, status(), FETCH_FAILED)).isEmpty();
        }

        @Test
        void anObjectNoCheckCouldReadIsOneFailure() {
            Finding finding = StatusChecks.unreadable(new FieldProblem("", "expected an object, found a list"));
            assertThat(finding.message()).isEqualTo(
                    "The object cannot be read as the checks need it: expected an object, found a list; no check ran");
        }
    }
}
