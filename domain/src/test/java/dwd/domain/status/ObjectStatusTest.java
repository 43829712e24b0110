package dwd.domain.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectStatusTest {

    private static Map<String, Object> object(Object generation, Object observedGeneration, Object conditions) {
        Map<String, Object> metadata = new HashMap<>();
        metadata.put("name", "x");
        if (generation != null) {
            metadata.put("generation", generation);
        }
        Map<String, Object> status = new HashMap<>();
        if (observedGeneration != null) {
            status.put("observedGeneration", observedGeneration);
        }
        if (conditions != null) {
            status.put("conditions", conditions);
        }
        return Map.of("kind", "Foo", "metadata", metadata, "status", status);
    }

    private static ObjectStatus readStrictly(Map<String, ?> document) {
        return StatusReading.read(document).statusOrThrow();
    }

    @Test
    void readsGenerationsAndConditionsInListOrder() {
        var status = readStrictly(object(4, 3L, List.of(
                Map.of("type", "Ready", "status", "False", "reason", "Failing", "message", "boom", "observedGeneration", 4),
                Map.of("type", "FetchFailed", "status", "True"))));
        assertThat(status).isEqualTo(new ObjectStatus(4, 3, List.of(
                new Condition("Ready", "False", "Failing", "boom", 4),
                new Condition("FetchFailed", "True", "", "", 0))));
    }

    @Test
    void absentFieldsReadAsZeroOrEmpty() {
        assertThat(readStrictly(Map.of("kind", "Foo"))).isEqualTo(new ObjectStatus(0, 0, List.of()));
        assertThat(readStrictly(object(null, null, null))).isEqualTo(new ObjectStatus(0, 0, List.of()));
    }

    @Test
    void bigIntegersThatFitALongAreIntegers() {
        assertThat(readStrictly(object(BigInteger.valueOf(9), 9, List.of())).generation()).isEqualTo(9);
    }

    @Test
    void integersOfEveryJavaTypeAreIntegersButTooBigOnesAreNot() {
        assertThat(ObjectDocument.asInteger((short) 3)).contains(3L);
        assertThat(ObjectDocument.asInteger((byte) 4)).contains(4L);
        assertThat(ObjectDocument.asInteger(BigInteger.valueOf(Long.MAX_VALUE))).contains(Long.MAX_VALUE);
        assertThat(ObjectDocument.asInteger(BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE))).isEmpty();
        assertThat(ObjectDocument.asInteger(2.0)).isEmpty();
    }

    @Test
    void controlCharactersAreQuotedAsGoQuotesThem() {
        assertThat(GoQuoting.quote("a\u0001b\tc\u0085")).isEqualTo("\"a\\x01b\\tc\\u0085\"");
    }

    @Test
    void findingsAndIdentitiesPrintReadably() {
        assertThat(new Finding(CheckCode.FAIL0002, "Ready condition must always be present"))
                .hasToString("FAIL0002 failure: Ready condition must always be present");
        assertThat(Severity.WARNING.word()).isEqualTo("warning");
        assertThat(new ObjectIdentity("v1", "Pod", "ns", "p")).hasToString("Pod/ns/p");
    }

    @Test
    void aDecimalGenerationIsReportedWithItsPath() {
        assertThatThrownBy(() -> readStrictly(object(1.0, 1, List.of())))
                .isInstanceOf(MalformedObjectException.class)
                .hasMessage("metadata.generation: expected an integer, found 1.0 (a decimal number)")
                .extracting(e -> ((MalformedObjectException) e).fieldPath()).isEqualTo("metadata.generation");
    }

    @Test
    void aStringObservedGenerationIsReported() {
        assertThatThrownBy(() -> readStrictly(object(1, "3", List.of())))
                .hasMessage("status.observedGeneration: expected an integer, found \"3\" (a string)");
    }

    @Test
    void conditionsThatAreNotAListAreReported() {
        assertThatThrownBy(() -> readStrictly(object(1, 1, Map.of("type", "Ready"))))
                .hasMessage("status.conditions: expected a list, found a mapping");
    }

    @Test
    void aStatusThatIsNotAMappingIsReported() {
        assertThatThrownBy(() -> readStrictly(Map.of("status", List.of())))
                .hasMessage("status: expected a mapping, found a list");
    }

    @Test
    void aConditionEntryThatIsNotAMappingIsReportedWithItsIndex() {
        assertThatThrownBy(() -> readStrictly(object(1, 1, List.of(Map.of("type", "Ready"), "Stalled"))))
                .hasMessage("status.conditions[1]: expected a mapping, found \"Stalled\" (a string)");
    }

    @Test
    void aBooleanStatusGetsTheYamlQuotingHint() {
        assertThatThrownBy(() -> readStrictly(object(1, 1, List.of(Map.of("type", "Ready", "status", true)))))
                .hasMessage("status.conditions[0].status: expected a string, found true (a boolean); "
                        + "YAML reads an unquoted True as a boolean, quote it: \"True\"")
                .extracting(e -> ((MalformedObjectException) e).fieldPath()).isEqualTo("status.conditions[0].status");
    }

    /** As controller-check's typed conditions read it: a missing type is the type "". */
    @Test
    void aConditionWithoutTypeHasTheEmptyType() {
        assertThat(readStrictly(object(1, 1, List.of(Map.of("status", "True")))).conditions())
                .containsExactly(new Condition("", "True", "", "", 0));
    }

    @Test
    void aConditionObservedGenerationOfTheWrongTypeIsReported() {
        assertThatThrownBy(() -> readStrictly(object(1, 1, List.of(Map.of("type", "Ready", "observedGeneration", 2.5)))))
                .hasMessage("status.conditions[0].observedGeneration: expected an integer, found 2.5 (a decimal number)");
    }

    /** controller-check reads typed objects: an explicit null is the zero value, never an error. */
    @Test
    void explicitNullsReadAsZeroOrEmpty() {
        var metadata = new HashMap<String, Object>();
        metadata.put("generation", null);
        var status = new HashMap<String, Object>();
        status.put("observedGeneration", null);
        var entry = new HashMap<String, Object>();
        entry.put("type", "Ready");
        entry.put("observedGeneration", null);
        entry.put("reason", null);
        status.put("conditions", java.util.Arrays.asList(entry, null));
        var reading = StatusReading.read(Map.of("metadata", metadata, "status", status));
        assertThat(reading.unreadable()).isEmpty();
        assertThat(reading.status()).isEqualTo(new ObjectStatus(0, 0, List.of(
                new Condition("Ready", "", "", "", 0), new Condition("", "", "", "", 0))));
    }

    @Test
    void eachPartThatCannotBeReadIsNamedAndTheOthersAreStillRead() {
        var reading = StatusReading.read(object(3, "3", List.of(Map.of("type", "Ready", "status", "True", "observedGeneration", 3))));
        assertThat(reading.unreadable()).containsOnlyKeys(StatusInput.OBSERVED_GENERATION)
                .containsValue(new FieldProblem("status.observedGeneration", "expected an integer, found \"3\" (a string)"));
        assertThat(reading.status()).isEqualTo(new ObjectStatus(3, 0, List.of(new Condition("Ready", "True", "", "", 3))));
        assertThat(reading.canRun(CheckCode.FAIL0006)).isFalse();
        assertThat(reading.canRun(CheckCode.FAIL0008)).isTrue();
    }

    @Test
    void aStatusThatIsNotAMappingMakesBothOfItsPartsUnreadable() {
        var reading = StatusReading.read(Map.of("metadata", Map.of("generation", 2), "status", "broken"));
        assertThat(reading.unreadable()).containsOnlyKeys(StatusInput.OBSERVED_GENERATION, StatusInput.CONDITIONS);
        assertThat(reading.status().generation()).isEqualTo(2);
    }

    @Test
    void helpersSeeOnlyTheFirstEntryOfAType() {
        var status = new ObjectStatus(1, 1, List.of(Condition.of("Ready", "False", 1), Condition.of("Ready", "True", 1)));
        assertThat(status.isTrue("Ready")).isFalse();
        assertThat(status.condition("Ready")).map(Condition::status).contains("False");
    }

    @Test
    void readinessFollowsFluxHelpers() {
        var readyOnly = new ObjectStatus(1, 1, List.of(Condition.of("Ready", "True", 1)));
        var readyReconciling = new ObjectStatus(1, 1, List.of(
                Condition.of("Ready", "True", 1), Condition.of("Reconciling", "True", 1)));
        var readyBoth = new ObjectStatus(1, 1, List.of(
                Condition.of("Ready", "True", 1), Condition.of("Reconciling", "True", 1), Condition.of("Stalled", "True", 1)));
        assertThat(readyOnly.isReady()).isTrue();
        assertThat(readyReconciling.isReady()).isFalse();
        assertThat(readyReconciling.isReconciling()).isTrue();
        assertThat(readyBoth.isReady()).isTrue();
        assertThat(readyBoth.isReconciling()).isFalse();
        assertThat(readyBoth.isStalled()).isFalse();
    }

    @Test
    void identityDescribesNamespacedAndClusterScopedObjects() {
        var namespaced = ObjectDocument.of(Map.of("apiVersion", "example.com/v1", "kind", "Foo",
                "metadata", Map.of("namespace", "ns", "name", "x"))).identity();
        var clusterScoped = ObjectDocument.of(Map.of("apiVersion", "v1", "kind", "Namespace",
                "metadata", Map.of("name", "ns"))).identity();
        assertThat(namespaced.describe()).isEqualTo("Foo/ns/x");
        assertThat(clusterScoped.describe()).isEqualTo("Namespace/ns");
    }
}
