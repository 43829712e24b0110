package dwd.application.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.application.port.out.Clock;
import dwd.domain.status.CheckCode;
import dwd.domain.status.CheckConditions;
import dwd.domain.status.Finding;
import dwd.domain.status.KstatusStatus;
import dwd.domain.status.FieldProblem;
import dwd.domain.status.KstatusResult;
import dwd.domain.status.ObjectIdentity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusCheckerTest {

    private static final Clock CLOCK = () -> Instant.parse("2026-11-21T10:00:00Z");
    private static final CheckConditions CONDITIONS = CheckConditions.negative("Stalled", "Reconciling", "FetchFailed");

    private static Map<String, Object> object(long generation, long observedGeneration, List<Map<String, Object>> conditions) {
        return Map.of(
                "apiVersion", "source.example.com/v1",
                "kind", "GitRepository",
                "metadata", Map.of("namespace", "flux-system", "name", "podinfo", "generation", generation),
                "status", Map.of("observedGeneration", observedGeneration, "conditions", conditions));
    }

    private static Map<String, Object> condition(String type, String status, long observedGeneration) {
        return Map.of("type", type, "status", status, "reason", "R", "message", "m", "observedGeneration", observedGeneration);
    }

    @Test
    void checksADocumentAndReportsEachFindingWithCodeSeverityAndMessage() {
        var result = StatusChecker.of(CONDITIONS).check(object(2, 2, List.of(
                condition("Ready", "True", 2), condition("Reconciling", "False", 2))));

        assertThat(result.object().describe()).isEqualTo("GitRepository/flux-system/podinfo");
        assertThat(result.findings()).containsExactly(
                new Finding(CheckCode.WARN0001, "Negative polarity condition present when Ready condition is True: [Reconciling]"),
                new Finding(CheckCode.WARN0003, "Reconciling condition can be removed when its value is False"));
        assertThat(result.hasFailures()).isFalse();
        assertThat(result.warnings()).hasSize(2);
        assertThat(result.kstatus()).isEmpty();
        assertThat(result.lines()).containsExactly(
                "WARN0001 warning GitRepository/flux-system/podinfo: Negative polarity condition present when Ready condition is True: [Reconciling]",
                "WARN0003 warning GitRepository/flux-system/podinfo: Reconciling condition can be removed when its value is False");
    }

    @Test
    void failuresFailTheResult() {
        var result = StatusChecker.of(CONDITIONS).check(object(3, 2, List.of(condition("Ready", "True", 3))));
        assertThat(result.hasFailures()).isTrue();
        assertThat(result.failures()).extracting(Finding::code).containsExactly(CheckCode.FAIL0007, CheckCode.FAIL0009);
        assertThat(result.toString()).contains("FAIL0007 failure GitRepository/flux-system/podinfo: ");
    }

    @Test
    void computesKstatusWhenAskedTo() {
        var reconciling = object(3, 2, List.of(condition("Ready", "False", 3), condition("Reconciling", "True", 3)));
        var result = StatusChecker.of(CONDITIONS).withKstatus(CLOCK).check(reconciling);
        assertThat(result.kstatus()).hasValueSatisfying(kstatus -> {
            assertThat(kstatus.status()).isEqualTo(KstatusStatus.IN_PROGRESS);
            assertThat(kstatus.reason()).contains("LatestGenerationNotObserved");
        });
        assertThat(result.findings()).isEmpty();
    }

    @Test
    void aKstatusOnlyCheckerRunsNoCheck() {
        var result = StatusChecker.kstatusOnly(CLOCK).check(object(1, 1, List.of()));
        assertThat(result.findings()).isEmpty();
        assertThat(result.kstatus()).map(kstatus -> kstatus.status()).contains(KstatusStatus.CURRENT);
    }

    @Test
    void checksALiveObjectThroughTheReader() {
        var asked = new ArrayList<ObjectReference>();
        ObjectReader reader = reference -> {
            asked.add(reference);
            return object(1, 1, List.of(condition("Ready", "True", 1)));
        };
        var reference = ObjectReference.of("GitRepository", "flux-system", "podinfo");

        var result = StatusChecker.of(CONDITIONS).readingFrom(reader).check(reference);

        assertThat(asked).containsExactly(reference);
        assertThat(result.findings()).isEmpty();
    }

    @Test
    void readErrorsReachTheCallerUnchanged() {
        ObjectReader reader = reference -> {
            throw new ObjectReadException(ObjectReadException.Reason.NOT_FOUND, "GitRepository flux-system/podinfo not found");
        };
        assertThatThrownBy(() -> StatusChecker.of(CONDITIONS).readingFrom(reader)
                .check(ObjectReference.of("GitRepository", "flux-system", "podinfo")))
                .isInstanceOf(ObjectReadException.class)
                .hasMessage("GitRepository flux-system/podinfo not found");
    }

    @Test
    void aCheckerWithoutReaderSaysHowToCheckLiveObjects() {
        assertThatThrownBy(() -> StatusChecker.of(CONDITIONS).check(ObjectReference.of("Foo", "ns", "x")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("readingFrom(objectReader)");
    }

    @Test
    void aFieldThatCannotBeReadIsAFindingAndTheOtherChecksStillRun() {
        var rollout = Map.of("apiVersion", "argoproj.io/v1alpha1", "kind", "Rollout",
                "metadata", Map.of("namespace", "shop", "name", "web", "generation", 12),
                "status", Map.of("observedGeneration", "12", "conditions", List.of(condition("Ready", "True", 11))));
        var result = StatusChecker.of(CONDITIONS).withKstatus(CLOCK).check(rollout);
        assertThat(result.findings()).extracting(Finding::code).containsExactly(CheckCode.FAIL0000, CheckCode.FAIL0008);
        assertThat(result.findings().getFirst().field()).isEqualTo("status.observedGeneration");
        assertThat(result.kstatus()).map(KstatusResult::status).contains(KstatusStatus.UNKNOWN);
        assertThat(result.isUnreadable()).isTrue();
    }

    @Test
    void anObjectThatCannotBeReadAtAllGetsAResultOfItsOwn() {
        var problem = new FieldProblem("", "expected an object, found the string \"text\"");
        var result = StatusChecker.of(CONDITIONS).withKstatus(CLOCK).unreadable(new ObjectIdentity("", "", "", ""), problem);
        assertThat(result.failures()).singleElement().extracting(Finding::code).isEqualTo(CheckCode.FAIL0000);
        assertThat(result.kstatus()).map(KstatusResult::unreadable).contains(java.util.Optional.of(problem));
        assertThat(StatusChecker.kstatusOnly(CLOCK).unreadable(new ObjectIdentity("", "", "", ""), problem).findings()).isEmpty();
        assertThat(StatusChecker.of(CONDITIONS).check(object(1, 1, List.of(condition("Ready", "True", 1)))).isUnreadable()).isFalse();
    }

    @Test
    void referencesNeedAKindAndAName() {
        assertThatThrownBy(() -> ObjectReference.of("", "ns", "x")).hasMessageContaining("kind");
        assertThatThrownBy(() -> ObjectReference.of("Foo", "ns", " ")).hasMessageContaining("name");
        assertThat(new ObjectReference("example.com/v1", "Foo", "", "x").describe()).isEqualTo("Foo/x (example.com/v1)");
    }
}
