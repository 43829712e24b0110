package dwd.adapters.k8s.objects;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonDocumentsTest {

    @Test
    void integersBecomeLongsAndOtherNumbersDoubles() {
        Map<String, Object> document = JsonDocuments.parseObject(
                "{\"a\":1,\"b\":-7,\"c\":1.0,\"d\":2.5e3,\"e\":92233720368547758070,\"f\":0}").orElseThrow();
        assertThat(document).containsEntry("a", 1L).containsEntry("b", -7L).containsEntry("c", 1.0)
                .containsEntry("d", 2500.0).containsEntry("e", new BigInteger("92233720368547758070"))
                .containsEntry("f", 0L);
    }

    @Test
    void nestedValuesKeepTheirOrderAndTypes() {
        Map<String, Object> document = JsonDocuments.parseObject(
                "{\"kind\":\"Foo\",\"status\":{\"ready\":true,\"conditions\":[{\"type\":\"Ready\"},null]}}").orElseThrow();
        var conditions = new LinkedHashMap<String, Object>();
        conditions.put("ready", true);
        conditions.put("conditions", Arrays.asList(Map.of("type", "Ready"), null));
        assertThat(document).containsExactly(Map.entry("kind", "Foo"), Map.entry("status", conditions));
    }

    @Test
    void somethingOtherThanAnObjectIsNotADocument() {
        assertThat(JsonDocuments.parseObject("[1,2]")).isEmpty();
        assertThat(JsonDocuments.parseObject("404 page not found")).isEmpty();
        assertThat(JsonDocuments.parseObject("{")).isEmpty();
    }
}
